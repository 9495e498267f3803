import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user object of `GET /api/v4/users/me` (abridged).
 *
 * @example
 * ```ts
 * import type { MattermostProfile } from "latchkey/providers/mattermost"
 * const isSystemAdmin = (profile: MattermostProfile) => profile.roles.split(" ").includes("system_admin")
 * ```
 */
export interface MattermostProfile {
  id: string
  create_at: number
  update_at: number
  delete_at: number
  username: string
  first_name: string
  last_name: string
  nickname: string
  email: string
  email_verified: boolean
  auth_service: string
  roles: string
  locale: string
  position?: string
  last_picture_update?: number
  mfa_active?: boolean
  timezone?: { useAutomaticTimezone: string; automaticTimezone: string; manualTimezone: string }
  [field: string]: unknown
}

/**
 * Sign in with Mattermost (OAuth 2.0), on your own Mattermost server.
 *
 * Setup: a system admin turns on System Console → Integrations → Integration Management →
 * "Enable OAuth 2.0 Service Provider"; then add an OAuth 2.0 application under Integrations with
 * the callback URL `<base>/callback/mattermost`; set `AUTH_MATTERMOST_ID`, `AUTH_MATTERMOST_SECRET`
 * and `AUTH_MATTERMOST_ISSUER` (or `baseUrl`), the server's URL such as
 * `https://chat.example.com`; a trailing slash is trimmed.
 *
 * Mattermost has no scopes: a token acts with all of the user's permissions. Confidential clients
 * send the secret in the token request body. Older servers ignore PKCE, so `state` is sent as
 * well. The profile picture (`/api/v4/users/<id>/image`) needs a session, so `image` is `null`.
 *
 * Exported from `latchkey/providers/mattermost` and `latchkey/providers`.
 * Docs: https://developers.mattermost.com/integrate/apps/authentication/oauth2/
 *
 * @example
 * ```ts
 * import Mattermost from "latchkey/providers/mattermost"
 * const provider = Mattermost({ baseUrl: "https://chat.example.com" })
 * ```
 */
export default function Mattermost(options?: OAuthUserConfig<MattermostProfile>): OAuthConfig<MattermostProfile> {
  return oauthProvider(
    {
      id: "mattermost",
      name: "Mattermost",
      type: "oauth",
      authorization: "{baseUrl}/oauth/authorize",
      token: "{baseUrl}/oauth/access_token",
      userinfo: "{baseUrl}/api/v4/users/me",
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://developers.mattermost.com/integrate/apps/authentication/oauth2/",
      style: { brandColor: "#0058CC", mark: () => import("./logos/mattermost.js") },
      profile: (profile) => ({
        id: profile.id,
        name: [profile.first_name, profile.last_name].filter(Boolean).join(" ") || profile.nickname || profile.username,
        email: profile.email || null,
        image: null,
      }),
    },
    options
  )
}
