import type { TokenSet } from "../types.js"
import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The profile of `GET /_apis/profile/profiles/me` (Azure DevOps Services REST API 7.1).
 *
 * @example
 * ```ts
 * import AzureDevOps, { type AzureDevOpsProfile } from "latchkey/providers/azure-devops"
 * const provider = AzureDevOps({
 *   profile: (profile: AzureDevOpsProfile) => ({ id: profile.id, name: profile.publicAlias || profile.displayName, email: profile.emailAddress || null }),
 * })
 * ```
 */
export interface AzureDevOpsProfile {
  id: string
  displayName: string
  publicAlias: string
  emailAddress: string
  coreRevision: number
  timeStamp: string
  revision: number
  /** Present only with `details=true`; the avatar is base64 image data, not a URL. */
  coreAttributes?: Record<string, unknown>
  [field: string]: unknown
}

/**
 * Sign in with Azure DevOps Services (its own, legacy OAuth 2.0, not Microsoft Entra ID).
 *
 * Microsoft has deprecated Azure DevOps OAuth: it accepts no new app registrations since April
 * 2025 and is to be retired in 2026. For new apps use Microsoft Entra ID
 * (`latchkey/providers/microsoft-entra-id`) with the Azure DevOps scope; this provider serves apps
 * registered before then.
 *
 * Setup: in the app registered at https://app.vsaex.visualstudio.com/app/register, set the
 * callback URL `<base>/callback/azure-devops` and the "User profile (read)" scope; set
 * `AUTH_AZURE_DEVOPS_ID` (the App ID) and `AUTH_AZURE_DEVOPS_SECRET` (the Client Secret, not the
 * App Secret).
 *
 * Quirks, handled for you: the code is exchanged as a JWT-bearer assertion (`assertion=<code>`),
 * with the client secret as the client assertion; the `jwt-bearer` token type it returns is used
 * as a Bearer token; there is no PKCE, so `state` protects the flow. Its refresh grant is
 * JWT-bearer too, which the standard refresh cannot send, so refresh is flagged off. The
 * authorization request uses `response_type=Assertion`, as Azure DevOps documents.
 *
 * Exported from `latchkey/providers/azure-devops` and `latchkey/providers`.
 * Docs: https://learn.microsoft.com/en-us/azure/devops/integrate/get-started/authentication/oauth
 *
 * @example
 * ```ts
 * import AzureDevOps from "latchkey/providers/azure-devops"
 * const provider = AzureDevOps({ authorization: { params: { scope: "vso.profile vso.code" } } })
 * ```
 */
export default function AzureDevOps(options?: OAuthUserConfig<AzureDevOpsProfile>): OAuthConfig<AzureDevOpsProfile> {
  return oauthProvider(
    {
      id: "azure-devops",
      name: "Azure DevOps",
      type: "oauth",
      authorization: { url: "https://app.vssps.visualstudio.com/oauth2/authorize", params: { scope: "vso.profile" } },
      token: {
        url: "https://app.vssps.visualstudio.com/oauth2/token",
        async request({ params, provider, redirectUri, fetch }) {
          const response = await fetch(provider.token.url!, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
            body: new URLSearchParams({
              client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
              client_assertion: provider.clientSecret ?? "",
              grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
              assertion: params.get("code") ?? "",
              redirect_uri: redirectUri,
            }),
          })
          const body = (await response.json()) as TokenSet & { Error?: string; ErrorDescription?: string }
          // Errors come as { Error, ErrorDescription }; as RFC 6749 fields they become a token error.
          const tokens = response.ok ? { ...body, token_type: "bearer" } : { error: body.Error ?? body.error ?? "invalid_grant", error_description: body.ErrorDescription }
          return { tokens }
        },
      },
      userinfo: "https://app.vssps.visualstudio.com/_apis/profile/profiles/me?api-version=7.1",
      checks: ["state"],
      quirks: { responseType: "Assertion" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://learn.microsoft.com/en-us/azure/devops/integrate/get-started/authentication/oauth",
      style: { brandColor: "#0078D7" },
      profile: (profile) => ({ id: profile.id, name: profile.displayName, email: profile.emailAddress || null, image: null }),
    },
    options
  )
}
