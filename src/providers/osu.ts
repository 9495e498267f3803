import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user object of `GET /api/v2/me` (osu! API v2; abridged).
 *
 * @example
 * ```ts
 * import Osu, { type OsuProfile } from "latchkey/providers/osu"
 * const provider = Osu({
 *   profile: (profile: OsuProfile) => ({ id: String(profile.id), name: `${profile.username} (${profile.country_code})`, image: profile.avatar_url }),
 * })
 * ```
 */
export interface OsuProfile {
  id: number
  username: string
  avatar_url: string
  country_code: string
  default_group: string
  is_active: boolean
  is_bot: boolean
  is_deleted: boolean
  is_online: boolean
  is_supporter: boolean
  last_visit: string | null
  pm_friends_only: boolean
  profile_colour: string | null
  cover_url?: string
  discord?: string | null
  has_supported?: boolean
  interests?: string | null
  join_date?: string
  location?: string | null
  occupation?: string | null
  playmode?: string
  twitter?: string | null
  website?: string | null
  [field: string]: unknown
}

/**
 * Sign in with osu! (OAuth 2.0).
 *
 * Setup: register an OAuth application under "OAuth" in your osu! account settings
 * (https://osu.ppy.sh/home/account/edit#oauth) with the callback URL `<base>/callback/osu`; set
 * `AUTH_OSU_ID` and `AUTH_OSU_SECRET`.
 *
 * The `identify` scope gives the public profile. osu! never shares an email address, so `email`
 * is always `null`. No PKCE is documented, so `state` guards the callback, and the client secret
 * goes in the token request body.
 *
 * Exported from `latchkey/providers/osu` and `latchkey/providers`.
 * Docs: https://osu.ppy.sh/docs/#authorization-code-grant
 *
 * @example
 * ```ts
 * import Osu from "latchkey/providers/osu"
 * const provider = Osu({ authorization: { params: { scope: "identify public" } } })
 * ```
 */
export default function Osu(options?: OAuthUserConfig<OsuProfile>): OAuthConfig<OsuProfile> {
  return oauthProvider(
    {
      id: "osu",
      name: "osu!",
      type: "oauth",
      authorization: { url: "https://osu.ppy.sh/oauth/authorize", params: { scope: "identify" } },
      token: "https://osu.ppy.sh/oauth/token",
      userinfo: "https://osu.ppy.sh/api/v2/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://osu.ppy.sh/docs/#authorization-code-grant",
      style: { brandColor: "#FF66AA", mark: () => import("./logos/osu.js") },
      profile: (profile) => ({ id: String(profile.id), name: profile.username, email: null, image: profile.avatar_url ?? null }),
    },
    options
  )
}
