import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a Descope id_token for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import Descope, { type DescopeProfile } from "latchkey/providers/descope"
 * const provider = Descope({
 *   profile: (profile: DescopeProfile) => ({ id: profile.sub, name: profile.given_name ?? profile.name ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
 * })
 * ```
 */
export interface DescopeProfile {
  iss: string
  aud: string | string[]
  /** The user's Descope user id. */
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
  [claim: string]: unknown
}

/**
 * Sign in with Descope (OpenID Connect), with Descope as the identity provider of a federated
 * OIDC application.
 *
 * Setup: in the Descope console, open your OIDC application under "Applications" (every project
 * has a default one) and add `<base>/callback/descope` to its allowed redirect URLs; set
 * `AUTH_DESCOPE_ID`, `AUTH_DESCOPE_SECRET` and `AUTH_DESCOPE_ISSUER`, the application's "Issuer
 * URL" (`https://api.descope.com/<project-id>`, or your custom domain). A trailing slash is
 * trimmed, so it never breaks discovery.
 *
 * The profile is mapped by the standard claims (`sub`, `name`, `email`, `picture`).
 *
 * Exported from `latchkey/providers/descope` and `latchkey/providers`.
 * Docs: https://docs.descope.com/manage/idpapplications/oidc
 *
 * @example
 * ```ts
 * import Descope from "latchkey/providers/descope"
 * const provider = Descope({ issuer: "https://api.descope.com/P2abcDEF1234567890" })
 * ```
 */
export default function Descope(options?: OIDCUserConfig<DescopeProfile>): OIDCConfig<DescopeProfile> {
  return oidcProvider(
    {
      id: "descope",
      name: "Descope",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: true },
      docs: "https://docs.descope.com/manage/idpapplications/oidc",
      style: { brandColor: "#0082B5" },
    },
    options
  )
}
