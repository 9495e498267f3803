/**
 * Token lifecycle after sign-in: refreshing (RFC 6749 §6) and revoking (RFC 7009). A provider whose
 * record says it cannot refresh, or has no revocation endpoint, fails with a typed error before any
 * request is made.
 */
import * as oauth from "oauth4webapi"
import { InvalidOptionError, RefreshNotSupportedError, RevocationNotSupportedError } from "../errors.js"
import type { ResolvedOAuthProvider } from "../providers/types.js"
import type { TokenSet } from "../types.js"
import { clientAuthFor, clientFor, resolvedProvider, type FlowProvider } from "./context.js"
import { authorizationServer } from "./discovery.js"
import { requestOptions, type HttpOptions } from "./http.js"
import { checkIdTokenAlgorithm, verifyIdToken } from "./id-token.js"
import { normalizeTokenResponse } from "./token-response.js"
import { expiresAtOf } from "./token-expiry.js"
import { translateError } from "./translate-error.js"

/**
 * Refresh and revocation use no app URLs; unresolved providers are resolved against this
 * placeholder origin, which is never sent anywhere.
 */
const NO_APP_URL = "https://app.invalid/"

/** Providers that name the client id differently (TikTok's `client_key`) want it on every request. */
function clientIdParameter(provider: ResolvedOAuthProvider): Record<string, string> {
  const name = provider.quirks.clientIdParam
  return name ? { [name]: provider.clientId } : {}
}

async function prepare(provider: FlowProvider, options: HttpOptions) {
  const resolved = resolvedProvider(provider, NO_APP_URL)
  return { provider: resolved, server: await authorizationServer(resolved, options), client: clientFor(resolved) }
}

/**
 * Exchanges a refresh token for a new token set. A rotated refresh token is in the result; when
 * the provider sends none, the old one is kept. A new id_token is validated like at sign-in.
 *
 * Exported from `latchkey/oauth`.
 *
 * @throws {@link index!RefreshNotSupportedError} for providers that cannot refresh;
 * {@link index!OAuthTokenError} when the provider refuses (an expired or revoked refresh token).
 *
 * @example
 * ```ts
 * import { refreshTokens } from "latchkey/oauth"
 * if (account.expires_at! * 1000 < Date.now()) {
 *   const tokens = await refreshTokens(google, account.refresh_token!)
 * }
 * ```
 */
export async function refreshTokens(provider: FlowProvider, refreshToken: string, options: HttpOptions = {}): Promise<TokenSet> {
  if (typeof refreshToken !== "string" || refreshToken === "") throw new InvalidOptionError("refreshToken", "refreshToken must be a non-empty string.")
  const { provider: resolved, server, client } = await prepare(provider, options)
  if (!resolved.capabilities.refresh) throw new RefreshNotSupportedError(resolved.id)
  try {
    const response = await normalizeTokenResponse(
      await oauth.refreshTokenGrantRequest(server, client, clientAuthFor(resolved), refreshToken, {
        ...requestOptions(server.token_endpoint, options, resolved.id),
        additionalParameters: clientIdParameter(resolved),
      })
    )
    await checkIdTokenAlgorithm(resolved, server, response, "token_endpoint")
    const result = await oauth.processRefreshTokenResponse(server, client, response)
    if (result.id_token && resolved.type === "oidc") await verifyIdToken(resolved, server, response, result, options, "token_endpoint")
    const tokens: TokenSet = { ...result, refresh_token: result.refresh_token ?? refreshToken }
    const expiresAt = expiresAtOf(resolved, result)
    if (expiresAt !== undefined) tokens.expires_at = expiresAt
    return tokens
  } catch (error) {
    throw translateError(resolved.id, error, "refresh")
  }
}

/**
 * Revokes an access or refresh token at the provider's RFC 7009 endpoint (from its record, or
 * announced by its discovery document).
 *
 * Exported from `latchkey/oauth`.
 *
 * @throws {@link index!RevocationNotSupportedError} for providers without a revocation endpoint;
 * {@link index!OAuthTokenError} when the provider refuses.
 *
 * @example
 * ```ts
 * import { revokeToken } from "latchkey/oauth"
 * await revokeToken(google, account.refresh_token!, { tokenTypeHint: "refresh_token" })
 * ```
 */
export async function revokeToken(
  provider: FlowProvider,
  token: string,
  options: HttpOptions & { tokenTypeHint?: "access_token" | "refresh_token" } = {}
): Promise<void> {
  if (typeof token !== "string" || token === "") throw new InvalidOptionError("token", "token must be a non-empty string.")
  const { provider: resolved, server, client } = await prepare(provider, options)
  if (resolved.capabilities.revocation === false || server.revocation_endpoint === undefined) throw new RevocationNotSupportedError(resolved.id)
  try {
    const additionalParameters = { ...clientIdParameter(resolved), ...(options.tokenTypeHint ? { token_type_hint: options.tokenTypeHint } : {}) }
    const response = await oauth.revocationRequest(server, client, clientAuthFor(resolved), token, {
      ...requestOptions(server.revocation_endpoint, options, resolved.id),
      additionalParameters,
    })
    await oauth.processRevocationResponse(response)
  } catch (error) {
    throw translateError(resolved.id, error, "revocation")
  }
}
