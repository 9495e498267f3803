import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The response of Intuit's OpenID Connect userinfo endpoint.
 *
 * @example
 * ```ts
 * import Intuit, { type IntuitProfile } from "latchkey/providers/intuit"
 * const provider = Intuit({
 *   profile: (profile: IntuitProfile) => ({ id: profile.sub, name: profile.givenName ?? null, email: profile.emailVerified ? profile.email : null }),
 * })
 * ```
 */
export interface IntuitProfile {
  sub: string
  /** With the `email` scope. */
  email?: string
  emailVerified?: boolean
  /** With the `profile` scope. */
  givenName?: string
  familyName?: string
  /** With the `phone` scope. */
  phoneNumber?: string
  phoneNumberVerified?: boolean
  /** With the `address` scope. */
  address?: { streetAddress?: string; locality?: string; region?: string; postalCode?: string; country?: string }
  [claim: string]: unknown
}

/**
 * Sign in with Intuit (QuickBooks, OpenID Connect).
 *
 * Setup: create an app at https://developer.intuit.com/app/developer/dashboard and add the redirect
 * URI `<base>/callback/intuit` under Keys & credentials; set `AUTH_INTUIT_ID` and
 * `AUTH_INTUIT_SECRET` (production keys; for development keys, point `wellKnown` at Intuit's
 * sandbox discovery document).
 *
 * Quirks, handled for you: the discovery document is not under the issuer but at
 * `https://developer.api.intuit.com/.well-known/openid_configuration`; the id_token carries only
 * `sub` and `realmid`, so the profile comes from the userinfo endpoint (`idToken: false`), whose
 * claims are camelCase (`givenName`, `familyName`). Intuit requires `state` and documents no
 * PKCE. Intuit has no profile pictures, so `image` is always `null`.
 *
 * Exported from `latchkey/providers/intuit` and `latchkey/providers`.
 * Docs: https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/openid-connect
 *
 * @example
 * ```ts
 * import Intuit from "latchkey/providers/intuit"
 * const provider = Intuit({ authorization: { params: { scope: "openid profile email com.intuit.quickbooks.accounting" } } })
 * ```
 */
export default function Intuit(options?: OIDCUserConfig<IntuitProfile>): OIDCConfig<IntuitProfile> {
  return oidcProvider(
    {
      id: "intuit",
      name: "Intuit",
      type: "oidc",
      issuer: "https://oauth.platform.intuit.com/op/v1",
      wellKnown: "https://developer.api.intuit.com/.well-known/openid_configuration",
      authorization: { params: { scope: "openid profile email" } },
      idToken: false,
      checks: ["state"],
      capabilities: { refresh: true, revocation: true },
      docs: "https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/openid-connect",
      style: { brandColor: "#236CFF", mark: () => import("./logos/intuit.js") },
      profile: (profile) => ({
        id: profile.sub,
        name: [profile.givenName, profile.familyName].filter(Boolean).join(" ") || null,
        email: profile.email ?? null,
        image: null,
      }),
    },
    options
  )
}
