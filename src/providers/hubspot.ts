import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The access token metadata of `GET /oauth/v1/access-tokens/{token}`.
 *
 * @example
 * ```ts
 * import HubSpot, { type HubSpotProfile } from "latchkey/providers/hubspot"
 * const provider = HubSpot({
 *   profile: (profile: HubSpotProfile) => ({ id: String(profile.user_id), name: profile.hub_domain, email: profile.user }),
 * })
 * ```
 */
export interface HubSpotProfile {
  token: string
  /** The email address of the user who installed the app. */
  user: string
  user_id: number
  hub_id: number
  hub_domain: string
  app_id: number
  scopes: string[]
  token_type: string
  expires_in: number
  is_private_distribution?: boolean
  [field: string]: unknown
}

/**
 * Sign in with HubSpot (OAuth 2.0, the app install flow).
 *
 * Setup: in a HubSpot developer account, create an app with the redirect URL
 * `<base>/callback/hubspot`; set `AUTH_HUBSPOT_ID` and `AUTH_HUBSPOT_SECRET`.
 *
 * Quirks, handled for you: HubSpot has no userinfo endpoint; the user is read from the token's
 * metadata, whose URL carries the access token in its path, and which gives an email address but
 * no name or picture; the client credentials go in the token request body; HubSpot documents no
 * PKCE, so `state` protects the flow. The id is the HubSpot user id, shared by every account
 * (hub) the user installs the app in.
 *
 * HubSpot plans to retire these v1 OAuth endpoints on 16 February 2027.
 *
 * Exported from `latchkey/providers/hubspot` and `latchkey/providers`.
 * Docs: https://developers.hubspot.com/docs/api/working-with-oauth
 *
 * @example
 * ```ts
 * import HubSpot from "latchkey/providers/hubspot"
 * const provider = HubSpot({ authorization: { params: { scope: "oauth crm.objects.contacts.read" } } })
 * ```
 */
export default function HubSpot(options?: OAuthUserConfig<HubSpotProfile>): OAuthConfig<HubSpotProfile> {
  return oauthProvider(
    {
      id: "hubspot",
      name: "HubSpot",
      type: "oauth",
      authorization: { url: "https://app.hubspot.com/oauth/authorize", params: { scope: "oauth" } },
      token: "https://api.hubapi.com/oauth/v1/token",
      userinfo: {
        url: "https://api.hubapi.com/oauth/v1/access-tokens",
        request: ({ tokens, provider, fetchJson }) => fetchJson(`${provider.userinfo.url}/${encodeURIComponent(tokens.access_token!)}`),
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://developers.hubspot.com/docs/api/working-with-oauth",
      style: { brandColor: "#FF7A59", mark: () => import("./logos/hubspot.js") },
      profile: (profile) => ({ id: String(profile.user_id), name: null, email: profile.user, image: null }),
    },
    options
  )
}
