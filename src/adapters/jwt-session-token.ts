/**
 * The JWT session's token: a `latchkey/jwt` token in a chunked cookie. Writing runs the `jwt` callback over the
 * default claims; reading decodes, runs the `session` callback over the default session, and slides
 * the expiry once the token is older than `updateAge`.
 *
 * A session this app signs in is bound to the browser it was made in: it carries a hash of that
 * browser's CSRF token, which over https lives in a `__Host-` cookie no sibling subdomain can set.
 * A session cookie a sibling planted (its own, made in the attacker's browser) does not match, so
 * every read treats it as signed out (unless `session.sharedAcrossSubdomains`), and account
 * linking never treats it as the signed-in user. A session with no binding (Auth.js's, from before
 * the move) is read as it is, and bound when it is next re-issued.
 *
 * With a session version store (the default for JWT sessions), a token also carries its user's
 * session version, and a read whose token is older than the user's version (their sessions were
 * revoked since it was issued) is signed out (see session-versions.ts).
 */
import { LatchkeyError } from "../errors.js"
import { setCookieHeaders } from "../jwt/cookies.js"
import { decode as decodeToken } from "../jwt/decode.js"
import { encode as encodeToken } from "../jwt/encode.js"
import { cookieName, cookieSpec } from "../jwt/cookie-names.js"
import type { Account, JWT, Profile, Session, User } from "../types.js"
import { bindToBrowser, browserBinding, csrfToken, sameBinding, type BindingContext } from "./browser-binding.js"
import { clearProviderTokenCookie, tokenCookieOf } from "./session-cookies.js"
import type { FreshClaim, HeldTokens, KeptTokens, SessionContext, SessionSettings, TokenClaim } from "./session-store.js"
import { revocationKeyOf, SESSION_VERSION_CLAIM, versionOf, type SessionVersionStore } from "./session-versions.js"

/**
 * The claim that binds a session to its browser: a hash of the browser's CSRF token. It is kept
 * by the handler, whatever the `jwt` callback returns.
 */
export const BROWSER_CLAIM = "latchkey.browser"

/**
 * The reserved claim that says which provider's tokens the session keeps, and when they are due
 * (written and read by `latchkey/provider-tokens`; see its jwt-session.ts).
 */
export const TOKENS_CLAIM = "latchkey.tokens"

/** What a session write keeps when the app keeps no provider tokens. */
const NO_TOKENS: KeptTokens = { claim: undefined }

/** The claims a new session starts with: `{ name, email, picture, sub }`. */
export function defaultClaims(user: User): JWT {
  const claims: JWT = { name: user.name ?? null, email: user.email ?? null, picture: user.image ?? null }
  // As a string, as Auth.js writes it: adapters on SERIAL ids (@auth/pg-adapter) hand back numbers.
  // An app's jwt callback may still write the number (revocationKeyOf reads both alike).
  if (user.id !== undefined && user.id !== null) claims.sub = String(user.id)
  return claims
}

/**
 * Encodes claims into Set-Cookie values for the session cookie. `browser` is the binding to keep:
 * the one the session already had, or a new sign-in's (see {@link bindToBrowser}). `tokens` is the
 * provider tokens to keep: their claim goes in the session, their set in the token cookie written
 * after it, bound to the token just encoded (see provider-tokens/jwt-session.ts). `version` is
 * the session version to carry (none without a version store). Whatever the claims say under any
 * reserved name is replaced.
 */
export async function sessionCookies(context: SessionContext, claims: JWT, browser: unknown, version: number | undefined, tokens?: HeldTokens): Promise<string[]> {
  const { name, options } = cookieSpec(context, "sessionToken", context.sessionMaxAge)
  const { codec, secret, sessionMaxAge } = context
  const token = { ...claims }
  if (typeof browser === "string") token[BROWSER_CLAIM] = browser
  else delete token[BROWSER_CLAIM]
  if (version !== undefined && context.sessionVersions) token[SESSION_VERSION_CLAIM] = version
  else delete token[SESSION_VERSION_CLAIM]
  const engine = context.providerTokens
  const kept = engine ? await engine.keptTokens(context, tokens) : NO_TOKENS
  setTokenClaim(context, token, kept.claim)
  const params = { token, secret, salt: name, maxAge: sessionMaxAge }
  const encoded = codec.encode ? await codec.encode(params) : await encodeToken(params)
  const tokenCookies = engine ? await engine.tokenCookies(context, kept, encoded) : clearProviderTokenCookie(context)
  return [...setCookieHeaders({ name, value: encoded, options, request: context.request }), ...tokenCookies]
}

/**
 * Whether a decoded session belongs to this browser: its `latchkey.browser` claim is the hash of
 * the request's valid CSRF token. A session with no binding was not made by this handler (an
 * Auth.js session from before the move, or a custom `jwt.encode`): that cannot be known, and it is
 * trusted as Auth.js would trust it. Every session read asks this (see {@link readClaims}).
 */
export function isThisBrowsers(context: BindingContext, claims: JWT): boolean | Promise<boolean> {
  const bound = claims[BROWSER_CLAIM]
  if (bound === undefined) return true
  if (typeof bound !== "string") return false
  const binding = browserBinding(context)
  return binding instanceof Promise ? binding.then((known) => sameBinding(bound, known)) : sameBinding(bound, binding)
}

/** Set-Cookie values that remove every chunk of the session cookie, and the provider token cookie with it. */
export function clearSessionCookies(context: SessionContext): string[] {
  const { name, options } = cookieSpec(context, "sessionToken")
  return [...setCookieHeaders({ name, value: null, options, request: context.request }), ...clearProviderTokenCookie(context)]
}

/**
 * The session token's claims, or null when there is none, it does not decode (logged, not
 * thrown), it is bound to another browser (a session a sibling subdomain planted) unless the app
 * shares sessions across subdomains, or its user's sessions were revoked after it was issued.
 */
export async function readClaims(context: SessionContext): Promise<JWT | null> {
  const claims = await decodeSessionCookie(context)
  if (!claims) return null
  if (context.sessionsBoundToBrowser) {
    // Answered without a promise when the browser's binding is remembered: no extra turn on the hot path.
    const here = isThisBrowsers(context, claims)
    if (here !== true && (here === false || !(await here))) {
      context.logger.debug("session token ignored: bound to another browser", { code: "ERR_SESSION_NOT_BOUND" })
      return null
    }
  }
  if (context.sessionVersions === undefined) return claims
  // A local lookup in the common case (a memory store, or a fresh cached version): no promise then.
  const current = isCurrentVersion(context, claims)
  if (current === true || (current !== false && (await current))) return claims
  context.logger.debug("session token revoked", { code: "ERR_SESSION_REVOKED" })
  return null
}

/** When each version store last had a failed read logged: an outage logs once a minute, not once a request. */
const failureLogged = new WeakMap<SessionVersionStore, number>()

/**
 * A read when the version store cannot answer (Redis down): the token is honoured, and the failure
 * logged (once a minute per store). Fail-open on purpose: the alternative signs every user out,
 * and `/session` would clear their cookies, for as long as the store is down; what is lost is only
 * revocations this instance has not seen (a store that still holds a stale copy answers with it).
 * Lasting changes (`confirmedUser`) fail closed instead.
 */
function readFailed(context: SessionContext, store: SessionVersionStore, error: unknown): true {
  const now = Date.now()
  if ((failureLogged.get(store) ?? 0) + 60_000 <= now) {
    failureLogged.set(store, now)
    context.logger.error(new LatchkeyError("Session versions failed: reads skip revocation checks", { cause: error }))
  }
  return true
}

/**
 * The user whose version a token is checked against (see {@link revocationKeyOf}), or the answer
 * when there is none to look up: true for a token without a subject, which names no user, so no
 * revocation can reach it; false for a subject no revocation can name.
 */
function versionedUser(claims: JWT): string | boolean {
  const userId = revocationKeyOf(claims)
  if (userId === undefined) return true
  return userId ?? false
}

/**
 * Whether a token's version is at least its user's: false once the user's sessions were revoked
 * after it was issued. Answers without a promise when the store does.
 */
export function isCurrentVersion(context: SessionContext, claims: JWT): boolean | Promise<boolean> {
  const store = context.sessionVersions
  if (store === undefined) return true
  const userId = versionedUser(claims)
  if (typeof userId === "boolean") return userId
  const carried = versionOf(claims)
  try {
    const current = store.get(userId)
    if (typeof current === "number") return carried >= current
    return current.then(
      (version) => carried >= version,
      (error: unknown) => readFailed(context, store, error)
    )
  } catch (error) {
    return readFailed(context, store, error)
  }
}

/**
 * Whether a token's version is at least its user's, asked of the shared store itself (no local
 * copy): for a change that lasts. A store that cannot answer throws (fail-closed).
 */
export async function isConfirmedVersion(context: SessionContext, claims: JWT): Promise<boolean> {
  const store = context.sessionVersions
  if (store === undefined) return true
  const userId = versionedUser(claims)
  if (typeof userId === "boolean") return userId
  return versionOf(claims) >= (await store.get(userId, true))
}

/**
 * Seconds a version outlives the tokens it revokes: a token issued just before the revocation
 * lives `session.maxAge` more, and this margin covers clocks a little apart between instances.
 */
const VERSION_MARGIN = 300

/**
 * Revokes every session of `userId` issued until now, through the version store (a failing store
 * throws: a revocation that did not happen must not look done). With the memory store in
 * production, the first revocation warns that it reached this instance only.
 */
export async function revokeVersions(settings: SessionSettings, store: SessionVersionStore, userId: string): Promise<void> {
  // Under the string a token's `sub` holds, whatever type the adapter's ids are (numbers from SERIAL ids).
  await store.bump(String(userId), settings.sessionMaxAge + VERSION_MARGIN)
  if (store.perInstance && !settings.diagnostics.development) {
    settings.diagnostics.warnOnce("session-versions-per-instance", "ERR_SESSION_VERSIONS_PER_INSTANCE", "revoked on this instance only: share session versions with redisSessionVersions")
  }
}

/**
 * The version a new session of `userId` carries: the shared store's (a cached copy could be older
 * than a revocation made on another instance, and the session would die at its next read). A store
 * that cannot answer is logged and 0 is used: the sign-in goes on, and if the user's sessions had
 * been revoked, this one is signed out once the store answers again. Undefined without a store.
 */
export async function versionForNewSession(settings: SessionSettings, userId: string | undefined): Promise<number | undefined> {
  const store = settings.sessionVersions
  if (store === undefined || userId === undefined) return undefined
  try {
    return await store.get(userId, true)
  } catch (error) {
    settings.logger.error(new LatchkeyError("Session versions failed: new session at version 0", { cause: error }))
    return 0
  }
}

/** The session token's claims as decoded, whatever browser they are bound to; null when there is none or it does not decode. */
export async function decodeSessionCookie(context: SessionContext): Promise<JWT | null> {
  const salt = cookieName(context, "sessionToken")
  const token = tokenCookieOf(context.request, salt)
  if (!token) return null
  const params = { token, secret: context.secret, salt }
  let claims: JWT | null
  try {
    claims = context.codec.decode ? await context.codec.decode(params) : await decodeToken<JWT>(params)
  } catch (error) {
    context.logger.debug("session token rejected", { code: (error as { code?: unknown }).code ?? "ERR_DECODE_FAILED" })
    // Loaded on demand: only a cookie that failed to open pays for the warning's code.
    const { warnOnSecretMismatch } = await import("./secret-mismatch.js")
    warnOnSecretMismatch(context.diagnostics, error)
    return null
  }
  // \`session.maxAge\` bounds a token from its issue, whatever \`exp\` it carries: a revocation is kept
  // for \`maxAge\` (revokeVersions), so a token sealed under a longer one (before an app shortened it,
  // or by Auth.js with its own) must not outlive the revocation that ended it. A token every read
  // slides is re-sealed with a new \`iat\` long before.
  if (typeof claims?.iat === "number" && (claims.iat + context.sessionMaxAge) * 1000 <= Date.now()) {
    context.logger.debug("session token older than session.maxAge", { code: "ERR_SESSION_TOO_OLD" })
    return null
  }
  return claims
}

/**
 * The claims after the `jwt` callback; null means the callback ended the session. The callback
 * sees the provider tokens claim as its object (see provider-tokens/jwt-session.ts). Without a
 * callback the claims are passed on as read: the session callback and events get the same view
 * when they run.
 */
export async function applyJwtCallback(
  context: SessionContext,
  params: { token: JWT; user?: User; account?: Account | null; profile?: Profile; isNewUser?: boolean; trigger: "signIn" | "signUp" | "update" | "session"; session?: unknown }
): Promise<JWT | null> {
  const callback = context.callbacks.jwt
  return callback ? await callback({ ...params, token: publicClaims(context, params.token) }) : params.token
}

/**
 * What callbacks and events see of a session's claims: the provider tokens claim as its object
 * (see provider-tokens/jwt-session.ts). Without provider tokens, a claim left from when they were
 * kept is not shown.
 */
export function publicClaims(context: SessionContext, claims: JWT): JWT {
  if (context.providerTokens) return context.providerTokens.withPublicTokens(claims)
  if (!(TOKENS_CLAIM in claims)) return claims
  const { [TOKENS_CLAIM]: _left, ...rest } = claims
  return rest
}

/**
 * The session token's claims with the provider's access token freshened when it is due (see
 * provider-tokens/jwt-session.ts), and the provider tokens claim to keep; null when there is no session.
 */
export async function readFreshClaims(context: SessionContext): Promise<{ claims: JWT; tokens: FreshClaim } | null> {
  const claims = await readClaims(context)
  if (!claims) return null
  // Without provider tokens, a claim left from when they were kept is dropped at the next write.
  const fresh = context.providerTokens ? context.providerTokens.freshTokenClaim(context, claims) : { claim: undefined, changed: TOKENS_CLAIM in claims }
  const tokens = fresh instanceof Promise ? await fresh : fresh
  if (!tokens.changed) return { claims, tokens }
  const updated = { ...claims }
  setTokenClaim(context, updated, tokens.claim)
  return { claims: updated, tokens }
}

/** Puts the provider tokens claim, as its text, on claims being built, or removes it when there is none to keep. */
function setTokenClaim(context: SessionContext, claims: JWT, claim: TokenClaim | undefined): void {
  if (claim && context.providerTokens) claims[TOKENS_CLAIM] = context.providerTokens.claimText(claim)
  else delete claims[TOKENS_CLAIM]
}

/** The session object for claims, through the `session` callback. */
export async function sessionFor(context: SessionContext, claims: JWT, tokens?: TokenClaim): Promise<Session> {
  const expires = new Date(((claims.exp as number | undefined) ?? Math.floor(Date.now() / 1000) + context.sessionMaxAge) * 1000).toISOString()
  const session: Session = { user: { name: claims.name ?? null, email: claims.email ?? null, image: claims.picture ?? null }, expires }
  // `id` is the token's subject, as apps once added it in their session callback (an Auth.js app's callback that still does is unchanged).
  if (typeof claims.sub === "string") session.user.id = claims.sub
  if (tokens?.error) session.error = tokens.error
  const callback = context.callbacks.session
  const shaped = callback ? await callback({ session, token: publicClaims(context, claims) }) : session
  // The app decides what to do about a refused refresh token; it cannot miss that it happened.
  return tokens?.error && shaped && typeof shaped === "object" ? { ...shaped, error: tokens.error } : shaped
}

/**
 * The cookies that re-issue a session read as `read` with the claims `claims`: its binding is
 * kept, and the CSRF cookie that binding hashes slides with it (only this browser's own); a
 * session with no binding (Auth.js's, from before the move) is bound to this browser now.
 */
export async function reissuedCookies(context: SessionContext, claims: JWT, read: JWT, tokens?: HeldTokens): Promise<string[]> {
  const bound = read[BROWSER_CLAIM]
  const { browser, cookies } = typeof bound === "string" ? { browser: bound, cookies: await keepBinding(context, read) } : await bindToBrowser(context, context.sessionMaxAge)
  // The version the read was checked at: re-issuing never makes a session newer than its revocations.
  return [...(await sessionCookies(context, claims, browser, versionOf(read), tokens)), ...cookies]
}

async function keepBinding(context: SessionContext, claims: JWT): Promise<string[]> {
  if (!(await isThisBrowsers(context, claims))) return []
  return (await csrfToken(context, context.sessionMaxAge)).cookies
}
