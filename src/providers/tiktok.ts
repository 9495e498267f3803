import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET /v2/user/info/?fields=open_id,union_id,avatar_url,display_name`.
 *
 * @example
 * ```ts
 * import TikTok, { type TikTokProfile } from "latchkey/providers/tiktok"
 * const provider = TikTok({
 *   profile: ({ data: { user } }: TikTokProfile) => ({ id: user.union_id ?? user.open_id, name: user.username ?? user.display_name ?? null, image: user.avatar_url_100 ?? null }),
 * })
 * ```
 */
export interface TikTokProfile {
  data: {
    user: {
      /** The user's id within this app. */
      open_id: string
      /** The user's id across every app of the same developer. */
      union_id?: string
      avatar_url?: string
      avatar_url_100?: string
      avatar_large_url?: string
      display_name?: string
      /** With the `user.info.profile` scope. */
      username?: string
      bio_description?: string
      profile_deep_link?: string
      is_verified?: boolean
      [field: string]: unknown
    }
  }
  error: { code: string; message: string; log_id: string }
  [field: string]: unknown
}

/**
 * Sign in with TikTok (Login Kit for Web, OAuth 2.0 v2 endpoints).
 *
 * Setup: create an app at https://developers.tiktok.com/apps, add Login Kit and register the
 * redirect URI `<base>/callback/tiktok` (https only, no query); set `AUTH_TIKTOK_ID` and
 * `AUTH_TIKTOK_SECRET` (the client key and client secret).
 *
 * Quirks, handled for you: TikTok names the client id `client_key`, at the authorization endpoint
 * and in the token request, which also wants the secret in the form body, so the code exchange is
 * a custom request; the profile needs its fields named and comes wrapped in `data.user`. The web
 * flow is protected with `state` (TikTok's PKCE is for desktop and mobile apps). TikTok shares no
 * email address, so `email` is always `null`. Its refresh and revocation requests want
 * `client_key` too, which latchkey's standard requests do not send, so both are flagged off.
 *
 * Exported from `latchkey/providers/tiktok` and `latchkey/providers`.
 * Docs: https://developers.tiktok.com/doc/login-kit-web
 *
 * @example
 * ```ts
 * import TikTok from "latchkey/providers/tiktok"
 * const provider = TikTok({ authorization: { params: { scope: "user.info.basic,user.info.profile" } } })
 * ```
 */
export default function TikTok(options?: OAuthUserConfig<TikTokProfile>): OAuthConfig<TikTokProfile> {
  return oauthProvider(
    {
      id: "tiktok",
      name: "TikTok",
      type: "oauth",
      authorization: { url: "https://www.tiktok.com/v2/auth/authorize/", params: { scope: "user.info.basic" } },
      token: {
        url: "https://open.tiktokapis.com/v2/oauth/token/",
        async request({ checks, params, provider, redirectUri, fetch }) {
          const body = new URLSearchParams({
            client_key: provider.clientId,
            client_secret: provider.clientSecret ?? "",
            code: params.get("code") ?? "",
            grant_type: "authorization_code",
            redirect_uri: redirectUri,
          })
          if (checks.code_verifier) body.set("code_verifier", checks.code_verifier)
          return { tokens: await (await fetch(provider.token.url!, { method: "POST", body })).json() }
        },
      },
      userinfo: { url: "https://open.tiktokapis.com/v2/user/info/", params: { fields: "open_id,union_id,avatar_url,display_name" } },
      checks: ["state"],
      quirks: { clientIdParam: "client_key" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://developers.tiktok.com/doc/login-kit-web",
      style: { brandColor: "#000000", mark: () => import("./logos/tiktok.js") },
      profile: ({ data: { user } }) => ({ id: user.open_id, name: user.display_name ?? null, email: null, image: user.avatar_url ?? null }),
    },
    options
  )
}
