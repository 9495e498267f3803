import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user object of `GET https://shikimori.one/api/users/whoami`.
 *
 * @example
 * ```ts
 * import Shikimori, { type ShikimoriProfile } from "latchkey/providers/shikimori"
 * const provider = Shikimori({
 *   profile: (profile: ShikimoriProfile) => ({ id: String(profile.id), name: profile.nickname, image: profile.image?.x80 ?? profile.avatar ?? null }),
 * })
 * ```
 */
export interface ShikimoriProfile {
  id: number
  nickname: string
  /** The 48px avatar. */
  avatar?: string | null
  image?: { x160?: string; x148?: string; x80?: string; x64?: string; x48?: string; x32?: string; x16?: string }
  last_online_at?: string
  url?: string
  name?: string | null
  sex?: string | null
  website?: string | null
  birth_on?: string | null
  full_years?: number | null
  locale?: string
  [field: string]: unknown
}

/**
 * Sign in with Shikimori (OAuth 2.0).
 *
 * Setup: create an application at https://shikimori.one/oauth/applications with the redirect URI
 * `<base>/callback/shikimori`; set `AUTH_SHIKIMORI_ID` and `AUTH_SHIKIMORI_SECRET`.
 *
 * The token endpoint takes the client secret in the request body. No scope is needed to read the
 * signed-in user; ask for more (`user_rates`, `comments`, …) if the app needs them. Shikimori
 * documents no PKCE, so the flow is protected with `state`, and never shares the email address.
 * Shikimori asks API clients to identify themselves in `User-Agent`; latchkey's profile request
 * sends `latchkey`.
 *
 * Exported from `latchkey/providers/shikimori` and `latchkey/providers`.
 * Docs: https://shikimori.one/oauth
 *
 * @example
 * ```ts
 * import Shikimori from "latchkey/providers/shikimori"
 * const provider = Shikimori({ authorization: { params: { scope: "user_rates" } } })
 * ```
 */
export default function Shikimori(options?: OAuthUserConfig<ShikimoriProfile>): OAuthConfig<ShikimoriProfile> {
  return oauthProvider(
    {
      id: "shikimori",
      name: "Shikimori",
      type: "oauth",
      authorization: "https://shikimori.one/oauth/authorize",
      token: "https://shikimori.one/oauth/token",
      userinfo: "https://shikimori.one/api/users/whoami",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://shikimori.one/oauth",
      style: { brandColor: "#343434" },
      profile: (profile) => ({ id: String(profile.id), name: profile.nickname, email: null, image: profile.image?.x160 ?? profile.avatar ?? null }),
    },
    options
  )
}
