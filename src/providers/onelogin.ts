import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"
import { standardClaimsOrUsernameNoImage } from "./core/defaults.js"

/**
 * The claims of a OneLogin id_token for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import type { OneLoginProfile } from "latchkey/providers/onelogin"
 * const inGroup = (profile: OneLoginProfile, group: string) => profile.groups?.includes(group) ?? false // `groups` scope
 * ```
 */
export interface OneLoginProfile {
  iss: string
  aud: string
  /** The user's OneLogin id. */
  sub: string
  email?: string
  preferred_username?: string
  name?: string
  given_name?: string
  family_name?: string
  updated_at?: number
  /** Present with the `groups` scope. */
  groups?: string[]
  /** Custom parameters, present with the `params` scope. */
  params?: Record<string, unknown>
  [claim: string]: unknown
}

/**
 * Sign in with OneLogin (OpenID Connect).
 *
 * Setup: in the OneLogin admin portal, add the "OpenId Connect (OIDC)" app with the redirect URI
 * `<base>/callback/onelogin` and the "Authorization Code" application type, and give users
 * access to it; set `AUTH_ONELOGIN_ID`, `AUTH_ONELOGIN_SECRET` and `AUTH_ONELOGIN_ISSUER`
 * (`https://<subdomain>.onelogin.com/oidc/2`). A trailing slash is trimmed, so it never breaks
 * discovery.
 *
 * Exported from `latchkey/providers/onelogin` and `latchkey/providers`.
 * Docs: https://developers.onelogin.com/openid-connect
 *
 * @example
 * ```ts
 * import OneLogin from "latchkey/providers/onelogin"
 * const provider = OneLogin({ issuer: "https://acme.onelogin.com/oidc/2" })
 * ```
 */
export default function OneLogin(options?: OIDCUserConfig<OneLoginProfile>): OIDCConfig<OneLoginProfile> {
  return oidcProvider(
    {
      id: "onelogin",
      name: "OneLogin",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: true },
      docs: "https://developers.onelogin.com/openid-connect",
      style: { brandColor: "#1C1F2A" },
      profile: standardClaimsOrUsernameNoImage,
    },
    options
  )
}
