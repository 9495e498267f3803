import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET https://openapi.naver.com/v1/nid/me`.
 *
 * @example
 * ```ts
 * import Naver, { type NaverProfile } from "latchkey/providers/naver"
 * const provider = Naver({
 *   profile: ({ response: user }: NaverProfile) => ({ id: user.id, name: user.nickname ?? user.name ?? null, email: user.email ?? null, image: user.profile_image ?? null }),
 * })
 * ```
 */
export interface NaverProfile {
  /** `00` on success. */
  resultcode: string
  message: string
  response: {
    /** The user's id for this app. */
    id: string
    nickname?: string
    name?: string
    email?: string
    /** `F`, `M` or `U`. */
    gender?: string
    age?: string
    /** `MM-DD`. */
    birthday?: string
    birthyear?: string
    profile_image?: string
    mobile?: string
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Sign in with Naver (Naver Login, OAuth 2.0).
 *
 * Setup: register an application at https://developers.naver.com/apps/ with the "네이버 로그인"
 * API, the PC web service URL and the callback URL `<base>/callback/naver`, and choose the profile
 * items (name, email, profile image) there, as Naver takes no `scope`; set `AUTH_NAVER_ID` and
 * `AUTH_NAVER_SECRET`.
 *
 * Quirks, handled for you: Naver requires `state` (it has no PKCE) and the client secret in the
 * token request parameters; the profile comes wrapped in `response`. Naver's token deletion
 * (`grant_type=delete`) is not RFC 7009, so revocation is flagged off.
 *
 * Exported from `latchkey/providers/naver` and `latchkey/providers`.
 * Docs: https://developers.naver.com/docs/login/api/api.md
 *
 * @example
 * ```ts
 * import Naver from "latchkey/providers/naver"
 * const provider = Naver() // AUTH_NAVER_ID / AUTH_NAVER_SECRET
 * ```
 */
export default function Naver(options?: OAuthUserConfig<NaverProfile>): OAuthConfig<NaverProfile> {
  return oauthProvider(
    {
      id: "naver",
      name: "Naver",
      type: "oauth",
      authorization: "https://nid.naver.com/oauth2.0/authorize",
      token: "https://nid.naver.com/oauth2.0/token",
      userinfo: "https://openapi.naver.com/v1/nid/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://developers.naver.com/docs/login/api/api.md",
      style: { brandColor: "#03C75A", mark: () => import("./logos/naver.js") },
      profile: ({ response: user }) => ({
        id: user.id,
        name: user.name || user.nickname || null,
        email: user.email ?? null,
        image: user.profile_image ?? null,
      }),
    },
    options
  )
}
