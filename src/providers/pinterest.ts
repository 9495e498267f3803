import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The account of `GET https://api.pinterest.com/v5/user_account` (`user_accounts:read` scope).
 *
 * @example
 * ```ts
 * import Pinterest, { type PinterestProfile } from "latchkey/providers/pinterest"
 * const provider = Pinterest({
 *   profile: (profile: PinterestProfile) => ({ id: profile.id, name: profile.username, image: profile.profile_image ?? null }),
 * })
 * ```
 */
export interface PinterestProfile {
  id: string
  username: string
  /** `PINNER` or `BUSINESS`. */
  account_type: string
  profile_image?: string
  website_url?: string
  about?: string
  business_name?: string | null
  board_count?: number | null
  pin_count?: number | null
  follower_count?: number | null
  following_count?: number | null
  monthly_views?: number | null
  [field: string]: unknown
}

/**
 * Sign in with Pinterest (OAuth 2.0, API v5).
 *
 * Setup: create an app at https://developers.pinterest.com/apps/ and add the redirect URI
 * `<base>/callback/pinterest`; set `AUTH_PINTEREST_ID` and `AUTH_PINTEREST_SECRET` (the app id and
 * secret key).
 *
 * The flow is protected with `state`, as Pinterest documents. Pinterest shares no email address,
 * so `email` is always `null`; the name is the business name, else the username. Access tokens
 * last 30 days and refresh tokens a year; Pinterest has no revocation endpoint.
 *
 * Exported from `latchkey/providers/pinterest` and `latchkey/providers`.
 * Docs: https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/
 *
 * @example
 * ```ts
 * import Pinterest from "latchkey/providers/pinterest"
 * const provider = Pinterest({ authorization: { params: { scope: "user_accounts:read boards:read pins:read" } } })
 * ```
 */
export default function Pinterest(options?: OAuthUserConfig<PinterestProfile>): OAuthConfig<PinterestProfile> {
  return oauthProvider(
    {
      id: "pinterest",
      name: "Pinterest",
      type: "oauth",
      authorization: { url: "https://www.pinterest.com/oauth/", params: { scope: "user_accounts:read" } },
      token: "https://api.pinterest.com/v5/oauth/token",
      userinfo: "https://api.pinterest.com/v5/user_account",
      checks: ["state"],
      capabilities: { refresh: true, revocation: false },
      docs: "https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/",
      style: { brandColor: "#E60023", mark: () => import("./logos/pinterest.js") },
      profile: (profile) => ({ id: profile.id, name: profile.business_name || profile.username, email: null, image: profile.profile_image ?? null }),
    },
    options
  )
}
