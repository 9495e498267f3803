import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The person of `GET https://webexapis.com/v1/people/me`.
 *
 * @example
 * ```ts
 * import Webex, { type WebexProfile } from "latchkey/providers/webex"
 * const provider = Webex({
 *   profile: (profile: WebexProfile) => ({ id: profile.id, name: profile.nickName ?? profile.displayName, email: profile.emails[0] ?? null, image: profile.avatar ?? null }),
 * })
 * ```
 */
export interface WebexProfile {
  id: string
  emails: string[]
  displayName: string
  nickName?: string
  firstName?: string
  lastName?: string
  avatar?: string
  orgId: string
  phoneNumbers?: Array<{ type: string; value: string }>
  created?: string
  lastModified?: string
  lastActivity?: string
  status?: string
  type?: "person" | "bot" | "appuser"
  [field: string]: unknown
}

/**
 * Sign in with Webex (OAuth 2.0 integrations).
 *
 * Setup: create an integration at https://developer.webex.com/my-apps/new/integration with the
 * redirect URI `<base>/callback/webex` and the `spark:people_read` scope; set `AUTH_WEBEX_ID` and
 * `AUTH_WEBEX_SECRET`.
 *
 * Quirks, handled for you: the person has a list of `emails`, of which the first is used; the
 * client credentials go in the token request body; `state` is sent along with PKCE.
 *
 * Exported from `latchkey/providers/webex` and `latchkey/providers`.
 * Docs: https://developer.webex.com/docs/integrations
 *
 * @example
 * ```ts
 * import Webex from "latchkey/providers/webex"
 * const provider = Webex({ authorization: { params: { scope: "spark:people_read spark:rooms_read" } } })
 * ```
 */
export default function Webex(options?: OAuthUserConfig<WebexProfile>): OAuthConfig<WebexProfile> {
  return oauthProvider(
    {
      id: "webex",
      name: "Webex",
      type: "oauth",
      authorization: { url: "https://webexapis.com/v1/authorize", params: { scope: "spark:people_read" } },
      token: "https://webexapis.com/v1/access_token",
      userinfo: "https://webexapis.com/v1/people/me",
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://developer.webex.com/docs/integrations",
      style: { brandColor: "#000000", mark: () => import("./logos/webex.js") },
      profile: (profile) => ({ id: profile.id, name: profile.displayName, email: profile.emails[0] ?? null, image: profile.avatar ?? null }),
    },
    options
  )
}
