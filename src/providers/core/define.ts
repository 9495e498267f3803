/**
 * The one helper every built-in OAuth/OIDC provider file uses: it pairs the provider's defaults
 * with what the user passed. Nothing is merged here; `resolveProviders` does that, so importing a
 * provider costs only its record.
 */
import type { OAuthConfig, OAuthUserConfig, OIDCConfig, OIDCUserConfig, OAuth2Config } from "../types.js"

/** Pairs an OAuth 2.0 provider's defaults with the user's options. */
export function oauthProvider<P>(defaults: Omit<OAuth2Config<P>, "options">, options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
  return { ...defaults, options }
}

/** Pairs an OpenID Connect provider's defaults with the user's options. */
export function oidcProvider<P>(defaults: Omit<OIDCConfig<P>, "options">, options: OIDCUserConfig<P> = {}): OIDCConfig<P> {
  return { ...defaults, options }
}
