/**
 * What `createAuth` checks once, before any request: everything about the configuration that does
 * not depend on the request. Errors throw here, typed, instead of surfacing on every request as
 * "Sign-in is not available right now"; likely mistakes that still work are logged as warnings.
 */
import { resolveProviders } from "../providers/core/resolve.js"
import type { ResolvedProvider } from "../providers/types.js"
import type { SettledConfig } from "./context.js"
import type { AuthConfig } from "./options.js"
import { checkWebAuthnAtStartup } from "./webauthn-startup.js"

/** Token endpoint authentication methods that need the client secret. */
const SECRET_METHODS = new Set(["client_secret_basic", "client_secret_post", "client_secret_jwt"])

/**
 * Resolves the providers once (a missing client id or issuer, or a duplicate id, throws
 * `InvalidProviderError`), refuses what cannot run, and warns about what is probably a mistake.
 */
export function checkAtStartup(settled: SettledConfig, config: AuthConfig): ResolvedProvider[] {
  const { logger } = settled
  const origin = settled.pinnedUrl?.origin ?? "http://localhost"
  const providers = resolveProviders(settled.appProviders, { baseUrl: origin, basePath: settled.basePath, env: settled.env, redirectProxyUrl: settled.redirectProxyUrl })
  for (const provider of providers) {
    if ((provider.type === "oauth" || provider.type === "oidc") && !provider.clientSecret) {
      const method = provider.client.token_endpoint_auth_method ?? "client_secret_basic"
      if (SECRET_METHODS.has(method)) logger.warn("MISSING_CLIENT_SECRET", { message: `provider "${provider.id}" has a client id but no client secret, and authenticates with ${method}` })
    }
  }
  const pinnedPath = settled.pinnedUrl?.pathname
  if (config.basePath !== undefined && pinnedPath !== undefined && pinnedPath !== "/" && pinnedPath.replace(/\/$/, "") !== settled.basePath) {
    logger.warn("BASE_PATH_MISMATCH", { message: `AUTH_URL's path "${pinnedPath}" differs from basePath "${settled.basePath}"; basePath wins` })
  }
  checkWebAuthnAtStartup(settled, config, providers)
  return providers
}
