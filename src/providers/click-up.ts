import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET /api/v2/user` (the authorized user).
 *
 * @example
 * ```ts
 * import ClickUp, { type ClickUpProfile } from "latchkey/providers/click-up"
 * const provider = ClickUp({
 *   profile: ({ user }: ClickUpProfile) => ({ id: String(user.id), name: user.username || user.initials, email: user.email, image: user.profilePicture }),
 * })
 * ```
 */
export interface ClickUpProfile {
  user: {
    id: number
    username: string
    email: string
    color: string | null
    profilePicture: string | null
    initials: string
    week_start_day: number | null
    global_font_support: boolean
    timezone: string
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Sign in with ClickUp (OAuth 2.0).
 *
 * Setup: as a Workspace owner or admin, create an app under Settings → ClickUp API with the
 * redirect URL `<base>/callback/click-up`; set `AUTH_CLICK_UP_ID` and `AUTH_CLICK_UP_SECRET`.
 *
 * Quirks, handled for you: ClickUp's token endpoint takes the client id, secret and code as query
 * parameters and answers with a bare `access_token`, which is used as a Bearer token; its API wants
 * that token as the whole `Authorization` header, with no scheme; there are no scopes and no PKCE,
 * so `state` protects the flow. Tokens do not expire and are not refreshed.
 *
 * Exported from `latchkey/providers/click-up` and `latchkey/providers`.
 * Docs: https://developer.clickup.com/docs/authentication
 *
 * @example
 * ```ts
 * import ClickUp from "latchkey/providers/click-up"
 * const provider = ClickUp() // AUTH_CLICK_UP_ID / AUTH_CLICK_UP_SECRET
 * ```
 */
export default function ClickUp(options?: OAuthUserConfig<ClickUpProfile>): OAuthConfig<ClickUpProfile> {
  return oauthProvider(
    {
      id: "click-up",
      name: "ClickUp",
      type: "oauth",
      authorization: "https://app.clickup.com/api",
      token: {
        url: "https://api.clickup.com/api/v2/oauth/token",
        async request({ params, provider, fetch }) {
          const url = new URL(provider.token.url!)
          url.search = new URLSearchParams({ client_id: provider.clientId, client_secret: provider.clientSecret ?? "", code: params.get("code") ?? "" }).toString()
          const response = await fetch(url, { method: "POST", headers: { accept: "application/json" } })
          const body = (await response.json()) as { access_token?: string; err?: string; ECODE?: string }
          // Errors come as { err, ECODE }; as RFC 6749 fields they become a token error.
          return { tokens: response.ok ? { token_type: "bearer", ...body } : { error: body.ECODE ?? "invalid_grant", error_description: body.err } }
        },
      },
      userinfo: {
        url: "https://api.clickup.com/api/v2/user",
        request: ({ tokens, provider, fetchJson }) => fetchJson(provider.userinfo.url!, { headers: { authorization: tokens.access_token! } }),
      },
      checks: ["state"],
      capabilities: { refresh: false, revocation: false },
      docs: "https://developer.clickup.com/docs/authentication",
      style: { brandColor: "#7B68EE", mark: () => import("./logos/click-up.js") },
      profile: ({ user }) => ({ id: String(user.id), name: user.username, email: user.email, image: user.profilePicture }),
    },
    options
  )
}
