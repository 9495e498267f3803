/**
 * Provider tokens in a JWT session, kept in two sealed cookies. The session token carries only
 * what every read needs to decide whether anything is due, under the reserved `latchkey.tokens`
 * claim, written as one short string: the access token's `expires_at` and the provider
 * (`"1764000000:google"`; see {@link claimText}). Every byte of the session is decrypted and
 * authenticated on every read, so the claim is kept to about twenty. The token set itself (access
 * and refresh token, the id_token when `signOut.idTokenHint` keeps it) is sealed in a cookie of
 * its own (`providerTokens` in the `cookies` option), bound to the session token it was written
 * with by that token's SHA-256. A read with nothing due never opens that cookie; a due refresh,
 * `getAccessToken` and federated sign-out do. Every write of the session writes the token cookie
 * again, bound to the new session token, so a token cookie from another session, or one older
 * than the session (its write was lost), does not match and counts as no provider tokens: never
 * as the tokens of whoever planted it.
 *
 * The handler keeps the claim whatever the `jwt` callback returns (as it keeps the browser
 * binding); callbacks see it as `{ provider, expires_at, error }` and never a token. A due read
 * refreshes through the coordinator; a route that can write cookies then re-issues both cookies,
 * and `auth()`, which cannot, is handed the same successor by the coordinator's memory of the
 * refresh until the next cookie-writing read (see docs/provider-tokens.md). Without the
 * `providerTokens` plug-in there is no claim and no token cookie.
 *
 * A refresh is a write (the provider mints a token and rotates the refresh token), so a due one
 * first asks the shared version store itself whether the session still holds, as every change that
 * lasts does (`isConfirmedVersion`, the check of the session store's `confirmedUser`): the read
 * before it may have trusted a local copy of the version that predates a revocation made on
 * another instance. A read with nothing due never asks.
 */
import { decode } from "../jwt/decode.js"
import { encode } from "../jwt/encode.js"
import type { ProviderTokens, RefreshCoordinator } from "./refresh-types.js"
import type { ResolvedOAuthProvider } from "../providers/types.js"
import type { Account, JWT } from "../types.js"
import { isConfirmedVersion, TOKENS_CLAIM } from "../adapters/jwt-session-token.js"
import { clearProviderTokenCookie, requestSessionToken, tokenCookieOf } from "../adapters/session-cookies.js"
import { setCookieHeaders } from "../jwt/cookies.js"
import { cookieName, cookieSpec } from "../jwt/cookie-names.js"
import { sha256 } from "../jwt/digest.js"
import { constantTimeEqual } from "../lib/digest.js"
import { LatchkeyError } from "../errors.js"
import { tokensLiveInAccountRows } from "./token-home.js"
import type { FreshClaim, HeldTokens, KeptTokens, ProviderTokensHost, ProviderTokensSettings, TokenClaim } from "./types.js"

/**
 * A token set as this file carries it: with the provider account it is for, so a hand-out or a
 * refresh can ask whether that account is still linked (cookies sealed before it was kept lack it).
 */
export interface AccountTokens extends ProviderTokens {
  providerAccountId?: string
}

/** What the token cookie seals: the token set, its provider, and the SHA-256 of the session token it was written with. */
interface SealedTokens extends AccountTokens {
  provider?: unknown
  session?: unknown
}

/** What the claim's text says after the refused refresh in place of an expiry. */
const ENDED = "!"

const STRING_FIELDS = ["access_token", "refresh_token", "token_type", "scope", "id_token"] as const

/**
 * The claim as the session stores it: `<expires_at>:<provider>`, `:<provider>` when no expiry is
 * kept, `!:<provider>` once a refresh was refused. The first colon ends the head, so a provider id
 * may hold colons of its own.
 */
export function claimText(claim: TokenClaim): string {
  return `${claim.error ? ENDED : (claim.expires_at ?? "")}:${claim.provider}`
}

/** The claim a decoded session carries, read from its text; undefined when there is none or it is malformed. */
export function tokenClaimOf(claims: JWT | null | undefined): TokenClaim | undefined {
  const value = claims?.[TOKENS_CLAIM]
  if (typeof value !== "string") return undefined
  const colon = value.indexOf(":")
  if (colon === -1 || colon === value.length - 1) return undefined
  const head = value.slice(0, colon)
  const claim: TokenClaim = { provider: value.slice(colon + 1) }
  if (head === ENDED) claim.error = "RefreshTokenError"
  else if (head !== "") {
    // Digits only, and few enough to be a safe integer (15 < 16, the digits of 2^53).
    if (!/^[0-9]{1,15}$/.test(head)) return undefined
    claim.expires_at = Number(head)
  }
  return claim
}

/** The fields of a token set, narrowed. */
function tokenFields(record: AccountTokens | SealedTokens | Account): AccountTokens {
  const tokens: AccountTokens = {}
  for (const field of STRING_FIELDS) if (typeof record[field] === "string") tokens[field] = record[field] as string
  if (typeof record.expires_at === "number") tokens.expires_at = record.expires_at
  if (typeof record.providerAccountId === "string") tokens.providerAccountId = record.providerAccountId
  return tokens
}

/** What the token cookie keeps of a token set, by what the app asked for; undefined when nothing. */
function kept(settled: Pick<ProviderTokensSettings, "refresher" | "providerTokens">, provider: string, tokens: AccountTokens): AccountTokens | undefined {
  const set: AccountTokens = {}
  // Revocation at sign-out needs the tokens even where they are not refreshed.
  if (settled.refresher?.covers(provider) || settled.providerTokens?.signOut?.revokeTokens === true) {
    for (const field of ["access_token", "refresh_token", "token_type", "scope"] as const) if (typeof tokens[field] === "string") set[field] = tokens[field]
    if (typeof tokens.expires_at === "number") set.expires_at = tokens.expires_at
  }
  if (settled.providerTokens?.signOut?.idTokenHint === true && typeof tokens.id_token === "string") set.id_token = tokens.id_token
  if (Object.keys(set).length === 0) return undefined
  if (tokens.providerAccountId !== undefined) set.providerAccountId = tokens.providerAccountId
  return set
}

/**
 * What a new sign-in's session keeps, or undefined for a sign-in without provider tokens. The
 * handler calls this engine only when an option keeps provider tokens (see settleProviderTokens in
 * handler/settle-provider-tokens.ts), so whether the app keeps any is never asked here again.
 */
export function tokenClaimForSignIn(context: ProviderTokensHost, account: Account): HeldTokens | undefined {
  // Database sessions keep them in the account row instead (see account-tokens.ts).
  if (tokensLiveInAccountRows(context) || (account.type !== "oauth" && account.type !== "oidc")) return undefined
  return { claim: { provider: account.provider }, tokens: tokenFields(account) }
}

/**
 * What callbacks see of the claim: `{ provider, expires_at, error }` in place of its text. The
 * claims are returned as they are when the claim is not text: absent, or already what a `jwt`
 * callback returned (which is never what is kept: see adapters/jwt-session-token.ts).
 */
export function withPublicTokens(claims: JWT): JWT {
  if (typeof claims[TOKENS_CLAIM] !== "string") return claims
  const claim = tokenClaimOf(claims)
  const copy = { ...claims }
  if (claim) copy[TOKENS_CLAIM] = claim
  else delete copy[TOKENS_CLAIM]
  return copy
}

/** The resolved OAuth provider with `id` in this context, if there is one. */
export function oauthProviderOf(context: ProviderTokensHost, id: string): ResolvedOAuthProvider | undefined {
  const provider = context.providers.find((candidate) => candidate.id === id)
  return provider && (provider.type === "oauth" || provider.type === "oidc") ? provider : undefined
}

/**
 * The token set sealed in the request's token cookie, when it belongs to this session: the same
 * provider as the claim, written with the session token the request carries. A missing,
 * undecodable or mismatched cookie is no token set (logged at debug, without the cookie).
 */
export async function openTokenCookie(context: ProviderTokensHost, claim: TokenClaim): Promise<AccountTokens | undefined> {
  if (claim.error) return undefined
  const name = cookieName(context, "providerTokens")
  const token = tokenCookieOf(context.request, name)
  const session = requestSessionToken(context)
  if (!token || !session) {
    context.logger.debug("provider tokens: the session's token cookie is missing; the session has none")
    return undefined
  }
  let sealed: SealedTokens | null
  try {
    sealed = await decode<SealedTokens>({ token, secret: context.secret, salt: name })
  } catch (error) {
    context.logger.debug("provider tokens: the token cookie was rejected", { code: (error as { code?: unknown }).code ?? "ERR_DECODE_FAILED" })
    return undefined
  }
  if (!sealed || sealed.provider !== claim.provider || typeof sealed.session !== "string" || !constantTimeEqual(sealed.session, await sha256(session))) {
    context.logger.debug("provider tokens: the token cookie belongs to another session (or an older one) and is ignored")
    return undefined
  }
  return tokenFields(sealed)
}

/**
 * What a session being written keeps: its claim, and the token set for the token cookie (opened
 * from the request first when the read did not). Nothing, when the session keeps no tokens.
 */
export async function keptTokens(context: ProviderTokensHost, held: HeldTokens | undefined): Promise<KeptTokens> {
  const claim = held?.claim
  if (!claim) return { claim: undefined }
  if (claim.error) return { claim: { provider: claim.provider, error: claim.error } }
  const opened = held.tokens ?? (await openTokenCookie(context, claim))
  const set = opened && kept(context, claim.provider, opened)
  if (!set) return { claim: { provider: claim.provider } }
  const next: TokenClaim = { provider: claim.provider }
  if (typeof set.expires_at === "number" && context.refresher?.covers(claim.provider)) next.expires_at = set.expires_at
  return { claim: next, set }
}

/**
 * The token cookie's Set-Cookie values for a session just encoded as `sessionToken`: the kept set
 * sealed and bound to that token, or the cookie removed when the session keeps no tokens.
 */
export async function tokenCookies(context: ProviderTokensHost, kept: KeptTokens, sessionToken: string): Promise<string[]> {
  if (!kept.claim || !kept.set) return clearProviderTokenCookie(context)
  const { name, options } = cookieSpec(context, "providerTokens", context.sessionMaxAge)
  const token: SealedTokens = { ...kept.set, provider: kept.claim.provider, session: await sha256(sessionToken) }
  const sealed = await encode<SealedTokens>({ token, secret: context.secret, salt: name, maxAge: context.sessionMaxAge })
  return setCookieHeaders({ name, value: sealed, options, request: context.request })
}

/** A due claim whose refresh was refused because the session no longer holds (revoked): nothing refreshed, nothing handed out. */
export interface RefusedClaim extends FreshClaim {
  refused: true
}

/**
 * The provider tokens of a decoded session with the access token fresh: the token cookie is opened
 * only when the claim says the access token is due, then refreshed through the coordinator, or
 * ended with `error` when the provider refused the refresh token. A due claim whose token cookie
 * does not match ends as no tokens, and a malformed claim is dropped. (With the feature off, the
 * handler drops a leftover claim itself: see readFreshClaims in adapters/jwt-session-token.ts.)
 * A due claim of a session the shared version store no longer confirms is left as it is: no
 * refresh, no token set, and `refused` said (`getAccessToken` then hands out none).
 */
export function freshTokenClaim(context: ProviderTokensHost, claims: JWT): FreshClaim | RefusedClaim | Promise<FreshClaim | RefusedClaim> {
  const claim = tokenClaimOf(claims)
  if (!claim) return { claim: undefined, changed: TOKENS_CLAIM in claims }
  const refresher = context.refresher
  // The path every read takes: one comparison of expires_at with the clock, no token cookie, and
  // no promise (the caller awaits only what is one).
  if (!refresher || claim.error || !refresher.covers(claim.provider) || !refresher.isDue(claim)) return { claim, changed: false }
  const provider = oauthProviderOf(context, claim.provider)
  if (!provider) return { claim, changed: false }
  return refreshedClaim(context, claims, claim, refresher, provider)
}

/**
 * Whether the session of `claims` still holds, asked of the shared version store (not this
 * instance's copy): what a refresh waits for. A store that cannot answer refuses (fail-closed, as
 * every change that lasts), logged.
 */
async function confirmedForRefresh(context: ProviderTokensHost, claims: JWT): Promise<boolean> {
  let confirmed: boolean
  try {
    confirmed = await isConfirmedVersion(context, claims)
  } catch (error) {
    context.logger.error(new LatchkeyError("Session versions failed: provider token refresh refused", { cause: error }))
    return false
  }
  if (!confirmed) context.logger.debug("provider tokens: not refreshed, the session was revoked", { code: "ERR_SESSION_REVOKED" })
  return confirmed
}

/**
 * Whether the account a token set is for is still linked to the session's user: `unlinkAccount`
 * removes the row, not the token cookie a JWT session keeps. Asked only where the app keeps
 * accounts (an adapter) and the set names its account (one sealed before it did is not asked).
 */
export async function stillLinked(context: ProviderTokensHost, claims: JWT, provider: string, tokens: AccountTokens): Promise<boolean> {
  const { providerAccountId } = tokens
  if (!context.adapter?.getUserByAccount || providerAccountId === undefined) return true
  const user = await context.adapter.getUserByAccount({ provider, providerAccountId })
  return user != null && String(user.id) === String(claims.sub)
}

/** {@link freshTokenClaim} for a claim that is due: the token cookie opened, the session confirmed, and the tokens refreshed. */
async function refreshedClaim(context: ProviderTokensHost, claims: JWT, claim: TokenClaim, refresher: RefreshCoordinator, provider: ResolvedOAuthProvider): Promise<FreshClaim | RefusedClaim> {
  const tokens = await openTokenCookie(context, claim)
  // Nothing to refresh: stop looking, and let the next write drop the claim's expiry.
  if (!tokens) return { claim: { provider: claim.provider }, changed: true }
  // Unchanged, so nothing is re-issued for a revoked session either.
  if (!(await confirmedForRefresh(context, claims))) return { claim, changed: false, refused: true }
  // An account unlinked since (the user disconnected it) is refreshed no more: ended, so the app
  // asks them to connect again, and the next write drops its token cookie.
  if (!(await stillLinked(context, claims, claim.provider, tokens))) return { claim: { provider: claim.provider, error: "RefreshTokenError" }, changed: true }
  const result = await refresher.ensureFresh(provider, tokens)
  if (result.status === "ended") return { claim: { provider: claim.provider, error: "RefreshTokenError" }, changed: true }
  if (result.status !== "refreshed") return { claim, tokens, changed: false }
  const next: AccountTokens = { ...result.tokens }
  if (next.id_token === undefined && tokens.id_token !== undefined) next.id_token = tokens.id_token
  if (tokens.providerAccountId !== undefined) next.providerAccountId = tokens.providerAccountId
  const fresh: TokenClaim = { ...claim }
  if (typeof next.expires_at === "number") fresh.expires_at = next.expires_at
  return { claim: fresh, tokens: next, changed: true }
}
