import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The response of the APS OIDC userinfo endpoint (`GET https://api.userprofile.autodesk.com/userinfo`).
 *
 * @example
 * ```ts
 * import Autodesk, { type AutodeskProfile } from "latchkey/providers/autodesk"
 * const provider = Autodesk({
 *   profile: (profile: AutodeskProfile) => ({ id: profile.sub, name: profile.preferred_username ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
 * })
 * ```
 */
export interface AutodeskProfile {
  /** The Autodesk ID of the user. */
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  profile?: string
  picture?: string
  locale?: string
  updated_at?: number
  is_2fa_enabled?: boolean
  country_code?: string
  [claim: string]: unknown
}

/**
 * Sign in with Autodesk (Autodesk Platform Services, OpenID Connect).
 *
 * Setup: create a "Traditional Web App" at https://aps.autodesk.com/myapps with the callback URL
 * `<base>/callback/autodesk`; set `AUTH_AUTODESK_ID` and `AUTH_AUTODESK_SECRET`.
 *
 * Quirk, handled for you: the APS id_token carries its own claim names (`user_email`,
 * `first_name`, …) rather than the standard ones, so the profile is read from the userinfo
 * endpoint (`idToken: false`), whose `sub` must match the id_token's. Refresh tokens last 15 days.
 *
 * The profile is mapped by the standard claims (`sub`, `name`, `email`, `picture`).
 *
 * Exported from `latchkey/providers/autodesk` and `latchkey/providers`.
 * Docs: https://aps.autodesk.com/en/docs/oauth/v2/developers_guide/overview/
 *
 * @example
 * ```ts
 * import Autodesk from "latchkey/providers/autodesk"
 * const provider = Autodesk({ authorization: { params: { scope: "openid user-profile:read data:read" } } })
 * ```
 */
export default function Autodesk(options?: OIDCUserConfig<AutodeskProfile>): OIDCConfig<AutodeskProfile> {
  return oidcProvider(
    {
      id: "autodesk",
      name: "Autodesk",
      type: "oidc",
      issuer: "https://developer.api.autodesk.com",
      authorization: { params: { scope: "openid user-profile:read" } },
      idToken: false,
      capabilities: { refresh: true, revocation: true },
      docs: "https://aps.autodesk.com/en/docs/oauth/v2/developers_guide/overview/",
      style: { brandColor: "#000000", mark: () => import("./logos/autodesk.js") },
    },
    options
  )
}
