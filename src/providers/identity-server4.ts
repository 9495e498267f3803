import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"
import { standardClaimsOrUsername } from "./core/defaults.js"

/**
 * The claims of IdentityServer4's userinfo endpoint for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import IdentityServer4, { type IdentityServer4Profile } from "latchkey/providers/identity-server4"
 * const provider = IdentityServer4({
 *   profile: (profile: IdentityServer4Profile) => ({ id: profile.sub, name: profile.given_name ?? profile.name ?? null, email: profile.email ?? null }),
 * })
 * ```
 */
export interface IdentityServer4Profile {
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  website?: string
  picture?: string
  email?: string
  email_verified?: boolean
  [claim: string]: unknown
}

/**
 * Sign in with IdentityServer4 (OpenID Connect), on your own server. IdentityServer4 is no longer
 * maintained; its successor is Duende IdentityServer (`duende-identity-server6`).
 *
 * Setup: register a client with `AllowedGrantTypes = GrantTypes.Code`, `RequirePkce = true`, a
 * secret, the redirect URI `<base>/callback/identity-server4` and the `openid`, `profile` and
 * `email` scopes; set `AUTH_IDENTITY_SERVER4_ID`, `AUTH_IDENTITY_SERVER4_SECRET` and
 * `AUTH_IDENTITY_SERVER4_ISSUER`, the server's base URL. A trailing slash is trimmed, so it never
 * breaks discovery.
 *
 * Quirk, handled for you: unless a client sets `AlwaysIncludeUserClaimsInIdToken`, IdentityServer
 * leaves the user's claims out of the id_token, so the profile is fetched from the userinfo
 * endpoint (its `sub` is checked against the id_token's). A refresh token needs
 * `AllowOfflineAccess` and the `offline_access` scope.
 *
 * Exported from `latchkey/providers/identity-server4` and `latchkey/providers`.
 * Docs: https://identityserver4.readthedocs.io/en/latest/endpoints/userinfo.html
 *
 * @example
 * ```ts
 * import IdentityServer4 from "latchkey/providers/identity-server4"
 * const provider = IdentityServer4({ issuer: "https://login.acme.dev" })
 * ```
 */
export default function IdentityServer4(options?: OIDCUserConfig<IdentityServer4Profile>): OIDCConfig<IdentityServer4Profile> {
  return oidcProvider(
    {
      id: "identity-server4",
      name: "IdentityServer4",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      idToken: false,
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: true },
      docs: "https://identityserver4.readthedocs.io/en/latest/endpoints/userinfo.html",
      style: { brandColor: "#4A8FCB" },
      profile: standardClaimsOrUsername,
    },
    options
  )
}
