import MicrosoftEntraID, { type MicrosoftEntraIDProfile, type MicrosoftEntraIDUserConfig } from "./microsoft-entra-id.js"
import type { OIDCConfig } from "./types.js"

/**
 * Microsoft Entra ID under its former name and id, `azure-ad`, so apps registered with the
 * callback URL `<base>/callback/azure-ad` keep working. Everything else is
 * {@link MicrosoftEntraID}; env vars are `AUTH_AZURE_AD_ID`, `AUTH_AZURE_AD_SECRET` and
 * `AUTH_AZURE_AD_ISSUER`.
 *
 * @deprecated Use `microsoft-entra-id` for new apps; keep `azure-ad` only for an existing
 * registration's callback URL.
 *
 * Exported from `latchkey/providers/azure-ad` and `latchkey/providers`.
 * Docs: https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc
 *
 * @example
 * ```ts
 * import AzureAD from "latchkey/providers/azure-ad"
 * const provider = AzureAD({ tenantId: "acme.onmicrosoft.com" })
 * ```
 */
export default function AzureAD(options?: MicrosoftEntraIDUserConfig): OIDCConfig<MicrosoftEntraIDProfile> {
  return { ...MicrosoftEntraID(options), id: "azure-ad", name: "Azure Active Directory" }
}
