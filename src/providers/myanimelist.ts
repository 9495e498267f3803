import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user object of `GET https://api.myanimelist.net/v2/users/@me` (API v2).
 *
 * @example
 * ```ts
 * import MyAnimeList, { type MyAnimeListProfile } from "latchkey/providers/myanimelist"
 * const provider = MyAnimeList({
 *   profile: (profile: MyAnimeListProfile) => ({ id: String(profile.id), name: profile.name, image: profile.picture ?? null }),
 * })
 * ```
 */
export interface MyAnimeListProfile {
  id: number
  name: string
  picture?: string
  gender?: string
  birthday?: string
  location?: string
  joined_at: string
  time_zone?: string
  is_supporter?: boolean
  /** Only when asked for with `fields=anime_statistics`. */
  anime_statistics?: Record<string, number>
  [field: string]: unknown
}

/**
 * Sign in with MyAnimeList (API v2, OAuth 2.0).
 *
 * Setup: create a client of type "web" at https://myanimelist.net/apiconfig with the App Redirect
 * URL `<base>/callback/myanimelist`; set `AUTH_MYANIMELIST_ID` and `AUTH_MYANIMELIST_SECRET`.
 *
 * Quirk: MyAnimeList implements PKCE with the `plain` method only, and latchkey sends only S256
 * challenges, which MyAnimeList would compare verbatim with the verifier and reject at the token
 * exchange. PKCE is therefore off and the flow is protected with `state`. MyAnimeList documents
 * `code_challenge` as required, so its authorization page may refuse requests without one until
 * latchkey can send `plain` challenges. The token endpoint takes the client secret in the request
 * body. MyAnimeList never shares the email address, so `email` is always `null`.
 *
 * Exported from `latchkey/providers/myanimelist` and `latchkey/providers`.
 * Docs: https://myanimelist.net/apiconfig/references/authorization
 *
 * @example
 * ```ts
 * import MyAnimeList from "latchkey/providers/myanimelist"
 * const provider = MyAnimeList() // AUTH_MYANIMELIST_ID / AUTH_MYANIMELIST_SECRET
 * ```
 */
export default function MyAnimeList(options?: OAuthUserConfig<MyAnimeListProfile>): OAuthConfig<MyAnimeListProfile> {
  return oauthProvider(
    {
      id: "myanimelist",
      name: "MyAnimeList",
      type: "oauth",
      authorization: "https://myanimelist.net/v1/oauth2/authorize",
      token: "https://myanimelist.net/v1/oauth2/token",
      userinfo: "https://api.myanimelist.net/v2/users/@me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://myanimelist.net/apiconfig/references/authorization",
      style: { brandColor: "#2E51A2", mark: () => import("./logos/myanimelist.js") },
      profile: (profile) => ({ id: String(profile.id), name: profile.name, email: null, image: profile.picture ?? null }),
    },
    options
  )
}
