/**
 * The provider side of sign-out, loaded only when an app asks for it (see signout.ts): finds the
 * provider the session signed in with and its tokens, revokes a token there, and builds the
 * RP-Initiated Logout URL from the discovered `end_session_endpoint`.
 */
import { authorizationServer } from "../oauth/discovery.js"
import type { ProviderTokens } from "./refresh-types.js"
import { revokeToken } from "../oauth/tokens.js"
import type { ResolvedOAuthProvider } from "../providers/types.js"
import { readClaims } from "../adapters/jwt-session-token.js"
import { oauthProviderOf, openTokenCookie, tokenClaimOf } from "./jwt-session.js"
import { tokensLiveInAccountRows } from "./token-home.js"
import type { HeldSession, ProviderTokensHost } from "./types.js"

/** The provider a session signed in with, and the tokens kept for it. */
interface ProviderSession {
  provider: ResolvedOAuthProvider
  tokens: ProviderTokens
}

/**
 * The provider session of a database session: the user's account at the provider the form names,
 * else their one OpenID Connect account (several leave it undecided: local sign-out only).
 */
async function databaseProviderSession(context: ProviderTokensHost, form: URLSearchParams, session: HeldSession | null | undefined): Promise<ProviderSession | undefined> {
  const list = context.adapter?.listAccountsByUserId
  if (!session || !list) return undefined
  const rows = await list(session.userId)
  const named = form.get("provider")
  const candidates = rows.filter((row) => (named === null ? oauthProviderOf(context, row.provider)?.type === "oidc" : row.provider === named))
  const row = candidates.length === 1 ? candidates[0]! : undefined
  const provider = row && oauthProviderOf(context, row.provider)
  if (!row || !provider) return undefined
  const tokens: ProviderTokens = {}
  for (const field of ["access_token", "refresh_token", "id_token"] as const) if (typeof row[field] === "string") tokens[field] = row[field] as string
  return { provider, tokens }
}

async function providerSession(context: ProviderTokensHost, form: URLSearchParams, session: HeldSession | null | undefined): Promise<ProviderSession | undefined> {
  if (tokensLiveInAccountRows(context)) return databaseProviderSession(context, form, session)
  const claim = tokenClaimOf(await readClaims(context))
  const provider = claim && oauthProviderOf(context, claim.provider)
  if (!claim || !provider) return undefined
  // A token cookie that is not this session's gives no tokens: the provider session still ends, without a hint.
  return { provider, tokens: (await openTokenCookie(context, claim)) ?? {} }
}

async function revoke(context: ProviderTokensHost, { provider, tokens }: ProviderSession): Promise<void> {
  const [token, tokenTypeHint] = tokens.refresh_token ? [tokens.refresh_token, "refresh_token" as const] : [tokens.access_token, "access_token" as const]
  if (!token) return
  try {
    await revokeToken(provider, token, { tokenTypeHint, ...context.http })
  } catch (error) {
    context.logger.warn("ERR_SIGNOUT_REVOCATION", { provider: provider.id, code: (error as { code?: unknown }).code ?? "ERR_UNKNOWN" })
  }
}

/** The provider's end-session URL for this sign-out, or undefined when it has none. */
async function endSessionUrl(context: ProviderTokensHost, { provider, tokens }: ProviderSession, destination: string): Promise<string | undefined> {
  let endpoint: string | undefined
  try {
    endpoint = (await authorizationServer(provider, context.http)).end_session_endpoint
  } catch (error) {
    context.logger.warn("ERR_SIGNOUT_DISCOVERY", { provider: provider.id, code: (error as { code?: unknown }).code ?? "ERR_UNKNOWN" })
    return undefined
  }
  if (!endpoint) {
    context.logger.debug("federated sign-out: the provider has no end_session_endpoint; signed out of the app only", { provider: provider.id })
    return undefined
  }
  const url = new URL(endpoint)
  url.searchParams.set("client_id", provider.clientId)
  url.searchParams.set("post_logout_redirect_uri", destination)
  if (context.providerTokens?.signOut?.idTokenHint && tokens.id_token) url.searchParams.set("id_token_hint", tokens.id_token)
  return url.href
}

/**
 * Before the session ends: revokes (with `revokeTokens`, and only for a database session confirmed
 * against its row: a revoked session's cache copy revokes nothing) and answers the provider's
 * end-session URL (with `federated`), or undefined for a local sign-out only.
 */
export async function providerSignOut(context: ProviderTokensHost, form: URLSearchParams, destination: string, federated: boolean, revokes: boolean, session?: HeldSession | null): Promise<string | undefined> {
  const upstream = await providerSession(context, form, session).catch(() => undefined)
  if (!upstream) {
    context.logger.debug("sign-out: no provider session is known for this session; signed out of the app only")
    return undefined
  }
  if (revokes && (!session || (await session.confirm()))) await revoke(context, upstream)
  return federated ? endSessionUrl(context, upstream, destination) : undefined
}
