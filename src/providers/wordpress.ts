import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user object of `GET https://public-api.wordpress.com/rest/v1.1/me` (abridged).
 *
 * @example
 * ```ts
 * import WordPress, { type WordPressProfile } from "latchkey/providers/wordpress"
 * const provider = WordPress({
 *   profile: (profile: WordPressProfile) => ({ id: String(profile.ID), name: profile.username, email: profile.email_verified ? profile.email : null, image: profile.avatar_URL }),
 * })
 * ```
 */
export interface WordPressProfile {
  ID: number
  display_name: string
  username: string
  email: string
  primary_blog: number
  primary_blog_url: string
  language: string
  locale?: string
  token_site_id: number | false
  token_scope: string[]
  avatar_URL: string
  profile_URL: string
  verified: boolean
  email_verified: boolean
  date: string
  site_count: number
  visible_site_count: number
  has_unseen_notes: boolean
  [field: string]: unknown
}

/**
 * Sign in with WordPress.com (OAuth 2.0). Self-hosted WordPress sites have no built-in OAuth
 * server; this is for WordPress.com accounts, which Jetpack sites use as well.
 *
 * Setup: create an application at https://developer.wordpress.com/apps/ with the redirect URL
 * `<base>/callback/wordpress`; set `AUTH_WORDPRESS_ID` and `AUTH_WORDPRESS_SECRET`.
 *
 * The `auth` scope grants `/me` only, which is all sign-in needs; without it WordPress.com asks
 * the user to pick a blog. No PKCE is documented, so `state` guards the callback, and the client
 * secret goes in the token request body. Its tokens do not expire and cannot be refreshed.
 *
 * Exported from `latchkey/providers/wordpress` and `latchkey/providers`.
 * Docs: https://developer.wordpress.com/docs/oauth2/
 *
 * @example
 * ```ts
 * import WordPress from "latchkey/providers/wordpress"
 * const provider = WordPress() // AUTH_WORDPRESS_ID / AUTH_WORDPRESS_SECRET
 * ```
 */
export default function WordPress(options?: OAuthUserConfig<WordPressProfile>): OAuthConfig<WordPressProfile> {
  return oauthProvider(
    {
      id: "wordpress",
      name: "WordPress.com",
      type: "oauth",
      authorization: { url: "https://public-api.wordpress.com/oauth2/authorize", params: { scope: "auth" } },
      token: "https://public-api.wordpress.com/oauth2/token",
      userinfo: "https://public-api.wordpress.com/rest/v1.1/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://developer.wordpress.com/docs/oauth2/",
      style: { brandColor: "#21759B", mark: () => import("./logos/wordpress.js") },
      profile: (profile) => ({
        id: String(profile.ID),
        name: profile.display_name || profile.username,
        email: profile.email || null,
        image: profile.avatar_URL || null,
      }),
    },
    options
  )
}
