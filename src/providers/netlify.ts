import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user of `GET https://api.netlify.com/api/v1/user`.
 *
 * @example
 * ```ts
 * import Netlify, { type NetlifyProfile } from "latchkey/providers/netlify"
 * const provider = Netlify({
 *   profile: (profile: NetlifyProfile) => ({ id: profile.id, name: profile.full_name ?? profile.email, email: profile.email, image: profile.avatar_url }),
 * })
 * ```
 */
export interface NetlifyProfile {
  id: string
  uid?: string
  full_name: string | null
  avatar_url: string | null
  email: string
  affiliate_id?: string
  site_count?: number
  created_at?: string
  last_login?: string
  login_providers?: string[]
  onboarding_progress?: Record<string, unknown>
  [field: string]: unknown
}

/**
 * Sign in with Netlify (OAuth 2.0).
 *
 * Setup: create an OAuth application under User settings → Applications → OAuth
 * (https://app.netlify.com/user/applications) with the redirect URI `<base>/callback/netlify`; set
 * `AUTH_NETLIFY_ID` and `AUTH_NETLIFY_SECRET`.
 *
 * Quirks: the client credentials go in the token request body; Netlify has no scopes and no PKCE,
 * so `state` protects the flow; tokens grant full API access, do not expire and are not refreshed.
 *
 * Exported from `latchkey/providers/netlify` and `latchkey/providers`.
 * Docs: https://docs.netlify.com/api/get-started/#authentication
 *
 * @example
 * ```ts
 * import Netlify from "latchkey/providers/netlify"
 * const provider = Netlify() // AUTH_NETLIFY_ID / AUTH_NETLIFY_SECRET
 * ```
 */
export default function Netlify(options?: OAuthUserConfig<NetlifyProfile>): OAuthConfig<NetlifyProfile> {
  return oauthProvider(
    {
      id: "netlify",
      name: "Netlify",
      type: "oauth",
      authorization: "https://app.netlify.com/authorize",
      token: "https://api.netlify.com/oauth/token",
      userinfo: "https://api.netlify.com/api/v1/user",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://docs.netlify.com/api/get-started/#authentication",
      style: { brandColor: "#00C7B7", mark: () => import("./logos/netlify.js") },
      profile: (profile) => ({ id: profile.id, name: profile.full_name, email: profile.email, image: profile.avatar_url }),
    },
    options
  )
}
