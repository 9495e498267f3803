import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"
import { standardClaimsOrUsername } from "./core/defaults.js"

/**
 * The claims of FusionAuth's userinfo endpoint for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import type { FusionAuthProfile } from "latchkey/providers/fusionauth"
 * const hasRole = (profile: FusionAuthProfile, role: string) => profile.roles?.includes(role) ?? false
 * ```
 */
export interface FusionAuthProfile {
  /** The user's FusionAuth id. */
  sub: string
  /** The tenant id. */
  tid?: string
  applicationId?: string
  email?: string
  email_verified?: boolean
  preferred_username?: string
  name?: string
  given_name?: string
  middle_name?: string
  family_name?: string
  picture?: string
  birthdate?: string
  phone_number?: string
  roles?: string[]
  [claim: string]: unknown
}

/**
 * Sign in with FusionAuth (OpenID Connect), on your own instance or FusionAuth Cloud.
 *
 * Setup: create an application with the authorized redirect URL `<base>/callback/fusionauth`
 * and the "Authorization Code" grant; set the tenant's "Issuer" to the instance URL; set
 * `AUTH_FUSIONAUTH_ID`, `AUTH_FUSIONAUTH_SECRET` and `AUTH_FUSIONAUTH_ISSUER` to that same URL.
 * A trailing slash is trimmed, so it never breaks discovery. With several tenants, also pass
 * `wellKnown: "<instance>/<tenant-id>/.well-known/openid-configuration"`.
 *
 * Quirk, handled for you: the id_token carries only the email and username, so the profile is
 * fetched from the userinfo endpoint, which adds the name and picture (its `sub` is checked
 * against the id_token's). A refresh token needs the `offline_access` scope and the
 * application's refresh token grant.
 *
 * Exported from `latchkey/providers/fusionauth` and `latchkey/providers`.
 * Docs: https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/
 *
 * @example
 * ```ts
 * import FusionAuth from "latchkey/providers/fusionauth"
 * const provider = FusionAuth({ issuer: "https://auth.acme.dev" })
 * ```
 */
export default function FusionAuth(options?: OIDCUserConfig<FusionAuthProfile>): OIDCConfig<FusionAuthProfile> {
  return oidcProvider(
    {
      id: "fusionauth",
      name: "FusionAuth",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      idToken: false,
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: false },
      docs: "https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/",
      style: { brandColor: "#F58320", mark: () => import("./logos/fusionauth.js") },
      profile: standardClaimsOrUsername,
    },
    options
  )
}
