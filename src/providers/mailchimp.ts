import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET https://login.mailchimp.com/oauth2/metadata`.
 *
 * @example
 * ```ts
 * import type { MailchimpProfile } from "latchkey/providers/mailchimp"
 * const apiBase = (profile: MailchimpProfile) => profile.api_endpoint // such as "https://us19.api.mailchimp.com"
 * ```
 */
export interface MailchimpProfile {
  /** The account's data centre, such as `us19`; API calls go to `https://<dc>.api.mailchimp.com`. */
  dc: string
  role: string
  accountname: string
  /** The account's id; every login of the account shares it. */
  user_id: number
  login: { email: string; avatar: string | null; login_id: number; login_name: string; login_email: string }
  login_url: string
  api_endpoint: string
  [field: string]: unknown
}

/**
 * Sign in with Mailchimp (OAuth 2.0).
 *
 * Setup: register an app under Account → Extras → Registered apps
 * (https://admin.mailchimp.com/account/oauth2/) with the redirect URI `<base>/callback/mailchimp`;
 * set `AUTH_MAILCHIMP_ID` and `AUTH_MAILCHIMP_SECRET`.
 *
 * Quirks, handled for you: the token response has no `token_type`, a `null` scope and
 * `expires_in: 0` for a token that never expires, so it is conformed to RFC 6749; the metadata
 * endpoint wants the token with the `OAuth` scheme rather than `Bearer`; the client credentials go
 * in the token request body; there are no scopes and no PKCE, so `state` protects the flow. The
 * user is the login (`login.login_id`), not the account, which several logins may share.
 *
 * Exported from `latchkey/providers/mailchimp` and `latchkey/providers`.
 * Docs: https://mailchimp.com/developer/marketing/guides/access-user-data-oauth-2/
 *
 * @example
 * ```ts
 * import Mailchimp from "latchkey/providers/mailchimp"
 * const provider = Mailchimp() // AUTH_MAILCHIMP_ID / AUTH_MAILCHIMP_SECRET
 * ```
 */
export default function Mailchimp(options?: OAuthUserConfig<MailchimpProfile>): OAuthConfig<MailchimpProfile> {
  return oauthProvider(
    {
      id: "mailchimp",
      name: "Mailchimp",
      type: "oauth",
      authorization: "https://login.mailchimp.com/oauth2/authorize",
      token: {
        url: "https://login.mailchimp.com/oauth2/token",
        conform: async (response) =>
          response.ok ? Response.json({ ...(await response.json()), token_type: "bearer", scope: undefined, expires_in: undefined }) : undefined,
      },
      userinfo: {
        url: "https://login.mailchimp.com/oauth2/metadata",
        request: ({ tokens, provider, fetchJson }) => fetchJson(provider.userinfo.url!, { headers: { authorization: `OAuth ${tokens.access_token}` } }),
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://mailchimp.com/developer/marketing/guides/access-user-data-oauth-2/",
      style: { brandColor: "#FFE01B", mark: () => import("./logos/mailchimp.js") },
      profile: ({ login }) => ({ id: String(login.login_id), name: login.login_name, email: login.login_email || login.email, image: login.avatar }),
    },
    options
  )
}
