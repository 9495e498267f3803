/**
 * The session: a `latchkey/jwt` token in a chunked cookie. Writing runs the `jwt` callback over the
 * default claims; reading decodes, runs the `session` callback over the default session, and slides
 * the expiry once the token is older than `updateAge`.
 *
 * A session this app signs in is bound to the browser it was made in: it carries a hash of that
 * browser's CSRF token, which over https lives in a `__Host-` cookie no sibling subdomain can set.
 * A session cookie a sibling planted (its own, made in the attacker's browser) does not match, so
 * every read treats it as signed out (unless `session.sharedAcrossSubdomains`), and account
 * linking never treats it as the signed-in user. A session with no binding (Auth.js's, from before
 * the move) is read as it is, and bound when it is next re-issued.
 */
import { decode as decodeToken } from "../jwt/decode.js"
import { encode as encodeToken } from "../jwt/encode.js"
import type { Account, JWT, Profile, Session, User } from "../types.js"
import { fireEvent, type RequestContext } from "./config.js"
import { clearTokenCookie, cookieName, cookieSpec, sessionTokenOf, sessionTokenOfContext, setCookieHeaders } from "./cookies.js"
import { browserBinding, csrfToken } from "./csrf.js"
import { constantTimeEqual, sha256 } from "./digest.js"
import type { FreshClaim, HeldTokens, KeptTokens, TokenClaim } from "../provider-tokens/types.js"

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
  if (user.id !== undefined) claims.sub = user.id
  return claims
}

/** The session cookie's name for this request's origin. */
function sessionCookieName(context: RequestContext): string {
  return cookieName(context, "sessionToken")
}

/**
 * Encodes claims into Set-Cookie values for the session cookie. `browser` is the binding to keep:
 * the one the session already had, or a new sign-in's (see {@link bindToBrowser}). `tokens` is the
 * provider tokens to keep: their claim goes in the session, their set in the token cookie written
 * after it, bound to the token just encoded (see provider-tokens/jwt-session.ts); whatever the
 * claims say under either reserved name is replaced.
 */
export async function sessionCookies(context: RequestContext, claims: JWT, browser: unknown, tokens?: HeldTokens): Promise<string[]> {
  const { name, options } = cookieSpec(context, "sessionToken", context.sessionMaxAge)
  const { config, secret, sessionMaxAge } = context
  const token = { ...claims }
  if (typeof browser === "string") token[BROWSER_CLAIM] = browser
  else delete token[BROWSER_CLAIM]
  const engine = context.providerTokens
  const kept = engine ? await engine.keptTokens(context, tokens) : NO_TOKENS
  setTokenClaim(context, token, kept.claim)
  const params = { token, secret, salt: name, maxAge: sessionMaxAge }
  const encoded = config.jwt?.encode ? await config.jwt.encode(params) : await encodeToken(params)
  const tokenCookies = engine ? await engine.tokenCookies(context, kept, encoded) : clearTokenCookie(context)
  return [...setCookieHeaders({ name, value: encoded, options, request: context.request }), ...tokenCookies]
}

/**
 * The binding for a session signed in now, and the CSRF cookie to set so that the token it hashes
 * lives as long as the session (the CSRF cookie is made here when the request has none, as after a
 * cross-site `form_post` callback).
 */
export async function bindToBrowser(context: RequestContext): Promise<{ browser: string; cookies: string[] }> {
  const { token, cookies } = await csrfToken(context, context.sessionMaxAge)
  return { browser: await sha256(token), cookies }
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

function sameBinding(bound: string, binding: string | undefined): boolean {
  return binding !== undefined && constantTimeEqual(bound, binding)
}

/** Set-Cookie values that remove every chunk of the session cookie, and the provider token cookie with it. */
export function clearSessionCookies(context: RequestContext): string[] {
  const { name, options } = cookieSpec(context, "sessionToken")
  return [...setCookieHeaders({ name, value: null, options, request: context.request }), ...clearTokenCookie(context)]
}

/** What telling this browser's sessions apart needs: the request's cookies and the secret. */
export type BindingContext = Parameters<typeof browserBinding>[0]

/**
 * The session token's claims, or null when there is none, it does not decode (logged, not
 * thrown), or it is bound to another browser (a session a sibling subdomain planted), unless the
 * app shares sessions across subdomains.
 */
export async function readClaims(context: RequestContext): Promise<JWT | null> {
  const claims = await decodeSessionCookie(context)
  if (!claims || !context.sessionsBoundToBrowser) return claims
  // Answered without a promise when the browser's binding is remembered: no extra turn on the hot path.
  const here = isThisBrowsers(context, claims)
  if (here === true || (here !== false && (await here))) return claims
  context.logger.debug("session token ignored: bound to another browser", { code: "ERR_SESSION_NOT_BOUND" })
  return null
}

/** The session token's claims as decoded, whatever browser they are bound to; null when there is none or it does not decode. */
export async function decodeSessionCookie(context: RequestContext): Promise<JWT | null> {
  const salt = sessionCookieName(context)
  const token = sessionTokenOf(context.request, salt)
  if (!token) return null
  const params = { token, secret: context.secret, salt }
  try {
    return context.config.jwt?.decode ? await context.config.jwt.decode(params) : await decodeToken<JWT>(params)
  } catch (error) {
    context.logger.debug("session token rejected", { code: (error as { code?: unknown }).code ?? "ERR_DECODE_FAILED" })
    // Loaded on demand: only a cookie that failed to open pays for the warning's code.
    const { warnOnSecretMismatch } = await import("./secret-mismatch.js")
    warnOnSecretMismatch(context.diagnostics, error)
    return null
  }
}

/**
 * The claims after the `jwt` callback; null means the callback ended the session. The callback
 * sees the provider tokens claim as its object (see provider-tokens/jwt-session.ts). Without a
 * callback the claims are passed on as read: the session callback and events get the same view
 * when they run.
 */
export async function applyJwtCallback(
  context: RequestContext,
  params: { token: JWT; user?: User; account?: Account | null; profile?: Profile; isNewUser?: boolean; trigger: "signIn" | "signUp" | "update" | "session"; session?: unknown }
): Promise<JWT | null> {
  const callback = context.config.callbacks?.jwt
  return callback ? await callback({ ...params, token: publicClaims(context, params.token) }) : params.token
}

/**
 * What callbacks and events see of a session's claims: the provider tokens claim as its object
 * (see provider-tokens/jwt-session.ts). Without provider tokens, a claim left from when they were
 * kept is not shown.
 */
export function publicClaims(context: RequestContext, claims: JWT): JWT {
  if (context.providerTokens) return context.providerTokens.withPublicTokens(claims)
  if (!(TOKENS_CLAIM in claims)) return claims
  const { [TOKENS_CLAIM]: _left, ...rest } = claims
  return rest
}

/**
 * The session token's claims with the provider's access token freshened when it is due (see
 * provider-tokens/jwt-session.ts), and the provider tokens claim to keep; null when there is no session.
 */
export async function readFreshClaims(context: RequestContext): Promise<{ claims: JWT; tokens: FreshClaim } | null> {
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
function setTokenClaim(context: RequestContext, claims: JWT, claim: TokenClaim | undefined): void {
  if (claim && context.providerTokens) claims[TOKENS_CLAIM] = context.providerTokens.claimText(claim)
  else delete claims[TOKENS_CLAIM]
}

/** The session object for claims, through the `session` callback. */
export async function sessionFor(context: RequestContext, claims: JWT, tokens?: TokenClaim): Promise<Session> {
  const expires = new Date(((claims.exp as number | undefined) ?? Math.floor(Date.now() / 1000) + context.sessionMaxAge) * 1000).toISOString()
  const session: Session = { user: { name: claims.name ?? null, email: claims.email ?? null, image: claims.picture ?? null }, expires }
  // `id` is the token's subject, as apps once added it in their session callback (an Auth.js app's callback that still does is unchanged).
  if (typeof claims.sub === "string") session.user.id = claims.sub
  if (tokens?.error) session.error = tokens.error
  const callback = context.config.callbacks?.session
  const shaped = callback ? await callback({ session, token: publicClaims(context, claims) }) : session
  // The app decides what to do about a refused refresh token; it cannot miss that it happened.
  return tokens?.error && shaped && typeof shaped === "object" ? { ...shaped, error: tokens.error } : shaped
}

/**
 * Reads the session for `/session`: when the token is older than `updateAge`, it is re-issued, so
 * the expiry slides while the user is active.
 */
export async function currentSession(context: RequestContext): Promise<{ session: Session | null; cookies: string[] }> {
  const read = await readFreshClaims(context)
  if (!read) return { session: null, cookies: sessionTokenOfContext(context) ? clearSessionCookies(context) : [] }
  const { claims, tokens } = read
  const shaped = await applyJwtCallback(context, { token: claims, trigger: "session" })
  if (!shaped) return { session: null, cookies: clearSessionCookies(context) }
  const age = Math.floor(Date.now() / 1000) - ((claims.iat as number | undefined) ?? 0)
  // Refreshed provider tokens are written back at once, so the cookie never holds a rotated-away refresh token for long.
  const slides = age >= context.updateAge || tokens.changed
  const cookies = slides ? await reissuedCookies(context, shaped, claims, tokens) : []
  const token = slides ? { ...shaped, exp: Math.floor(Date.now() / 1000) + context.sessionMaxAge } : shaped
  const session = await sessionFor(context, token, tokens.claim)
  await fireEvent(context, "session", { session, token: publicClaims(context, token) })
  return { session, cookies }
}

/**
 * The cookies that re-issue a session read as `read` with the claims `claims`: its binding is
 * kept, and the CSRF cookie that binding hashes slides with it (only this browser's own); a
 * session with no binding (Auth.js's, from before the move) is bound to this browser now.
 */
export async function reissuedCookies(context: RequestContext, claims: JWT, read: JWT, tokens?: HeldTokens): Promise<string[]> {
  const bound = read[BROWSER_CLAIM]
  const { browser, cookies } = typeof bound === "string" ? { browser: bound, cookies: await keepBinding(context, read) } : await bindToBrowser(context)
  return [...(await sessionCookies(context, claims, browser, tokens)), ...cookies]
}

async function keepBinding(context: RequestContext, claims: JWT): Promise<string[]> {
  if (!(await isThisBrowsers(context, claims))) return []
  return (await csrfToken(context, context.sessionMaxAge)).cookies
}
