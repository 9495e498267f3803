import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user of `GET https://api.zoom.us/v2/users/me`.
 *
 * @example
 * ```ts
 * import Zoom, { type ZoomProfile } from "latchkey/providers/zoom"
 * const provider = Zoom({
 *   profile: (profile: ZoomProfile) => ({ id: profile.id, name: profile.display_name, email: profile.verified === 1 ? profile.email : null, image: profile.pic_url ?? null }),
 * })
 * ```
 */
export interface ZoomProfile {
  id: string
  first_name: string
  last_name: string
  display_name: string
  email: string
  type: number
  pic_url?: string
  account_id: string
  account_number?: number
  status?: "pending" | "active" | "inactive"
  verified?: number
  timezone?: string
  language?: string
  role_name?: string
  pmi?: number
  personal_meeting_url?: string
  created_at?: string
  last_login_time?: string
  [field: string]: unknown
}

/**
 * Sign in with Zoom (OAuth 2.0, user-managed apps).
 *
 * Setup: create a General App in the Zoom App Marketplace (https://marketplace.zoom.us/develop/create)
 * with the OAuth redirect URL `<base>/callback/zoom` (also on the allow list) and the
 * `user:read:user` scope; set `AUTH_ZOOM_ID` and `AUTH_ZOOM_SECRET`. Scopes are chosen in the app,
 * so none is requested here.
 *
 * Refresh tokens are single-use: each refresh returns a new one.
 *
 * Exported from `latchkey/providers/zoom` and `latchkey/providers`.
 * Docs: https://developers.zoom.us/docs/integrations/oauth/
 *
 * @example
 * ```ts
 * import Zoom from "latchkey/providers/zoom"
 * const provider = Zoom() // AUTH_ZOOM_ID / AUTH_ZOOM_SECRET
 * ```
 */
export default function Zoom(options?: OAuthUserConfig<ZoomProfile>): OAuthConfig<ZoomProfile> {
  return oauthProvider(
    {
      id: "zoom",
      name: "Zoom",
      type: "oauth",
      authorization: "https://zoom.us/oauth/authorize",
      token: "https://zoom.us/oauth/token",
      userinfo: "https://api.zoom.us/v2/users/me",
      capabilities: { refresh: true, revocation: "https://zoom.us/oauth/revoke" },
      docs: "https://developers.zoom.us/docs/integrations/oauth/",
      style: { brandColor: "#0B5CFF", mark: () => import("./logos/zoom.js") },
      profile: (profile) => ({
        id: profile.id,
        name: profile.display_name || `${profile.first_name} ${profile.last_name}`.trim() || null,
        email: profile.email,
        image: profile.pic_url ?? null,
      }),
    },
    options
  )
}
