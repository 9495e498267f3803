/**
 * A failed OAuth sign-in, logged so that it points at the fix. The error itself is logged as it is
 * (a database driver's as its code, see loggable-error.ts). One mistake gets a hint of its own,
 * because the browser only shows "Access was denied": a provider written as `type: "oauth"` whose
 * server is an OpenID Connect server. Such a server refuses an authorization request without the
 * `openid` scope (oidc-provider answers `access_denied`), and `type: "oidc"` is what asks for it
 * and validates the id_token that comes back.
 */
import { LatchkeyError } from "../errors.js"
import { authorizationServer } from "../oauth/discovery.js"
import type { ResolvedOAuthProvider } from "../providers/types.js"
import type { RequestContext } from "./config.js"
import { flowOptions } from "./flow-options.js"
import { loggableError } from "./loggable-error.js"

/** The callback errors an OpenID server answers when the `openid` scope is missing. */
const REFUSALS = new Set(["access_denied", "invalid_scope", "invalid_request"])

/** Whether the provider's scope asks for `openid`. */
function asksForOpenId(provider: ResolvedOAuthProvider): boolean {
  return (provider.authorization.params.scope ?? "").split(/\s+/).includes("openid")
}

/**
 * Whether the provider's server is an OpenID Connect server: its discovery document (cached from
 * this sign-in's start) lists the `openid` scope, or it was discovered at an OpenID configuration URL.
 */
async function isOpenIdServer(context: RequestContext, provider: ResolvedOAuthProvider): Promise<boolean> {
  if (provider.issuer === undefined) return false
  const server = await authorizationServer(provider, flowOptions(context)).catch(() => undefined)
  if (server?.scopes_supported?.includes("openid")) return true
  return provider.wellKnown === undefined || provider.wellKnown.includes("openid-configuration")
}

/** The hint for an `oauth` provider refused by an OpenID server, or undefined when that is not the case. */
async function oidcTypeHint(context: RequestContext, provider: ResolvedOAuthProvider, failure: unknown): Promise<string | undefined> {
  if (provider.type !== "oauth" || !(failure instanceof LatchkeyError) || failure.code !== "ERR_OAUTH_CALLBACK") return undefined
  if (!REFUSALS.has((failure as { error?: string }).error ?? "") || asksForOpenId(provider)) return undefined
  if (!(await isOpenIdServer(context, provider))) return undefined
  return `provider "${provider.id}" is type "oauth", but its issuer is an OpenID Connect server, which refused a sign-in that did not ask for the openid scope: write type: "oidc" (it asks for "openid email profile" and validates the id_token)`
}

/** Logs a sign-in with `provider` that failed with `failure`, and a hint when one applies. */
export async function logSignInFailure(context: RequestContext, provider: ResolvedOAuthProvider, failure: unknown): Promise<void> {
  context.logger.error(loggableError(failure))
  const hint = await oidcTypeHint(context, provider, failure)
  if (hint !== undefined) context.logger.warn("OAUTH_TYPE_SHOULD_BE_OIDC", { message: hint })
}
