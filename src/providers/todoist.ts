import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user of `GET https://api.todoist.com/api/v1/user`.
 *
 * @example
 * ```ts
 * import Todoist, { type TodoistProfile } from "latchkey/providers/todoist"
 * const provider = Todoist({
 *   profile: (profile: TodoistProfile) => ({ id: profile.id, name: profile.full_name, email: profile.email, image: profile.avatar_medium ?? null }),
 * })
 * ```
 */
export interface TodoistProfile {
  id: string
  email: string
  full_name: string
  /** Avatar URLs by size; absent when the user has no avatar. */
  avatar_big?: string
  avatar_medium?: string
  avatar_s640?: string
  avatar_small?: string
  image_id?: string | null
  lang?: string
  tz_info?: { timezone: string; gmt_string: string; hours: number; minutes: number; is_dst: number }
  is_premium?: boolean
  premium_status?: string
  [field: string]: unknown
}

/**
 * Sign in with Todoist (OAuth 2.0).
 *
 * Setup: create an app in the App Management Console (https://app.todoist.com/app/settings/integrations/app-management)
 * with the OAuth redirect URL `<base>/callback/todoist`; set `AUTH_TODOIST_ID` and
 * `AUTH_TODOIST_SECRET`.
 *
 * Quirks: Todoist separates several scopes with commas (`data:read,task:add`); the client
 * credentials go in the token request body; `state` protects the flow. Tokens do not expire and
 * are not refreshed.
 *
 * Exported from `latchkey/providers/todoist` and `latchkey/providers`.
 * Docs: https://developer.todoist.com/api/v1/#tag/Authorization
 *
 * @example
 * ```ts
 * import Todoist from "latchkey/providers/todoist"
 * const provider = Todoist({ authorization: { params: { scope: "data:read_write" } } })
 * ```
 */
export default function Todoist(options?: OAuthUserConfig<TodoistProfile>): OAuthConfig<TodoistProfile> {
  return oauthProvider(
    {
      id: "todoist",
      name: "Todoist",
      type: "oauth",
      authorization: { url: "https://todoist.com/oauth/authorize", params: { scope: "data:read" } },
      token: "https://todoist.com/oauth/access_token",
      userinfo: "https://api.todoist.com/api/v1/user",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: false, revocation: "https://api.todoist.com/api/v1/revoke" },
      docs: "https://developer.todoist.com/api/v1/#tag/Authorization",
      style: { brandColor: "#E44332", mark: () => import("./logos/todoist.js") },
      profile: (profile) => ({ id: profile.id, name: profile.full_name, email: profile.email, image: profile.avatar_big ?? null }),
    },
    options
  )
}
