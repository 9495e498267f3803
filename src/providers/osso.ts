import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of Osso's `GET /oauth/me`: the normalized profile of the SAML user.
 *
 * @example
 * ```ts
 * import Osso, { type OssoProfile } from "latchkey/providers/osso"
 * const provider = Osso({
 *   profile: (profile: OssoProfile) => ({ id: profile.id, name: profile.email.split("@")[0], email: profile.email }),
 * })
 * ```
 */
export interface OssoProfile {
  id: string
  email: string
  /** The name of the identity provider the user signed in with. */
  idp: string
  [field: string]: unknown
}

/**
 * SAML SSO through Osso, which runs the SAML side and hands your app an OAuth 2.0 code flow, on
 * your own Osso deployment.
 *
 * Setup: in the Osso admin UI, create an OAuth client with the redirect URI `<base>/callback/osso`
 * and configure each customer's enterprise account; set `AUTH_OSSO_ID`, `AUTH_OSSO_SECRET` and
 * `AUTH_OSSO_ISSUER` (or pass `baseUrl`), the Osso instance, such as `https://osso.acme.dev`. Osso
 * routes the user to their identity provider by the `domain` or `email` authorization parameter,
 * so pass one at sign-in.
 *
 * Quirks, handled for you: `/oauth/me` takes the access token as the `access_token` query
 * parameter, not as a Bearer header; Osso ignores PKCE, so the flow is protected by state instead.
 * Access tokens are short-lived and there is no refresh token.
 *
 * Exported from `latchkey/providers/osso` and `latchkey/providers`.
 * Docs: https://github.com/enterprise-oss/osso
 *
 * @example
 * ```ts
 * import Osso from "latchkey/providers/osso"
 * const provider = Osso({ baseUrl: "https://osso.acme.dev", authorization: { params: { domain: "customer.com" } } })
 * ```
 */
export default function Osso(options?: OAuthUserConfig<OssoProfile>): OAuthConfig<OssoProfile> {
  return oauthProvider(
    {
      id: "osso",
      name: "SAML SSO",
      type: "oauth",
      authorization: "{baseUrl}/oauth/authorize",
      token: "{baseUrl}/oauth/token",
      userinfo: {
        url: "{baseUrl}/oauth/me",
        request({ tokens, provider, fetchJson }) {
          const url = new URL(provider.userinfo.url!)
          url.searchParams.set("access_token", tokens.access_token!)
          return fetchJson(url.href)
        },
      },
      checks: ["state"],
      capabilities: { refresh: false, revocation: false },
      docs: "https://github.com/enterprise-oss/osso",
      style: { brandColor: "#000000" },
      profile: (profile) => ({ id: profile.id, name: null, email: profile.email ?? null, image: null }),
    },
    options
  )
}
