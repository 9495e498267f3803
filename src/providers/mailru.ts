import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET https://oauth.mail.ru/userinfo` (`userinfo` scope).
 *
 * @example
 * ```ts
 * import MailRu, { type MailRuProfile } from "latchkey/providers/mailru"
 * const provider = MailRu({
 *   profile: (profile: MailRuProfile) => ({ id: profile.id, name: profile.first_name ?? profile.nickname ?? null, email: profile.email, image: profile.image ?? null }),
 * })
 * ```
 */
export interface MailRuProfile {
  id: string
  client_id: string
  email: string
  name?: string
  first_name?: string
  last_name?: string
  nickname?: string
  /** `m` or `f`. */
  gender?: string
  /** `DD.MM.YYYY`. */
  birthday?: string
  locale?: string
  image?: string
  [field: string]: unknown
}

/**
 * Sign in with Mail (Mail.ru OAuth 2.0, `oauth.mail.ru`).
 *
 * Setup: create an application at https://o2.mail.ru/app/ with the redirect URI
 * `<base>/callback/mailru`; set `AUTH_MAILRU_ID` and `AUTH_MAILRU_SECRET`.
 *
 * Quirks, handled for you: the userinfo endpoint takes the access token as an `access_token`
 * query parameter, not a header, so the profile request is a custom one; Mail.ru asks for `state`
 * (256 bits, which latchkey's is) alongside PKCE. There is no revocation endpoint.
 *
 * Exported from `latchkey/providers/mailru` and `latchkey/providers`.
 * Docs: https://id.vk.com/about/business/go/docs/ru/vkid/latest/oauth/oauth-mail/index
 *
 * @example
 * ```ts
 * import MailRu from "latchkey/providers/mailru"
 * const provider = MailRu() // AUTH_MAILRU_ID / AUTH_MAILRU_SECRET
 * ```
 */
export default function MailRu(options?: OAuthUserConfig<MailRuProfile>): OAuthConfig<MailRuProfile> {
  return oauthProvider(
    {
      id: "mailru",
      name: "Mail",
      type: "oauth",
      authorization: { url: "https://oauth.mail.ru/login", params: { scope: "userinfo" } },
      token: "https://oauth.mail.ru/token",
      userinfo: {
        url: "https://oauth.mail.ru/userinfo",
        request: ({ tokens, provider, fetchJson }) =>
          fetchJson(`${provider.userinfo.url}?${new URLSearchParams({ ...provider.userinfo.params, access_token: tokens.access_token ?? "" })}`),
      },
      checks: ["pkce", "state"],
      capabilities: { refresh: true, revocation: false },
      docs: "https://id.vk.com/about/business/go/docs/ru/vkid/latest/oauth/oauth-mail/index",
      style: { brandColor: "#005FF9", mark: () => import("./logos/mailru.js") },
      profile: (profile) => ({ id: profile.id, name: profile.name || profile.nickname || null, email: profile.email ?? null, image: profile.image ?? null }),
    },
    options
  )
}
