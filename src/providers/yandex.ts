import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET https://login.yandex.ru/info?format=json`.
 *
 * @example
 * ```ts
 * import Yandex, { type YandexProfile } from "latchkey/providers/yandex"
 * const provider = Yandex({
 *   profile: (profile: YandexProfile) => ({ id: profile.id, name: profile.display_name ?? profile.login, email: profile.default_email ?? null }),
 * })
 * ```
 */
export interface YandexProfile {
  /** The Yandex user id. */
  id: string
  login: string
  client_id: string
  /** A per-user id for this app's developer. */
  psuid: string
  /** With `login:info`. */
  display_name?: string
  real_name?: string
  first_name?: string
  last_name?: string
  sex?: "female" | "male" | null
  /** With `login:email`. */
  default_email?: string
  emails?: string[]
  /** With `login:avatar`. */
  default_avatar_id?: string
  is_avatar_empty?: boolean
  /** With `login:birthday`: `YYYY-MM-DD`. */
  birthday?: string | null
  /** With `login:default_phone`. */
  default_phone?: { id: number; number: string }
  [field: string]: unknown
}

/**
 * Sign in with Yandex ID (OAuth 2.0).
 *
 * Setup: register an app at https://oauth.yandex.com/client/new with the "Web services" platform,
 * the redirect URI `<base>/callback/yandex` and the Yandex ID permissions `login:info`,
 * `login:email` and `login:avatar`; set `AUTH_YANDEX_ID` and `AUTH_YANDEX_SECRET`.
 *
 * Quirks, handled for you: the Yandex ID API wants the token as `Authorization: OAuth <token>`
 * rather than `Bearer`, so the profile request is a custom one; the image is built from
 * `default_avatar_id` (200×200), and is `null` when the user has none. Yandex's token revocation
 * is not RFC 7009, so it is flagged off.
 *
 * Exported from `latchkey/providers/yandex` and `latchkey/providers`.
 * Docs: https://yandex.com/dev/id/doc/en/
 *
 * @example
 * ```ts
 * import Yandex from "latchkey/providers/yandex"
 * const provider = Yandex({ authorization: { params: { scope: "login:info login:email login:avatar login:birthday" } } })
 * ```
 */
export default function Yandex(options?: OAuthUserConfig<YandexProfile>): OAuthConfig<YandexProfile> {
  return oauthProvider(
    {
      id: "yandex",
      name: "Yandex",
      type: "oauth",
      authorization: { url: "https://oauth.yandex.ru/authorize", params: { scope: "login:info login:email login:avatar" } },
      token: "https://oauth.yandex.ru/token",
      userinfo: {
        url: "https://login.yandex.ru/info",
        params: { format: "json" },
        request: ({ tokens, provider, fetchJson }) =>
          fetchJson(`${provider.userinfo.url}?${new URLSearchParams(provider.userinfo.params)}`, { headers: { authorization: `OAuth ${tokens.access_token}` } }),
      },
      capabilities: { refresh: true, revocation: false },
      docs: "https://yandex.com/dev/id/doc/en/",
      style: { brandColor: "#FC3F1D" },
      profile: (profile) => ({
        id: profile.id,
        name: profile.display_name || profile.real_name || profile.login,
        email: profile.default_email ?? null,
        image: profile.default_avatar_id && !profile.is_avatar_empty ? `https://avatars.yandex.net/get-yapic/${profile.default_avatar_id}/islands-200` : null,
      }),
    },
    options
  )
}
