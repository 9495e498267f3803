import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET https://api.kick.com/public/v1/users` (the signed-in user).
 *
 * @example
 * ```ts
 * import type { KickProfile } from "latchkey/providers/kick"
 * const channelName = (profile: KickProfile) => profile.data[0]?.name ?? null
 * ```
 */
export interface KickProfile {
  data: {
    user_id: number
    name: string
    /** With the `user:read` scope. */
    email?: string
    profile_picture?: string
    [field: string]: unknown
  }[]
  message: string
  [field: string]: unknown
}

/**
 * Sign in with Kick (OAuth 2.1).
 *
 * Setup: create an app at https://kick.com/settings/developer with the redirect URL
 * `<base>/callback/kick` and the "Read user information (including email address)" scope; set
 * `AUTH_KICK_ID` and `AUTH_KICK_SECRET`.
 *
 * Quirks, handled for you: Kick requires both PKCE and `state`, and the client secret in the token
 * request body; the users endpoint returns a list, whose first entry is the signed-in user. Kick's
 * revocation takes the token as a query parameter rather than RFC 7009's form body, so it is
 * flagged off.
 *
 * Exported from `latchkey/providers/kick` and `latchkey/providers`.
 * Docs: https://docs.kick.com/getting-started/generating-tokens-oauth2-flow
 *
 * @example
 * ```ts
 * import Kick from "latchkey/providers/kick"
 * const provider = Kick({ authorization: { params: { scope: "user:read channel:read" } } })
 * ```
 */
export default function Kick(options?: OAuthUserConfig<KickProfile>): OAuthConfig<KickProfile> {
  return oauthProvider(
    {
      id: "kick",
      name: "Kick",
      type: "oauth",
      authorization: { url: "https://id.kick.com/oauth/authorize", params: { scope: "user:read" } },
      token: "https://id.kick.com/oauth/token",
      userinfo: "https://api.kick.com/public/v1/users",
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://docs.kick.com/getting-started/generating-tokens-oauth2-flow",
      style: { brandColor: "#53FC18", mark: () => import("./logos/kick.js") },
      profile: ({ data: [user] }) => ({
        // An empty list leaves the id unset, which the flow reports as a profile error.
        id: user && String(user.user_id),
        name: user?.name ?? null,
        email: user?.email ?? null,
        image: user?.profile_picture ?? null,
      }),
    },
    options
  )
}
