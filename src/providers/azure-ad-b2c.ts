import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of an Azure AD B2C id_token, as a user flow returns them.
 *
 * @example
 * ```ts
 * import AzureADB2C, { type AzureADB2CProfile } from "latchkey/providers/azure-ad-b2c"
 * const provider = AzureADB2C({
 *   tenantName: "contoso",
 *   profile: (profile: AzureADB2CProfile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.emails?.[0] ?? null }),
 * })
 * ```
 */
export interface AzureADB2CProfile {
  iss: string
  aud: string
  /** The user's object id, unless the flow's "Subject (sub) claim" setting says otherwise. */
  sub: string
  oid?: string
  /** The user flow (policy) that issued the token. */
  tfp?: string
  /** The identity provider the user signed in with, for social accounts. */
  idp?: string
  name?: string
  given_name?: string
  family_name?: string
  /** Present when the flow's application claims include "Email Addresses". */
  emails?: string[]
  email?: string
  [claim: string]: unknown
}

/**
 * Azure AD B2C options: which tenant and which user flow sign users in.
 *
 * @example
 * ```ts
 * import AzureADB2C, { type AzureADB2CUserConfig } from "latchkey/providers/azure-ad-b2c"
 * const options: AzureADB2CUserConfig = { tenantName: "contoso", tenantId: "775527ff-9a37-4307-8b3d-cc311f58d925", userFlow: "B2C_1_profileedit" }
 * const provider = AzureADB2C(options)
 * ```
 */
export interface AzureADB2CUserConfig extends OIDCUserConfig<AzureADB2CProfile> {
  /** The tenant name, as in `<tenantName>.onmicrosoft.com` and `<tenantName>.b2clogin.com`. */
  tenantName?: string
  /** The tenant (directory) id, a GUID: B2C names it, not the tenant name, in the issuer. */
  tenantId?: string
  /** The user flow or custom policy, such as `B2C_1_signupsignin`. */
  userFlow?: string
}

/**
 * Sign in with Azure Active Directory B2C (OpenID Connect), through one of your user flows.
 *
 * Setup: register a web application in your B2C tenant with the redirect URI
 * `<base>/callback/azure-ad-b2c` and a client secret, and create a sign-up and sign-in user flow;
 * set `AUTH_AZURE_AD_B2C_ID` and `AUTH_AZURE_AD_B2C_SECRET`, and pass `tenantName`, `tenantId`
 * and `userFlow`. Alternatively set `issuer` (or `AUTH_AZURE_AD_B2C_ISSUER`) and `wellKnown`
 * yourself, as for a custom domain.
 *
 * Quirks, handled for you: each user flow has its own metadata document,
 * `https://<tenantName>.b2clogin.com/<tenantName>.onmicrosoft.com/<userFlow>/v2.0/.well-known/openid-configuration`,
 * which names the issuer `https://<tenantName>.b2clogin.com/<tenantId>/v2.0/`, by tenant id and
 * with a trailing slash; both are built from the options and the issuer is used as is. B2C returns
 * an access token only when a resource scope is asked for, so the client id (when passed as
 * `clientId`) is added to `openid offline_access`, as B2C documents for an app's own token. The
 * email comes from the `emails` claim: include "Email Addresses" in the flow's application claims.
 *
 * Exported from `latchkey/providers/azure-ad-b2c` and `latchkey/providers`.
 * Docs: https://learn.microsoft.com/en-us/azure/active-directory-b2c/openid-connect
 *
 * @example
 * ```ts
 * import AzureADB2C from "latchkey/providers/azure-ad-b2c"
 * const provider = AzureADB2C({
 *   clientId: "90c0fe63-bcf2-44d5-8fb7-b8bbc0b29dc6",
 *   tenantName: "contoso",
 *   tenantId: "775527ff-9a37-4307-8b3d-cc311f58d925",
 *   userFlow: "B2C_1_signupsignin",
 * })
 * ```
 */
export default function AzureADB2C(options: AzureADB2CUserConfig = {}): OIDCConfig<AzureADB2CProfile> {
  const { tenantName, tenantId, userFlow, ...userOptions } = options
  const host = `https://${tenantName}.b2clogin.com`
  return oidcProvider(
    {
      id: "azure-ad-b2c",
      name: "Azure AD B2C",
      type: "oidc",
      ...(tenantName && tenantId ? { issuer: `${host}/${tenantId}/v2.0/` } : {}),
      ...(tenantName && userFlow ? { wellKnown: `${host}/${tenantName}.onmicrosoft.com/${userFlow}/v2.0/.well-known/openid-configuration` } : {}),
      authorization: { params: { scope: ["openid offline_access", userOptions.clientId].filter(Boolean).join(" ") } },
      capabilities: { refresh: true, revocation: false },
      docs: "https://learn.microsoft.com/en-us/azure/active-directory-b2c/openid-connect",
      style: { brandColor: "#0078D4" },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.emails?.[0] ?? profile.email ?? null,
        image: null,
      }),
    },
    userOptions
  )
}
