import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The account of `GET https://api.atlassian.com/me` (User Identity API, `read:me`).
 *
 * @example
 * ```ts
 * import Atlassian, { type AtlassianProfile } from "latchkey/providers/atlassian"
 * const provider = Atlassian({
 *   profile: (profile: AtlassianProfile) => ({ id: profile.account_id, name: profile.nickname, email: profile.email || null, image: profile.picture }),
 * })
 * ```
 */
export interface AtlassianProfile {
  account_id: string
  account_type: string
  account_status: string
  name: string
  nickname: string
  /** Empty or absent when the user's privacy settings hide it. */
  email?: string
  email_verified?: boolean
  picture: string
  zoneinfo?: string
  locale?: string
  extended_profile?: { job_title?: string; organization?: string; department?: string; location?: string }
  last_updated?: string
  [field: string]: unknown
}

/**
 * Sign in with Atlassian (OAuth 2.0 "3LO", for Jira, Confluence and other Atlassian Cloud users).
 *
 * Setup: create an OAuth 2.0 integration in the developer console
 * (https://developer.atlassian.com/console/myapps/), add the User Identity API under Permissions
 * and the callback URL `<base>/callback/atlassian` under Authorization; set `AUTH_ATLASSIAN_ID` and
 * `AUTH_ATLASSIAN_SECRET`.
 *
 * Quirks, handled for you: the authorization request carries `audience=api.atlassian.com` and
 * `prompt=consent`, as Atlassian requires; Atlassian does not support PKCE, so `state` protects
 * the flow; the client secret goes in the token request body. Refresh tokens (rotating) are issued
 * only with the `offline_access` scope: `authorization: { params: { scope: "read:me offline_access" } }`.
 *
 * Exported from `latchkey/providers/atlassian` and `latchkey/providers`.
 * Docs: https://developer.atlassian.com/cloud/oauth/getting-started/implementing-oauth-3lo
 *
 * @example
 * ```ts
 * import Atlassian from "latchkey/providers/atlassian"
 * const provider = Atlassian({ authorization: { params: { scope: "read:me read:jira-work offline_access" } } })
 * ```
 */
export default function Atlassian(options?: OAuthUserConfig<AtlassianProfile>): OAuthConfig<AtlassianProfile> {
  return oauthProvider(
    {
      id: "atlassian",
      name: "Atlassian",
      type: "oauth",
      authorization: {
        url: "https://auth.atlassian.com/authorize",
        params: { scope: "read:me", audience: "api.atlassian.com", prompt: "consent" },
      },
      token: "https://auth.atlassian.com/oauth/token",
      userinfo: "https://api.atlassian.com/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://developer.atlassian.com/cloud/oauth/getting-started/implementing-oauth-3lo",
      style: { brandColor: "#0052CC", mark: () => import("./logos/atlassian.js") },
      profile: (profile) => ({ id: profile.account_id, name: profile.name, email: profile.email || null, image: profile.picture || null }),
    },
    options
  )
}
