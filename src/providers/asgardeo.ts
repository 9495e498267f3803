import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"
import { standardClaimsOrFullName } from "./core/defaults.js"

/**
 * The claims of an Asgardeo id_token for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import Asgardeo, { type AsgardeoProfile } from "latchkey/providers/asgardeo"
 * const provider = Asgardeo({
 *   profile: (profile: AsgardeoProfile) => ({ id: profile.sub, name: profile.username ?? profile.name ?? null, email: profile.email ?? null }),
 * })
 * ```
 */
export interface AsgardeoProfile {
  iss: string
  aud: string | string[]
  sub: string
  username?: string
  email?: string
  email_verified?: boolean
  given_name?: string
  family_name?: string
  name?: string
  picture?: string
  /** The organization the user signed in to. */
  org_id?: string
  org_name?: string
  [claim: string]: unknown
}

/**
 * Sign in with Asgardeo, WSO2's identity service (OpenID Connect), for your organization.
 *
 * Setup: in the Asgardeo Console (https://console.asgardeo.io), register a "Traditional Web
 * Application" with the OpenID Connect protocol and the authorized redirect URL
 * `<base>/callback/asgardeo`, and mark the email, first name and photo URL attributes as requested
 * in its "User Attributes" tab; set `AUTH_ASGARDEO_ID`, `AUTH_ASGARDEO_SECRET` and
 * `AUTH_ASGARDEO_ISSUER`, the "Issuer" shown in the application's "Info" tab
 * (`https://api.asgardeo.io/t/<organization>/oauth2/token`). A trailing slash is trimmed, so it
 * never breaks discovery.
 *
 * Asgardeo fills `name` only when the user has one, so the name falls back to the given and
 * family names.
 *
 * Exported from `latchkey/providers/asgardeo` and `latchkey/providers`.
 * Docs: https://wso2.com/asgardeo/docs/guides/authentication/oidc/
 *
 * @example
 * ```ts
 * import Asgardeo from "latchkey/providers/asgardeo"
 * const provider = Asgardeo({ issuer: "https://api.asgardeo.io/t/acme/oauth2/token" })
 * ```
 */
export default function Asgardeo(options?: OIDCUserConfig<AsgardeoProfile>): OIDCConfig<AsgardeoProfile> {
  return oidcProvider(
    {
      id: "asgardeo",
      name: "Asgardeo",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: true },
      docs: "https://wso2.com/asgardeo/docs/guides/authentication/oidc/",
      style: { brandColor: "#FF7300" },
      profile: standardClaimsOrFullName,
    },
    options
  )
}
