import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"
import { standardClaimsOrUsernameNoImage } from "./core/defaults.js"

/**
 * The claims Okta returns for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import Okta, { type OktaProfile } from "latchkey/providers/okta"
 * const provider = Okta({
 *   profile: (profile: OktaProfile) => ({ id: profile.sub, name: profile.given_name ?? profile.name ?? null, email: profile.email_verified ? profile.email : null }),
 * })
 * ```
 */
export interface OktaProfile {
  sub: string
  name?: string
  preferred_username?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  locale?: string
  zoneinfo?: string
  updated_at?: number
  [claim: string]: unknown
}

/**
 * Sign in with Okta (OpenID Connect).
 *
 * Setup: in the Okta admin console create an "OIDC - OpenID Connect" app integration of type "Web
 * Application" with the sign-in redirect URI `<base>/callback/okta`; set `AUTH_OKTA_ID`,
 * `AUTH_OKTA_SECRET` and `AUTH_OKTA_ISSUER` (an authorization server such as
 * `https://acme.okta.com/oauth2/default`, or the org URL).
 *
 * Exported from `latchkey/providers/okta` and `latchkey/providers`.
 * Docs: https://developer.okta.com/docs/guides/sign-into-web-app-redirect/
 *
 * @example
 * ```ts
 * import Okta from "latchkey/providers/okta"
 * const provider = Okta({ issuer: "https://acme.okta.com/oauth2/default" })
 * ```
 */
export default function Okta(options?: OIDCUserConfig<OktaProfile>): OIDCConfig<OktaProfile> {
  return oidcProvider(
    {
      id: "okta",
      name: "Okta",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      capabilities: { refresh: true, revocation: true },
      docs: "https://developer.okta.com/docs/guides/sign-into-web-app-redirect/",
      style: { brandColor: "#007DC1", mark: () => import("./logos/okta.js") },
      profile: standardClaimsOrUsernameNoImage,
    },
    options
  )
}
