import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"
import { standardClaimsOrFullName } from "./core/defaults.js"

/**
 * The claims of a Kinde id_token for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import type { KindeProfile } from "latchkey/providers/kinde"
 * const belongsTo = (profile: KindeProfile, orgCode: string) => profile.org_codes?.includes(orgCode) ?? false
 * ```
 */
export interface KindeProfile {
  iss: string
  aud: string[]
  /** The user's Kinde id, `kp_…`. */
  sub: string
  email?: string
  email_verified?: boolean
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  /** The organizations the user belongs to. */
  org_codes?: string[]
  updated_at?: number
  [claim: string]: unknown
}

/**
 * Sign in with Kinde (OpenID Connect).
 *
 * Setup: in Kinde, add a "Back-end web" application and enter `<base>/callback/kinde` as an
 * allowed callback URL; set `AUTH_KINDE_ID`, `AUTH_KINDE_SECRET` and `AUTH_KINDE_ISSUER`, your
 * Kinde domain (`https://<subdomain>.kinde.com`, or your custom domain). A trailing slash is
 * trimmed, so it never breaks discovery.
 *
 * Kinde's refresh scope is `offline` (not `offline_access`); it is requested, as Kinde's own SDKs
 * do, so sessions can be refreshed.
 *
 * Exported from `latchkey/providers/kinde` and `latchkey/providers`.
 * Docs: https://docs.kinde.com/developer-tools/about/using-kinde-without-an-sdk/
 *
 * @example
 * ```ts
 * import Kinde from "latchkey/providers/kinde"
 * const provider = Kinde({ issuer: "https://acme.kinde.com" })
 * ```
 */
export default function Kinde(options?: OIDCUserConfig<KindeProfile>): OIDCConfig<KindeProfile> {
  return oidcProvider(
    {
      id: "kinde",
      name: "Kinde",
      type: "oidc",
      authorization: { params: { scope: "openid profile email offline" } },
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: true },
      docs: "https://docs.kinde.com/developer-tools/about/using-kinde-without-an-sdk/",
      style: { brandColor: "#000000" },
      profile: standardClaimsOrFullName,
    },
    options
  )
}
