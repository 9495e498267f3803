import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"
import { standardClaimsOrUsername } from "./core/defaults.js"

/**
 * The claims of Duende IdentityServer's userinfo endpoint for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import DuendeIdentityServer6, { type DuendeIdentityServer6Profile } from "latchkey/providers/duende-identity-server6"
 * const provider = DuendeIdentityServer6({
 *   profile: (profile: DuendeIdentityServer6Profile) => ({ id: profile.sub, name: profile.preferred_username ?? null, email: profile.email ?? null }),
 * })
 * ```
 */
export interface DuendeIdentityServer6Profile {
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
 * Sign in with Duende IdentityServer 6 (OpenID Connect), on your own server.
 *
 * Setup: register a client with `AllowedGrantTypes = GrantTypes.Code`, `RequirePkce = true`, a
 * secret, the redirect URI `<base>/callback/duende-identity-server6` and the `openid`, `profile`
 * and `email` scopes; set `AUTH_DUENDE_IDENTITY_SERVER6_ID`,
 * `AUTH_DUENDE_IDENTITY_SERVER6_SECRET` and `AUTH_DUENDE_IDENTITY_SERVER6_ISSUER`, the server's
 * base URL. A trailing slash is trimmed, so it never breaks discovery.
 *
 * Quirk, handled for you: unless a client sets `AlwaysIncludeUserClaimsInIdToken`, IdentityServer
 * leaves the user's claims out of the id_token, so the profile is fetched from the userinfo
 * endpoint (its `sub` is checked against the id_token's). A refresh token needs
 * `AllowOfflineAccess` and the `offline_access` scope.
 *
 * Exported from `latchkey/providers/duende-identity-server6` and `latchkey/providers`.
 * Docs: https://docs.duendesoftware.com/identityserver/v6/
 *
 * @example
 * ```ts
 * import DuendeIdentityServer6 from "latchkey/providers/duende-identity-server6"
 * // Duende's public demo server; sign in as bob/bob or alice/alice.
 * const provider = DuendeIdentityServer6({ issuer: "https://demo.duendesoftware.com", clientId: "interactive.confidential", clientSecret: "secret" })
 * ```
 */
export default function DuendeIdentityServer6(options?: OIDCUserConfig<DuendeIdentityServer6Profile>): OIDCConfig<DuendeIdentityServer6Profile> {
  return oidcProvider(
    {
      id: "duende-identity-server6",
      name: "Duende IdentityServer",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      idToken: false,
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: true },
      docs: "https://docs.duendesoftware.com/identityserver/v6/",
      style: { brandColor: "#1C3A63" },
      profile: standardClaimsOrUsername,
    },
    options
  )
}
