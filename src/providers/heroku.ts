import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The account object of `GET https://api.heroku.com/account` (Platform API v3).
 *
 * @example
 * ```ts
 * import Heroku, { type HerokuProfile } from "latchkey/providers/heroku"
 * const provider = Heroku({
 *   profile: (profile: HerokuProfile) => ({ id: profile.id, name: profile.name || profile.email, email: profile.verified ? profile.email : null }),
 * })
 * ```
 */
export interface HerokuProfile {
  id: string
  email: string
  name: string | null
  verified: boolean
  allow_tracking?: boolean
  beta?: boolean
  federated?: boolean
  two_factor_authentication?: boolean
  identity_provider?: { id: string; name?: string; [field: string]: unknown } | null
  default_team?: { id: string; name: string } | null
  created_at?: string
  updated_at?: string
  last_login?: string | null
  suspended_at?: string | null
  delinquent_at?: string | null
  [field: string]: unknown
}

/**
 * Sign in with Heroku (OAuth 2.0).
 *
 * Setup: register an API client under Account settings → Applications at
 * https://dashboard.heroku.com/account/applications with the OAuth callback URL
 * `<base>/callback/heroku`; set `AUTH_HEROKU_ID` and `AUTH_HEROKU_SECRET`.
 *
 * Quirks, handled for you: the token endpoint takes the client secret in the request body; the
 * Platform API answers only requests that name its version, so the account is fetched with
 * `Accept: application/vnd.heroku+json; version=3`. The `identity` scope is enough to read it.
 * Heroku documents no PKCE, so the flow is protected with `state`; its authorizations are revoked
 * through the Platform API rather than an RFC 7009 endpoint. Heroku accounts have no picture.
 *
 * Exported from `latchkey/providers/heroku` and `latchkey/providers`.
 * Docs: https://devcenter.heroku.com/articles/oauth
 *
 * @example
 * ```ts
 * import Heroku from "latchkey/providers/heroku"
 * const provider = Heroku({ authorization: { params: { scope: "identity read" } } })
 * ```
 */
export default function Heroku(options?: OAuthUserConfig<HerokuProfile>): OAuthConfig<HerokuProfile> {
  return oauthProvider(
    {
      id: "heroku",
      name: "Heroku",
      type: "oauth",
      authorization: { url: "https://id.heroku.com/oauth/authorize", params: { scope: "identity" } },
      token: "https://id.heroku.com/oauth/token",
      userinfo: {
        url: "https://api.heroku.com/account",
        request: ({ provider, fetchJson }) => fetchJson(provider.userinfo.url!, { headers: { accept: "application/vnd.heroku+json; version=3" } }),
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://devcenter.heroku.com/articles/oauth",
      style: { brandColor: "#430098" },
      profile: (profile) => ({ id: profile.id, name: profile.name || null, email: profile.email, image: null }),
    },
    options
  )
}
