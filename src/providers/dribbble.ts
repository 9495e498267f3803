import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user of `GET https://api.dribbble.com/v2/user`. The API does not expose email addresses.
 *
 * @example
 * ```ts
 * import Dribbble, { type DribbbleProfile } from "latchkey/providers/dribbble"
 * const provider = Dribbble({
 *   profile: (profile: DribbbleProfile) => ({ id: String(profile.id), name: profile.login, image: profile.avatar_url }),
 * })
 * ```
 */
export interface DribbbleProfile {
  id: number
  name: string
  login: string
  html_url: string
  avatar_url: string
  bio: string
  location: string | null
  links: { web?: string; twitter?: string; [link: string]: unknown }
  can_upload_shot: boolean
  pro: boolean
  followers_count: number
  created_at: string
  type: "User" | "Team"
  teams: Array<{ id: number; name: string; login: string; [field: string]: unknown }>
  [field: string]: unknown
}

/**
 * Sign in with Dribbble (OAuth 2.0, API v2).
 *
 * Setup: register an application at https://dribbble.com/account/applications/new with the
 * callback URL `<base>/callback/dribbble`; set `AUTH_DRIBBBLE_ID` and `AUTH_DRIBBBLE_SECRET`.
 *
 * Quirks: the API v2 user has no email address, so `email` is always null (link accounts by
 * provider id, not email); the client credentials go in the token request body; Dribbble documents
 * no PKCE, so `state` protects the flow. Tokens do not expire and are not refreshed.
 *
 * Exported from `latchkey/providers/dribbble` and `latchkey/providers`.
 * Docs: https://developer.dribbble.com/v2/oauth/
 *
 * @example
 * ```ts
 * import Dribbble from "latchkey/providers/dribbble"
 * const provider = Dribbble({ authorization: { params: { scope: "public upload" } } })
 * ```
 */
export default function Dribbble(options?: OAuthUserConfig<DribbbleProfile>): OAuthConfig<DribbbleProfile> {
  return oauthProvider(
    {
      id: "dribbble",
      name: "Dribbble",
      type: "oauth",
      authorization: { url: "https://dribbble.com/oauth/authorize", params: { scope: "public" } },
      token: "https://dribbble.com/oauth/token",
      userinfo: "https://api.dribbble.com/v2/user",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://developer.dribbble.com/v2/oauth/",
      style: { brandColor: "#EA4C89", mark: () => import("./logos/dribbble.js") },
      profile: (profile) => ({ id: String(profile.id), name: profile.name || profile.login, email: null, image: profile.avatar_url || null }),
    },
    options
  )
}
