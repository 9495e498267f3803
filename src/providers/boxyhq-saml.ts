import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of SAML Jackson's `GET /api/oauth/userinfo`.
 *
 * @example
 * ```ts
 * import type { BoxyHQSAMLProfile } from "latchkey/providers/boxyhq-saml"
 * const isAdmin = (profile: BoxyHQSAMLProfile) => profile.roles?.includes("admin") ?? false
 * ```
 */
export interface BoxyHQSAMLProfile {
  /** The user's id at the identity provider (the SAML NameID). */
  id: string
  email: string
  firstName?: string
  lastName?: string
  roles?: string[]
  groups?: string[]
  /** Every attribute of the SAML assertion (or OIDC claim), untouched. */
  raw?: Record<string, unknown>
  /** The tenant, product and client the sign-in was for. */
  requested?: Record<string, unknown>
  [field: string]: unknown
}

/**
 * Enterprise SSO through BoxyHQ SAML Jackson, which turns your customers' SAML and OIDC identity
 * providers into one OAuth 2.0 flow against your own Jackson deployment.
 *
 * Setup: add an SSO connection per customer in Jackson, with `<base>/callback/boxyhq-saml` among
 * its redirect URLs; set `AUTH_BOXYHQ_SAML_ISSUER` (or pass `baseUrl`) to the Jackson instance,
 * such as `https://jackson.acme.dev`. Then either set `AUTH_BOXYHQ_SAML_ID` and
 * `AUTH_BOXYHQ_SAML_SECRET` to one connection's client id and secret, or use the client id
 * `dummy` with any secret and name the customer at sign-in with the `tenant` and `product`
 * authorization parameters.
 *
 * Quirks: Jackson rejects an authorization request without `state`, so state is sent along with
 * PKCE; the client credentials go in the token request body. Jackson issues no refresh token.
 *
 * Exported from `latchkey/providers/boxyhq-saml` and `latchkey/providers`.
 * Docs: https://boxyhq.com/docs/jackson/sso-flow
 *
 * @example
 * ```ts
 * import BoxyHQSAML from "latchkey/providers/boxyhq-saml"
 * const provider = BoxyHQSAML({ baseUrl: "https://jackson.acme.dev", clientId: "dummy", clientSecret: "dummy" })
 * ```
 */
export default function BoxyHQSAML(options?: OAuthUserConfig<BoxyHQSAMLProfile>): OAuthConfig<BoxyHQSAMLProfile> {
  return oauthProvider(
    {
      id: "boxyhq-saml",
      name: "SAML SSO",
      type: "oauth",
      authorization: "{baseUrl}/api/oauth/authorize",
      token: "{baseUrl}/api/oauth/token",
      userinfo: "{baseUrl}/api/oauth/userinfo",
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://boxyhq.com/docs/jackson/sso-flow",
      style: { brandColor: "#25C2A0" },
      profile: (profile) => ({
        id: profile.id,
        name: [profile.firstName, profile.lastName].filter(Boolean).join(" ") || null,
        email: profile.email ?? null,
        image: null,
      }),
    },
    options
  )
}
