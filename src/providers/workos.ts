import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * A WorkOS SSO Profile: the user as the connection's identity provider describes them.
 *
 * @example
 * ```ts
 * import WorkOS, { type WorkOSProfile } from "latchkey/providers/workos"
 * const provider = WorkOS({
 *   profile: (profile: WorkOSProfile) => ({ id: profile.id, name: [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null, email: profile.email }),
 * })
 * ```
 */
export interface WorkOSProfile {
  object: "profile"
  /** The WorkOS profile id, stable for the user within the connection. */
  id: string
  /** The user's id at the identity provider. */
  idp_id: string
  organization_id: string | null
  connection_id: string
  /** Such as `OktaSAML`, `GoogleOAuth`, `MicrosoftOAuth`. */
  connection_type: string
  email: string
  first_name: string | null
  last_name: string | null
  role?: { slug: string }
  roles?: { slug: string }[]
  groups?: string[]
  custom_attributes?: Record<string, unknown>
  raw_attributes?: Record<string, unknown>
  [field: string]: unknown
}

/**
 * Enterprise SSO through WorkOS (OAuth 2.0), for SAML, OIDC and OAuth connections alike.
 *
 * Setup: in the WorkOS dashboard, add `<base>/callback/workos` as a redirect URI; set
 * `AUTH_WORKOS_ID` to the client id and `AUTH_WORKOS_SECRET` to the API key. WorkOS needs to know
 * which connection to use: pass one of the `connection`, `organization` or `provider` (such as
 * `GoogleOAuth`) authorization parameters, at sign-in or in `authorization.params`.
 *
 * Quirks, handled for you: the profile comes in the token response (`profile`), so no userinfo
 * request is made unless it is missing, when `GET /sso/profile` is asked; the client credentials
 * go in the token request body; the flow is protected by state. The access token is short-lived
 * and there is no refresh token.
 *
 * Exported from `latchkey/providers/workos` and `latchkey/providers`.
 * Docs: https://workos.com/docs/reference/sso
 *
 * @example
 * ```ts
 * import WorkOS from "latchkey/providers/workos"
 * const provider = WorkOS({ authorization: { params: { organization: "org_01EHZNVPK3SFK441A1RGBFSHRT" } } })
 * ```
 */
export default function WorkOS(options?: OAuthUserConfig<WorkOSProfile>): OAuthConfig<WorkOSProfile> {
  return oauthProvider(
    {
      id: "workos",
      name: "WorkOS",
      type: "oauth",
      authorization: "https://api.workos.com/sso/authorize",
      token: "https://api.workos.com/sso/token",
      userinfo: {
        url: "https://api.workos.com/sso/profile",
        request: ({ tokens, provider, fetchJson }) => (tokens.profile as WorkOSProfile | undefined) ?? fetchJson(provider.userinfo.url!),
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://workos.com/docs/reference/sso",
      style: { brandColor: "#6363F1" },
      profile: (profile) => ({
        id: profile.id,
        name: [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null,
        email: profile.email ?? null,
        image: null,
      }),
    },
    options
  )
}
