import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a Kakao Login id_token.
 *
 * @example
 * ```ts
 * import Kakao, { type KakaoProfile } from "latchkey/providers/kakao"
 * const provider = Kakao({
 *   profile: (profile: KakaoProfile) => ({ id: profile.sub, name: profile.nickname ?? "Kakao user", email: profile.email ?? null, image: profile.picture ?? null }),
 * })
 * ```
 */
export interface KakaoProfile {
  iss: string
  aud: string
  /** The Kakao service user id. */
  sub: string
  iat: number
  exp: number
  auth_time: number
  nonce?: string
  /** With the `profile_nickname` consent item. */
  nickname?: string
  /** With the `profile_image` consent item. */
  picture?: string
  /** With the `account_email` consent item. */
  email?: string
  [claim: string]: unknown
}

/**
 * Sign in with Kakao (Kakao Login with OpenID Connect).
 *
 * Setup: create an app at https://developers.kakao.com/console/app, enable Kakao Login and
 * "OpenID Connect" under it, register the redirect URI `<base>/callback/kakao`, set the consent
 * items (nickname, profile image, email) and turn on the client secret under "Security"; set
 * `AUTH_KAKAO_ID` (the REST API key) and `AUTH_KAKAO_SECRET`.
 *
 * Quirks, handled for you: Kakao wants the client secret in the token request body; Kakao does
 * not document PKCE, so `state` and `nonce` (which it documents) protect the flow as well; the name
 * is the id_token's `nickname` claim. The email address needs the `account_email` consent item, which
 * Kakao grants only to business-verified ("Biz") apps; without it, drop it:
 * `authorization: { params: { scope: "openid profile_nickname profile_image" } }`.
 *
 * Exported from `latchkey/providers/kakao` and `latchkey/providers`.
 * Docs: https://developers.kakao.com/docs/latest/en/kakaologin/rest-api
 *
 * @example
 * ```ts
 * import Kakao from "latchkey/providers/kakao"
 * const provider = Kakao() // AUTH_KAKAO_ID / AUTH_KAKAO_SECRET
 * ```
 */
export default function Kakao(options?: OIDCUserConfig<KakaoProfile>): OIDCConfig<KakaoProfile> {
  return oidcProvider(
    {
      id: "kakao",
      name: "Kakao",
      type: "oidc",
      issuer: "https://kauth.kakao.com",
      authorization: { params: { scope: "openid account_email profile_nickname profile_image" } },
      // PKCE is not in Kakao's docs, so the documented state and nonce parameters are sent too:
      // https://developers.kakao.com/docs/latest/en/kakaologin/rest-api#request-code
      checks: ["pkce", "state", "nonce"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      quirks: { scopeGatedEmail: "account_email" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://developers.kakao.com/docs/latest/en/kakaologin/rest-api",
      style: { brandColor: "#FEE500", mark: () => import("./logos/kakao.js") },
      profile: (profile) => ({ id: profile.sub, name: profile.nickname ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
    },
    options
  )
}
