/**
 * What `createAuth` checks once, before any request: everything about the configuration that does
 * not depend on the request. Errors throw here, typed, instead of surfacing on every request as
 * "Sign-in is not available right now"; likely mistakes that still work are logged as warnings.
 */
import { InvalidOptionError, InvalidProviderError } from "../errors.js"
import { envName, resolveProviders } from "../providers/core/resolve.js"
import type { ResolvedProvider } from "../providers/types.js"
import type { SettledConfig } from "./context.js"
import type { AuthConfig } from "./options.js"
import { warnOnUnknownOptions } from "./unknown-options.js"
import { runsNoCheck } from "../oauth/checks.js"
import { checkPasswordsAtStartup } from "./password.js"

/** Token endpoint authentication methods that need the client secret. */
const SECRET_METHODS = new Set(["client_secret_basic", "client_secret_post", "client_secret_jwt"])

/**
 * Refuses an OAuth provider that authenticates with its client secret and has none. Such a
 * provider cannot sign anyone in: its token request fails every time, after the user has already
 * consented at the provider. It is refused here, as a missing client id is, naming the variable;
 * a public client (PKCE, no secret) says so with `token_endpoint_auth_method: "none"`.
 */
function requireClientSecret(provider: ResolvedProvider): void {
  if ((provider.type !== "oauth" && provider.type !== "oidc") || provider.clientSecret) return
  const method = provider.client.token_endpoint_auth_method ?? "client_secret_basic"
  if (!SECRET_METHODS.has(method)) return
  throw new InvalidProviderError(
    provider.id,
    "clientSecret",
    `no client secret, and it authenticates with ${method}: pass clientSecret, or set ${envName(provider.id, "SECRET")}. A public client without a secret sets client: { token_endpoint_auth_method: "none" }.`
  )
}

const ADD_CEREMONY = 'add `import { webauthn } from "latchkey/webauthn"` and pass it to createAuth: createAuth({ providers, adapter, webauthn }).'

/**
 * Passkeys need the ceremony from `latchkey/webauthn` (kept out of the root so apps without
 * passkeys never bundle it), which then checks its providers itself; Auth.js's
 * `experimental.enableWebAuthn` switch is answered with what to do instead.
 */
function checkPasskeys(settled: SettledConfig, config: AuthConfig, providers: readonly ResolvedProvider[]): void {
  if ((config as { experimental?: { enableWebAuthn?: unknown } }).experimental?.enableWebAuthn !== undefined) {
    throw new InvalidOptionError("experimental.enableWebAuthn", `latchkey has no experimental switch for passkeys: remove experimental.enableWebAuthn, and ${ADD_CEREMONY}`)
  }
  const passkey = providers.find((provider) => provider.type === "webauthn")
  if (passkey === undefined) return
  if (!settled.webauthn) throw new InvalidProviderError(passkey.id, "webauthn", `a passkey provider needs the WebAuthn ceremony: ${ADD_CEREMONY}`)
  settled.webauthn.checkProviders(providers, settled)
}

/**
 * Resolves the providers once (a missing client id, client secret or issuer, or a duplicate id,
 * throws `InvalidProviderError`), refuses what cannot run, and warns about what is probably a mistake.
 */
export function checkAtStartup(settled: SettledConfig, config: AuthConfig): ResolvedProvider[] {
  const { logger } = settled
  warnOnUnknownOptions(config, logger)
  const origin = settled.pinnedUrl?.origin ?? "http://localhost"
  const providers = resolveProviders(settled.appProviders, { baseUrl: origin, basePath: settled.basePath, env: settled.env, redirectProxyUrl: settled.redirectProxyUrl })
  for (const provider of providers) {
    requireClientSecret(provider)
    if ("checks" in provider && runsNoCheck(provider)) {
      logger.warn("PROVIDER_NO_CHECKS", { message: `provider "${provider.id}": with checks ["none"] a sign-in can be forced on a browser` })
    }
  }
  const pinnedPath = settled.pinnedUrl?.pathname
  if (config.basePath !== undefined && pinnedPath !== undefined && pinnedPath !== "/" && pinnedPath.replace(/\/$/, "") !== settled.basePath) {
    logger.warn("BASE_PATH_MISMATCH", { message: `AUTH_URL's path "${pinnedPath}" differs from basePath "${settled.basePath}"; basePath wins` })
  }
  checkPasskeys(settled, config, providers)
  checkPasswordsAtStartup(settled, providers)
  return providers
}
