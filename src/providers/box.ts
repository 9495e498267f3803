import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user of `GET /2.0/users/me`.
 *
 * @example
 * ```ts
 * import Box, { type BoxProfile } from "latchkey/providers/box"
 * const provider = Box({
 *   profile: (profile: BoxProfile) => ({ id: profile.id, name: profile.name, email: profile.notification_email?.email ?? profile.login }),
 * })
 * ```
 */
export interface BoxProfile {
  id: string
  type: "user"
  name: string
  /** The primary email address the user signs in with. */
  login: string
  avatar_url?: string
  created_at?: string
  modified_at?: string
  language?: string
  timezone?: string
  space_amount?: number
  space_used?: number
  max_upload_size?: number
  status?: string
  job_title?: string
  phone?: string
  address?: string
  notification_email?: { email: string; is_confirmed: boolean } | null
  [field: string]: unknown
}

/**
 * Sign in with Box (OAuth 2.0, user authentication).
 *
 * Setup: in the Box Developer Console (https://app.box.com/developers/console), create a Platform
 * App with "User Authentication (OAuth 2.0)", add the redirect URI `<base>/callback/box`; set
 * `AUTH_BOX_ID` and `AUTH_BOX_SECRET`. Scopes are chosen in the app's configuration, so none is
 * requested here.
 *
 * Quirks, handled for you: the client credentials go in the token request body; Box documents no
 * PKCE, so `state` protects the flow. Refresh tokens are single-use: each refresh returns a new one.
 *
 * Exported from `latchkey/providers/box` and `latchkey/providers`.
 * Docs: https://developer.box.com/guides/authentication/oauth2/without-sdk/
 *
 * @example
 * ```ts
 * import Box from "latchkey/providers/box"
 * const provider = Box() // AUTH_BOX_ID / AUTH_BOX_SECRET
 * ```
 */
export default function Box(options?: OAuthUserConfig<BoxProfile>): OAuthConfig<BoxProfile> {
  return oauthProvider(
    {
      id: "box",
      name: "Box",
      type: "oauth",
      authorization: "https://account.box.com/api/oauth2/authorize",
      token: "https://api.box.com/oauth2/token",
      userinfo: "https://api.box.com/2.0/users/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: "https://api.box.com/oauth2/revoke" },
      docs: "https://developer.box.com/guides/authentication/oauth2/without-sdk/",
      style: { brandColor: "#0061D5", mark: () => import("./logos/box.js") },
      profile: (profile) => ({ id: profile.id, name: profile.name, email: profile.login, image: profile.avatar_url ?? null }),
    },
    options
  )
}
