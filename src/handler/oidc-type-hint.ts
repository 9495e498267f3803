/**
 * The hint for one mistake the browser shows only as "Access was denied": a provider written as
 * `type: "oauth"` whose server is an OpenID Connect server. Such a server refuses an authorization
 * request without the `openid` scope (oidc-provider answers `access_denied`); `type: "oidc"` is
 * what asks for it and validates the id_token that comes back. Loaded on demand by a failed
 * callback, and imports nothing at run time.
 */
import type { ResolvedOAuthProvider } from "../providers/types.js"

/** The callback errors an OpenID server answers when the `openid` scope is missing. */
const REFUSALS = new Set(["access_denied", "invalid_scope", "invalid_request"])

/**
 * Whether the refusal `error` from `provider`'s server looks like that mistake: the provider is
 * `oauth`, asked for no `openid` scope, and its server lists `openid` in `scopes_supported` or
 * was discovered at an OpenID configuration URL.
 */
export function needsOidcType(provider: ResolvedOAuthProvider, error: string | undefined, scopesSupported: readonly string[] | undefined): boolean {
  if (provider.type !== "oauth" || provider.issuer === undefined || !REFUSALS.has(error ?? "")) return false
  if ((provider.authorization.params.scope ?? "").split(/\s+/).includes("openid")) return false
  if (scopesSupported?.includes("openid")) return true
  return provider.wellKnown === undefined || provider.wellKnown.includes("openid-configuration")
}

/** The warning's text. */
export function oidcTypeHint(providerId: string): string {
  return `provider "${providerId}" is type "oauth", but its issuer is an OpenID Connect server, which refused a sign-in that did not ask for the openid scope: write type: "oidc" (it asks for "openid email profile" and validates the id_token)`
}
