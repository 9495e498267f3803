import * as oauth from "oauth4webapi"
import { OAuthProtocolError } from "../errors.js"
import { isSecureUrl } from "../lib/secure-url.js"
import { effectiveChecks, createCheckValues, sealChecks } from "./checks.js"
import { flowContext, type FlowProvider, type SignInOptions } from "./context.js"

/**
 * What {@link startSignIn} takes beyond the shared options.
 *
 * @example
 * ```ts
 * import { startSignIn, type StartSignInOptions } from "latchkey/oauth"
 * import Google from "latchkey/providers/google"
 * const options: StartSignInOptions = { redirectUri: "https://app.example.com/auth/callback/google", params: { login_hint: "ada@example.com" } }
 * const { url, cookies } = await startSignIn(Google(), options)
 * ```
 */
export interface StartSignInOptions extends SignInOptions {
  /** Extra authorization parameters for this sign-in only, such as `{ login_hint }`. */
  params?: Record<string, string | undefined>
  /**
   * The `state` to send instead of a random one, when the state check applies: it must be as
   * unguessable as a random one (the handler's redirect proxy sends a sealed token). It is sealed
   * into the state cookie and checked at the callback like any state.
   */
  state?: string
}

/**
 * Where to send the browser, and the cookies that carry the sealed checks.
 *
 * @example
 * ```ts
 * import { startSignIn, type StartSignInResult } from "latchkey/oauth"
 * const { url, cookies }: StartSignInResult = await startSignIn(github, { redirectUri })
 * const headers = new Headers({ location: url.href })
 * for (const cookie of cookies) headers.append("set-cookie", cookie)
 * const response = new Response(null, { status: 302, headers })
 * ```
 */
export interface StartSignInResult {
  url: URL
  cookies: string[]
}

/** Parameters the flow owns: set last, so no provider or per-call parameter can change them. */
const FLOW_PARAMETERS = ["client_id", "redirect_uri", "response_type", "code_challenge", "code_challenge_method", "state", "nonce"]

/**
 * Starts a sign-in: discovers the provider when it has an issuer (cached), builds the
 * authorization URL (`response_type=code`, `client_id`, `redirect_uri`, the provider's scope and
 * parameters, then per-call `params`), and creates the checks. PKCE uses S256; a server that
 * advertises no S256 gets `nonce` (OpenID Connect) or `state` instead. Each check value is sealed
 * into its own cookie, bound to the provider, for 15 minutes.
 *
 * Exported from `latchkey/oauth`.
 *
 * @throws {@link index!InvalidProviderError} or {@link index!InvalidOptionError} for a configuration that
 * cannot work; {@link index!OAuthProtocolError} when discovery fails.
 *
 * @example
 * ```ts
 * import { startSignIn } from "latchkey/oauth"
 * import GitHub from "latchkey/providers/github"
 * const { url, cookies } = await startSignIn(GitHub(), { redirectUri: "https://app.example.com/auth/callback/github" })
 * const response = new Response(null, { status: 302, headers: { location: url.href } })
 * for (const cookie of cookies) response.headers.append("set-cookie", cookie)
 * ```
 */
export async function startSignIn(provider: FlowProvider, options: StartSignInOptions): Promise<StartSignInResult> {
  const context = await flowContext(provider, options)
  const { server, redirectUri } = context
  const resolved = context.provider
  if (server.authorization_endpoint === undefined) throw new OAuthProtocolError(resolved.id, "the provider has no authorization endpoint.")
  const checks = effectiveChecks(resolved, server)
  const values = createCheckValues(checks)
  if (options.state !== undefined && values.state !== undefined) values.state = options.state
  const url = new URL(server.authorization_endpoint)
  // The browser goes there, or a script assigns it to `location`: a discovery document naming a
  // `javascript:` or `data:` endpoint would run in the app's origin, a plain-http one leaks the request.
  if (!isSecureUrl(url)) throw new OAuthProtocolError(resolved.id, "the authorization endpoint must use https (plain http only on loopback hosts).")
  for (const params of [resolved.authorization.params, options.params ?? {}]) {
    for (const [key, value] of Object.entries(params)) {
      if (value !== undefined && !FLOW_PARAMETERS.includes(key)) url.searchParams.set(key, value)
    }
  }
  url.searchParams.set("response_type", resolved.quirks.responseType ?? "code")
  url.searchParams.set("client_id", resolved.clientId)
  if (resolved.quirks.clientIdParam) url.searchParams.set(resolved.quirks.clientIdParam, resolved.clientId)
  url.searchParams.set("redirect_uri", redirectUri)
  if (values.pkce !== undefined) {
    url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(values.pkce))
    url.searchParams.set("code_challenge_method", "S256")
  }
  if (values.state !== undefined) url.searchParams.set("state", values.state)
  if (values.nonce !== undefined) url.searchParams.set("nonce", values.nonce)
  return { url, cookies: await sealChecks(resolved, values, context.secret, context.secure, context.cookieName) }
}
