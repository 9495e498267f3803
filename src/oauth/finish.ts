import * as oauth from "oauth4webapi"
import { InvalidCheckError, InvalidOptionError, OAuthCallbackError, OAuthProtocolError } from "../errors.js"
import type { ResolvedOAuthProvider } from "../providers/types.js"
import type { Account, Profile, TokenSet, User } from "../types.js"
import { clearChecks, effectiveChecks, readChecks, type CheckValues } from "./checks.js"
import { clientAuthFor, flowContext, type FlowContext, type FlowProvider, type SignInOptions } from "./context.js"
import { TENANT_PLACEHOLDER } from "./discovery.js"
import { providerFetch, requestOptions, type HttpOptions } from "./http.js"
import { checkIdTokenAlgorithm, verifyIdToken, type IdTokenSource } from "./id-token.js"
import { unverifiedPayload } from "./jwt-parts.js"
import { mapProfile, obtainProfile } from "./profile.js"
import { expiresAtOf } from "./token-expiry.js"
import { normalizeTokenResponse } from "./token-response.js"
import { translateError, type FlowStage } from "./translate-error.js"

/**
 * What a completed sign-in yields.
 *
 * @example
 * ```ts
 * import { finishSignIn, type FinishSignInResult } from "latchkey/oauth"
 * const result: FinishSignInResult = await finishSignIn(github, request, { redirectUri })
 * console.log(result.user.email, result.account.providerAccountId, result.tokens.scope)
 * // send `result.cookies` as Set-Cookie headers: they clear the check cookies
 * ```
 */
export interface FinishSignInResult {
  user: User
  account: Account
  /** The raw profile, before the profile callback. */
  profile: Profile
  tokens: TokenSet
  /** Set-Cookie values that clear the check cookies. */
  cookies: string[]
}

/** The callback's parameters: the query of a GET, or the form body of a `form_post` POST. */
async function callbackParameters(request: Request): Promise<URLSearchParams> {
  if (!(request instanceof Request)) throw new InvalidOptionError("request", "finishSignIn needs the Web Request that reached the callback.")
  if (request.method === "POST") {
    const type = request.headers.get("content-type") ?? ""
    if (!type.startsWith("application/x-www-form-urlencoded")) throw new OAuthProtocolError("callback", "a POST callback must be a form post.")
    return new URLSearchParams(await request.text())
  }
  return new URL(request.url).searchParams
}

/** Multi-tenant Entra ID: the issuer to expect is the template filled with the token's own tenant. */
async function serverForResponse(context: FlowContext, response: Response): Promise<oauth.AuthorizationServer> {
  const { server, provider } = context
  if (!server.issuer.includes(TENANT_PLACEHOLDER)) return server
  const body = (await response.clone().json().catch(() => ({}))) as { id_token?: unknown }
  const tid = typeof body.id_token === "string" ? unverifiedPayload(body.id_token)?.tid : undefined
  if (typeof tid !== "string" || !/^[0-9a-f-]{36}$/i.test(tid)) throw new OAuthProtocolError(provider.id, "the id_token has no valid tid to fill the issuer template.")
  // A function, so the tenant is put in as it is: a string replacement would read `$&` in it as a pattern.
  return { ...server, issuer: server.issuer.replace(TENANT_PLACEHOLDER, () => tid) }
}

async function tokenResponse(context: FlowContext, params: URLSearchParams, values: CheckValues, options: HttpOptions): Promise<Response> {
  const { provider, server, client, redirectUri } = context
  if (provider.token.request) {
    const { tokens } = await provider.token.request({
      checks: { code_verifier: values.pkce, state: values.state, nonce: values.nonce },
      params,
      provider,
      redirectUri,
      fetch: providerFetch(options, provider.id),
    })
    // Custom exchanges go through the same response processing, so an id_token is still validated.
    return normalizeTokenResponse(Response.json(tokens))
  }
  const response = await oauth.authorizationCodeGrantRequest(server, client, clientAuthFor(provider), params, redirectUri, values.pkce ?? oauth.nopkce, {
    ...requestOptions(server.token_endpoint, options, provider.id),
    additionalParameters: provider.token.params,
  })
  return normalizeTokenResponse((await provider.token.conform?.(response.clone())) ?? response)
}

/** Exchanges the code and validates the response, including the id_token and its signature. */
async function exchangeCode(context: FlowContext, params: URLSearchParams, values: CheckValues, options: HttpOptions) {
  const { provider, client } = context
  const response = await tokenResponse(context, params, values, options)
  const server = await serverForResponse(context, response)
  const source: IdTokenSource = provider.token.request ? "custom_request" : "token_endpoint"
  await checkIdTokenAlgorithm(provider, server, response, source)
  const result = await oauth.processAuthorizationCodeResponse(server, client, response, {
    expectedNonce: values.nonce ?? oauth.expectNoNonce,
    requireIdToken: provider.type === "oidc",
  })
  const claims = provider.type === "oidc" ? oauth.getValidatedIdTokenClaims(result) : undefined
  if (claims && result.id_token) await verifyIdToken(provider, server, response, result, options, source)
  return { result, claims }
}

function tokenSet(provider: ResolvedOAuthProvider, result: oauth.TokenEndpointResponse): TokenSet {
  const tokens: TokenSet = { ...result }
  const expiresAt = expiresAtOf(provider, result)
  if (expiresAt !== undefined) tokens.expires_at = expiresAt
  return tokens
}

/**
 * Finishes a sign-in at the callback. It reads the callback (the query of a GET, or the form body of
 * a `form_post` POST), verifies every check against its sealed cookie, validates the RFC 9207
 * `iss` when the provider sends one, exchanges the code with the configured client
 * authentication, validates the id_token (claims and, against the provider's JWKS, signature),
 * obtains the profile, and maps it through the provider's `profile` and `account` callbacks.
 *
 * Exported from `latchkey/oauth`.
 *
 * @throws {@link index!OAuthCallbackError} for a provider error response; {@link index!InvalidCheckError} for
 * a missing, invalid, foreign or mismatched check; {@link index!OAuthTokenError} when the token endpoint
 * refuses (a replayed code, a wrong secret); {@link index!OAuthProtocolError} for a failed protocol
 * check (issuer mix-up, id_token signature or claims); {@link index!OAuthProfileError} when the profile
 * cannot be read or mapped.
 *
 * @example
 * ```ts
 * import { finishSignIn } from "latchkey/oauth"
 * export async function GET(request: Request) {
 *   const { user, account, cookies } = await finishSignIn(github, request, { redirectUri: "https://app.example.com/auth/callback/github" })
 *   const response = new Response(null, { status: 302, headers: { location: "/" } })
 *   for (const cookie of cookies) response.headers.append("set-cookie", cookie)
 *   return response
 * }
 * ```
 */
export async function finishSignIn(provider: FlowProvider, request: Request, options: SignInOptions): Promise<FinishSignInResult> {
  const context = await flowContext(provider, options)
  const resolved = context.provider
  const params = await callbackParameters(request)
  const error = params.get("error")
  if (error !== null) {
    throw new OAuthCallbackError(resolved.id, { error, error_description: params.get("error_description") ?? undefined, error_uri: params.get("error_uri") ?? undefined })
  }
  const checks = effectiveChecks(resolved, context.server)
  const values = await readChecks(resolved, checks, request, context.secret, context.secure, context.cookieName)
  if (values.state !== undefined && params.get("state") !== values.state) throw new InvalidCheckError("state", "mismatch")
  // Which request a failure belongs to, for its message: a provider's own userinfo code that times
  // out is "the userinfo request timed out", not the token request's.
  let stage: FlowStage = "token"
  try {
    const callback = oauth.validateAuthResponse(context.server, context.client, params, values.state ?? oauth.skipStateCheck)
    const { result, claims } = await exchangeCode(context, callback, values, options)
    const tokens = tokenSet(resolved, result)
    stage = "userinfo"
    const profile = await obtainProfile(context, tokens, claims, params, options)
    const { user, account } = await mapProfile(resolved, profile, tokens)
    return { user, account, profile, tokens, cookies: clearChecks(resolved, checks, context.secure, context.cookieName) }
  } catch (caught) {
    throw translateError(resolved.id, caught, stage)
  }
}
