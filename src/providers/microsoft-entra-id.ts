import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a Microsoft identity platform v2.0 id_token.
 *
 * @example
 * ```ts
 * import MicrosoftEntraID, { type MicrosoftEntraIDProfile } from "latchkey/providers/microsoft-entra-id"
 * const provider = MicrosoftEntraID({
 *   profile: (profile: MicrosoftEntraIDProfile) => ({ id: profile.oid, name: profile.name ?? null, email: profile.email ?? profile.preferred_username ?? null }),
 * })
 * ```
 */
export interface MicrosoftEntraIDProfile {
  aud: string
  iss: string
  iat: number
  nbf: number
  exp: number
  sub: string
  /** The user's object id, stable across apps in the tenant. */
  oid: string
  /** The tenant the user signed in from. */
  tid: string
  name?: string
  preferred_username?: string
  email?: string
  nonce?: string
  ver: "2.0"
  [claim: string]: unknown
}

/**
 * Entra ID options: which tenant signs users in.
 *
 * @example
 * ```ts
 * import MicrosoftEntraID, { type MicrosoftEntraIDUserConfig } from "latchkey/providers/microsoft-entra-id"
 * const options: MicrosoftEntraIDUserConfig = { tenantId: "organizations" } // work and school accounts only
 * const provider = MicrosoftEntraID(options)
 * ```
 */
export interface MicrosoftEntraIDUserConfig extends OIDCUserConfig<MicrosoftEntraIDProfile> {
  /**
   * A tenant id or domain for single-tenant apps; `common`, `organizations` or `consumers` for
   * multi-tenant ones. Default `common`. Ignored when `issuer` is set.
   */
  tenantId?: string
}

/**
 * Sign in with Microsoft Entra ID (formerly Azure AD), OpenID Connect on the v2.0 endpoint.
 *
 * Setup: register an app at https://entra.microsoft.com ("App registrations") with the web
 * redirect URI `<base>/callback/microsoft-entra-id` and create a client secret; set
 * `AUTH_MICROSOFT_ENTRA_ID_ID`, `AUTH_MICROSOFT_ENTRA_ID_SECRET`, and either `tenantId` or
 * `AUTH_MICROSOFT_ENTRA_ID_ISSUER` (`https://login.microsoftonline.com/<tenant>/v2.0`).
 *
 * Quirk, handled for you: the multi-tenant discovery documents (`common`, `organizations`,
 * `consumers`) give the issuer as `https://login.microsoftonline.com/{tenantid}/v2.0`; the id_token's
 * issuer is checked against that template filled with its own `tid`.
 *
 * `preferred_username` is not used as the email: it is mutable and need not be an address.
 *
 * The profile is mapped by the standard claims (`sub`, `name`, `email`, `picture`).
 *
 * Exported from `latchkey/providers/microsoft-entra-id` and `latchkey/providers`.
 * Docs: https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc
 *
 * @example
 * ```ts
 * import MicrosoftEntraID from "latchkey/providers/microsoft-entra-id"
 * const provider = MicrosoftEntraID({ tenantId: "acme.onmicrosoft.com" })
 * ```
 */
export default function MicrosoftEntraID(options: MicrosoftEntraIDUserConfig = {}): OIDCConfig<MicrosoftEntraIDProfile> {
  const { tenantId = "common", ...userOptions } = options
  return oidcProvider(
    {
      id: "microsoft-entra-id",
      name: "Microsoft Entra ID",
      type: "oidc",
      issuer: `https://login.microsoftonline.com/${encodeURIComponent(tenantId)}/v2.0`,
      authorization: { params: { scope: "openid profile email User.Read" } },
      quirks: { tenantIssuer: true },
      capabilities: { refresh: true, revocation: false },
      docs: "https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc",
      style: { brandColor: "#0078D4", mark: () => import("./marks/microsoft.js") },
    },
    userOptions
  )
}
