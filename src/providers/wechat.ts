import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET https://api.weixin.qq.com/sns/userinfo`.
 *
 * @example
 * ```ts
 * import WeChat, { type WeChatProfile } from "latchkey/providers/wechat"
 * const provider = WeChat({
 *   profile: (profile: WeChatProfile) => ({ id: profile.openid, name: profile.nickname, image: profile.headimgurl || null }),
 * })
 * ```
 */
export interface WeChatProfile {
  /** The user's id for this app. */
  openid: string
  /** The user's id across the developer's apps bound to one Open Platform account. */
  unionid?: string
  nickname: string
  /** 1 male, 2 female, 0 unknown (WeChat now always returns 0). */
  sex?: number
  province?: string
  city?: string
  country?: string
  /** The avatar URL; empty when the user has none. */
  headimgurl?: string
  privilege?: string[]
  [field: string]: unknown
}

/**
 * Sign in with WeChat (Website Application QR-code login, OAuth 2.0 style).
 *
 * Setup: create a Website Application on the WeChat Open Platform
 * (https://open.weixin.qq.com), get it approved, and set its authorization callback domain to your
 * app's host (WeChat checks the domain of `<base>/callback/wechat`); set `AUTH_WECHAT_ID` and
 * `AUTH_WECHAT_SECRET` (the AppID and AppSecret).
 *
 * Quirks, handled for you: WeChat names the client id `appid` at the authorization endpoint, which
 * keeps the `#wechat_redirect` fragment WeChat documents; its token endpoint is a GET with `appid`
 * and `secret` that answers without a `token_type` (and errors as `errcode` with HTTP 200), so the
 * code exchange is a custom request; the profile request wants `access_token` and `openid` as
 * query parameters. The user id is the `unionid` when the app is bound to an Open Platform
 * account, else the `openid`. WeChat has no PKCE, so `state` protects the flow; it shares no email
 * address, so `email` is always `null`. Its refresh request is not a standard one (a GET with
 * `appid`), and it has no revocation, so both are flagged off.
 *
 * Exported from `latchkey/providers/wechat` and `latchkey/providers`.
 * Docs: https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Wechat_Login.html
 *
 * @example
 * ```ts
 * import WeChat from "latchkey/providers/wechat"
 * const provider = WeChat({ userinfo: { params: { lang: "en" } } })
 * ```
 */
export default function WeChat(options?: OAuthUserConfig<WeChatProfile>): OAuthConfig<WeChatProfile> {
  return oauthProvider(
    {
      id: "wechat",
      name: "WeChat",
      type: "oauth",
      authorization: { url: "https://open.weixin.qq.com/connect/qrconnect#wechat_redirect", params: { scope: "snsapi_login" } },
      token: {
        url: "https://api.weixin.qq.com/sns/oauth2/access_token",
        async request({ params, provider, fetch }) {
          const query = new URLSearchParams({
            appid: provider.clientId,
            secret: provider.clientSecret ?? "",
            code: params.get("code") ?? "",
            grant_type: "authorization_code",
          })
          const body = await (await fetch(`${provider.token.url}?${query}`)).json()
          const tokens = body.errcode ? { error: String(body.errcode), error_description: body.errmsg } : { ...body, token_type: "bearer" }
          return { tokens }
        },
      },
      userinfo: {
        url: "https://api.weixin.qq.com/sns/userinfo",
        request: ({ tokens, provider, fetchJson }) => {
          const query = new URLSearchParams({ ...provider.userinfo.params, access_token: tokens.access_token ?? "", openid: String(tokens.openid) })
          return fetchJson(`${provider.userinfo.url}?${query}`)
        },
      },
      checks: ["state"],
      quirks: { clientIdParam: "appid" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Wechat_Login.html",
      style: { brandColor: "#07C160", mark: () => import("./logos/wechat.js") },
      profile: (profile) => ({ id: profile.unionid || profile.openid, name: profile.nickname, email: null, image: profile.headimgurl || null }),
    },
    options
  )
}
