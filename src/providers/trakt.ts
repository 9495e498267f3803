import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET /users/settings` (abridged: `connections`, `sharing_text` and `limits` are left untyped).
 *
 * @example
 * ```ts
 * import Trakt, { type TraktProfile } from "latchkey/providers/trakt"
 * const provider = Trakt({
 *   profile: ({ user }: TraktProfile) => ({ id: user.ids.slug, name: user.name ?? user.username, image: user.images.avatar.full }),
 * })
 * ```
 */
export interface TraktProfile {
  user: {
    username: string
    private: boolean
    name: string | null
    vip: boolean
    vip_ep: boolean
    ids: { slug: string; uuid?: string }
    joined_at: string
    location: string | null
    about: string | null
    gender: string | null
    age: number | null
    images: { avatar: { full: string } }
    [field: string]: unknown
  }
  account: { timezone: string; date_format: string; time_24hr: boolean; cover_image: string | null; [field: string]: unknown }
  [field: string]: unknown
}

/**
 * Sign in with Trakt (OAuth 2.0).
 *
 * Setup: create an application at https://trakt.tv/oauth/applications with the redirect URI
 * `<base>/callback/trakt`; set `AUTH_TRAKT_ID` and `AUTH_TRAKT_SECRET`.
 *
 * Quirks, handled for you: every API call must carry `trakt-api-version: 2` and the client id as
 * `trakt-api-key`, so the profile request sets both. Trakt has no scopes and documents no PKCE:
 * `state` guards the callback, and the client secret goes in the token request body. The id is
 * the account's `uuid` (its `slug` changes with the username); Trakt never shares an email
 * address, so `email` is always `null`.
 *
 * Exported from `latchkey/providers/trakt` and `latchkey/providers`.
 * Docs: https://docs.trakt.tv/docs/authentication-oauth
 *
 * @example
 * ```ts
 * import Trakt from "latchkey/providers/trakt"
 * const provider = Trakt() // AUTH_TRAKT_ID / AUTH_TRAKT_SECRET
 * ```
 */
export default function Trakt(options?: OAuthUserConfig<TraktProfile>): OAuthConfig<TraktProfile> {
  return oauthProvider(
    {
      id: "trakt",
      name: "Trakt",
      type: "oauth",
      authorization: "https://trakt.tv/oauth/authorize",
      token: "https://api.trakt.tv/oauth/token",
      userinfo: {
        url: "https://api.trakt.tv/users/settings",
        request: ({ provider, fetchJson }) =>
          fetchJson(provider.userinfo.url!, { headers: { "trakt-api-version": "2", "trakt-api-key": provider.clientId } }),
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: "https://api.trakt.tv/oauth/revoke" },
      docs: "https://docs.trakt.tv/docs/authentication-oauth",
      style: { brandColor: "#9F42C6", mark: () => import("./logos/trakt.js") },
      profile: ({ user }) => ({
        id: user.ids.uuid ?? user.ids.slug,
        name: user.name || user.username,
        email: null,
        image: user.images?.avatar?.full ?? null,
      }),
    },
    options
  )
}
