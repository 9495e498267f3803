/**
 * The sign-in checks (PKCE, state, nonce), end to end: which apply, making their values, sealing
 * each into its own cookie, and reading them back at the callback. A sealed value is a
 * `latchkey/jwt` token salted with its cookie name, valid 15 minutes and bound to the provider
 * id, so a cookie minted for one provider is refused by another.
 *
 * Over https the cookies are `__Host-` cookies, which binds them to the browser that started the
 * sign-in: a sibling subdomain can set `__Secure-` cookies for the parent domain, but a browser
 * refuses a `__Host-` cookie from anywhere but this host. So an attacker cannot plant their own
 * checks in a victim's browser and replay their callback there to link their provider account
 * to the victim's user. (Auth.js names these cookies `__Secure-`; a sign-in in flight while an app
 * moves over simply starts again.)
 */
import * as oauth from "oauth4webapi"
import { InvalidCheckError, type CheckName } from "../errors.js"
import { parseCookieHeader, setCookieHeaders, type SessionCookieOptions } from "../jwt/cookies.js"
import { decode } from "../jwt/decode.js"
import { encode } from "../jwt/encode.js"
import type { ResolvedOAuthProvider } from "../providers/types.js"

/**
 * How long a check cookie lives: 15 minutes.
 *
 * @example
 * ```ts
 * import { CHECK_MAX_AGE, startSignIn } from "latchkey/oauth"
 * const { cookies } = await startSignIn(github, { redirectUri })
 * cookies.every((cookie) => cookie.includes(`Max-Age=${CHECK_MAX_AGE}`)) // true: 900 s to come back from the provider
 * ```
 */
export const CHECK_MAX_AGE = 15 * 60

const COOKIE_NAMES: Record<CheckName, string> = { pkce: "authjs.pkce.code_verifier", state: "authjs.state", nonce: "authjs.nonce" }

/**
 * The cookie name of a check: `__Host-` over https, so that only this host can set it.
 *
 * Exported from `latchkey/oauth`.
 *
 * @example
 * ```ts
 * import { checkCookieName } from "latchkey/oauth"
 * checkCookieName("pkce", true) // "__Host-authjs.pkce.code_verifier"
 * checkCookieName("state", false) // "authjs.state"
 * ```
 */
export function checkCookieName(check: CheckName, secure: boolean): string {
  return secure ? `__Host-${COOKIE_NAMES[check]}` : COOKIE_NAMES[check]
}

/** The values a flow verifies at its callback. */
export type CheckValues = Partial<Record<CheckName, string>>

/**
 * The checks that run for this provider and server. PKCE needs an S256-capable server; one that
 * advertises its methods without S256 gets `nonce` (OpenID Connect) or `state` instead, so the
 * flow is never left unprotected.
 */
export function effectiveChecks(provider: ResolvedOAuthProvider, server: oauth.AuthorizationServer): CheckName[] {
  const configured = provider.checks.filter((check): check is CheckName => check !== "none")
  const methods = server.code_challenge_methods_supported
  if (!configured.includes("pkce") || methods === undefined || methods.includes("S256")) return configured
  const fallback: CheckName = provider.type === "oidc" ? "nonce" : "state"
  return [...new Set([...configured.filter((check) => check !== "pkce"), fallback])]
}

/**
 * Whether a provider's flow runs no check at all (`checks: ["none"]`): nothing ties its callback
 * to the browser that started it, so a callback an attacker started can be opened in anyone's.
 */
export function runsNoCheck(provider: { checks: readonly string[] }): boolean {
  return provider.checks.every((check) => check === "none")
}

/** Fresh values for each check. */
export function createCheckValues(checks: CheckName[]): CheckValues {
  const values: CheckValues = {}
  if (checks.includes("pkce")) values.pkce = oauth.generateRandomCodeVerifier()
  if (checks.includes("state")) values.state = oauth.generateRandomState()
  if (checks.includes("nonce")) values.nonce = oauth.generateRandomNonce()
  return values
}

/**
 * Cookie attributes for check cookies: host-only and path `/` (as `__Host-` requires); a
 * form_post callback is a cross-site POST, so SameSite=None there.
 */
function checkCookieOptions(provider: ResolvedOAuthProvider, secure: boolean, maxAge: number): SessionCookieOptions {
  if (provider.quirks.formPost) return { path: "/", secure: true, sameSite: "none", httpOnly: true, maxAge }
  return { path: "/", secure, sameSite: "lax", httpOnly: true, maxAge }
}

interface SealedCheck {
  value: string
  provider: string
}

/** Set-Cookie values holding each check value, sealed and bound to the provider. */
export async function sealChecks(provider: ResolvedOAuthProvider, values: CheckValues, secret: string[], secure: boolean, nameOf = (check: CheckName) => checkCookieName(check, secure)): Promise<string[]> {
  const cookies: string[] = []
  for (const [check, value] of Object.entries(values) as [CheckName, string][]) {
    const name = nameOf(check)
    const token = await encode<SealedCheck>({ token: { value, provider: provider.id }, secret, salt: name, maxAge: CHECK_MAX_AGE })
    cookies.push(...setCookieHeaders({ name, value: token, options: checkCookieOptions(provider, secure, CHECK_MAX_AGE) }))
  }
  return cookies
}

/** Reads and verifies every check cookie; throws {@link index!InvalidCheckError} for any that fails. */
export async function readChecks(
  provider: ResolvedOAuthProvider,
  checks: CheckName[],
  request: Request,
  secret: string[],
  secure: boolean,
  nameOf = (check: CheckName) => checkCookieName(check, secure)
): Promise<CheckValues> {
  const cookies = parseCookieHeader(request.headers.get("cookie"))
  const values: CheckValues = {}
  for (const check of checks) {
    const name = nameOf(check)
    const token = cookies[name]
    if (!token) throw new InvalidCheckError(check, "missing")
    const sealed = await decode<SealedCheck>({ token, secret, salt: name }).catch(() => null)
    if (sealed === null || typeof sealed.value !== "string" || sealed.provider !== provider.id) throw new InvalidCheckError(check, "invalid")
    values[check] = sealed.value
  }
  return values
}

/** Set-Cookie values that clear the check cookies. */
export function clearChecks(provider: ResolvedOAuthProvider, checks: CheckName[], secure: boolean, nameOf = (check: CheckName) => checkCookieName(check, secure)): string[] {
  return checks.flatMap((check) => setCookieHeaders({ name: nameOf(check), value: null, options: checkCookieOptions(provider, secure, 0) }))
}
