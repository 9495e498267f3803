import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"
import { trimTrailingSlashes } from "../lib/trim-slashes.js"

/**
 * The user object of `GET <host>/api/users/whoami`.
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
 * Shikimori options: everything in {@link OAuthUserConfig}, plus the host.
 *
 * @example
 * ```ts
 * import Shikimori, { type ShikimoriUserConfig } from "latchkey/providers/shikimori"
 * const options: ShikimoriUserConfig = { baseUrl: "https://shikimori.one" }
 * const provider = Shikimori(options)
 * ```
 */
export interface ShikimoriUserConfig extends OAuthUserConfig<ShikimoriProfile> {
  /** The Shikimori host. Default `https://shikimori.io`; the old `shikimori.one` still works where it is not blocked. */
  baseUrl?: string
}

/**
 * Sign in with Shikimori (OAuth 2.0).
 *
 * Setup: create an application at https://shikimori.io/oauth/applications with the redirect URI
 * `<base>/callback/shikimori`; set `AUTH_SHIKIMORI_ID` and `AUTH_SHIKIMORI_SECRET`. Shikimori
 * moved to `shikimori.io` (the old domain has been blocked in its main market since January
 * 2026); pass `baseUrl` to use another of its hosts.
 *
 * The token endpoint takes the client secret in the request body. No scope is needed to read the
 * signed-in user; ask for more (`user_rates`, `comments`, …) if the app needs them. Shikimori
 * documents no PKCE, so the flow is protected with `state`, and never shares the email address.
 * Shikimori asks API clients to identify themselves in `User-Agent`; latchkey's profile request
 * sends `latchkey`.
 *
 * Exported from `latchkey/providers/shikimori` and `latchkey/providers`.
 * Docs: https://shikimori.io/oauth
 *
 * @example
 * ```ts
 * import Shikimori from "latchkey/providers/shikimori"
 * const provider = Shikimori({ authorization: { params: { scope: "user_rates" } } })
 * ```
 */
export default function Shikimori(options: ShikimoriUserConfig = {}): OAuthConfig<ShikimoriProfile> {
  const { baseUrl = "https://shikimori.io", ...userOptions } = options
  // The OAuth guide, on the current domain: https://shikimori.io/oauth
  const host = trimTrailingSlashes(baseUrl)
  return oauthProvider(
    {
      id: "shikimori",
      name: "Shikimori",
      type: "oauth",
      authorization: `${host}/oauth/authorize`,
      token: `${host}/oauth/token`,
      userinfo: `${host}/api/users/whoami`,
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://shikimori.io/oauth",
      style: { brandColor: "#343434", mark: () => import("./logos/shikimori.js") },
      profile: (profile) => ({ id: String(profile.id), name: profile.nickname, email: null, image: profile.image?.x160 ?? profile.avatar ?? null }),
    },
    userOptions
  )
}
