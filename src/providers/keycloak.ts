import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"
import { standardClaimsOrUsername } from "./core/defaults.js"

/**
 * The claims Keycloak puts in id_tokens for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import Keycloak, { type KeycloakProfile } from "latchkey/providers/keycloak"
 * const provider = Keycloak({
 *   profile: (profile: KeycloakProfile) => ({ id: profile.sub, name: profile.preferred_username ?? null, email: profile.email_verified ? profile.email : null }),
 * })
 * ```
 */
export interface KeycloakProfile {
  sub: string
  preferred_username?: string
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/**
 * Sign in with Keycloak (OpenID Connect), on your own server.
 *
 * Setup: in the realm, create an OpenID Connect client with "Client authentication" on and the
 * valid redirect URI `<base>/callback/keycloak`; set `AUTH_KEYCLOAK_ID`, `AUTH_KEYCLOAK_SECRET` and
 * `AUTH_KEYCLOAK_ISSUER` (`https://<host>/realms/<realm>`). A trailing slash in the issuer is
 * trimmed, so it never breaks discovery.
 *
 * Exported from `latchkey/providers/keycloak` and `latchkey/providers`.
 * Docs: https://www.keycloak.org/securing-apps/oidc-layers
 *
 * @example
 * ```ts
 * import Keycloak from "latchkey/providers/keycloak"
 * const provider = Keycloak({ issuer: "https://sso.acme.dev/realms/staff" })
 * ```
 */
export default function Keycloak(options?: OIDCUserConfig<KeycloakProfile>): OIDCConfig<KeycloakProfile> {
  return oidcProvider(
    {
      id: "keycloak",
      name: "Keycloak",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: true },
      docs: "https://www.keycloak.org/securing-apps/oidc-layers",
      style: { brandColor: "#4D4D4D", mark: () => import("./logos/keycloak.js") },
      profile: standardClaimsOrUsername,
    },
    options
  )
}
