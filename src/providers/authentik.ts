import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"
import { standardClaimsOrUsername } from "./core/defaults.js"

/**
 * The claims authentik puts in id_tokens for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import type { AuthentikProfile } from "latchkey/providers/authentik"
 * const isAdmin = (profile: AuthentikProfile) => profile.groups?.includes("authentik Admins") ?? false
 * ```
 */
export interface AuthentikProfile {
  iss: string
  sub: string
  aud: string
  email?: string
  email_verified?: boolean
  name?: string
  given_name?: string
  preferred_username?: string
  nickname?: string
  /** The names of the user's groups (the default `profile` scope mapping). */
  groups?: string[]
  picture?: string
  [claim: string]: unknown
}

/**
 * Sign in with authentik (OpenID Connect), on your own server.
 *
 * Setup: in the authentik admin interface, create an OAuth2/OpenID Provider (client type
 * "Confidential") with the strict redirect URI `<base>/callback/authentik`, and an application
 * that uses it; set `AUTH_AUTHENTIK_ID`, `AUTH_AUTHENTIK_SECRET` and `AUTH_AUTHENTIK_ISSUER`, the
 * provider's "OpenID Configuration Issuer" (`https://<host>/application/o/<application-slug>/`).
 *
 * Quirk: with the default per-provider issuer mode, the issuer ends with a slash, and the
 * id_token's `iss` carries it too. It is therefore used exactly as given, never trimmed: copy it
 * with its trailing slash. A refresh token is issued only with the `offline_access` scope.
 *
 * Exported from `latchkey/providers/authentik` and `latchkey/providers`.
 * Docs: https://docs.goauthentik.io/docs/add-secure-apps/providers/oauth2/
 *
 * @example
 * ```ts
 * import Authentik from "latchkey/providers/authentik"
 * const provider = Authentik({ issuer: "https://auth.acme.dev/application/o/intranet/" })
 * ```
 */
export default function Authentik(options?: OIDCUserConfig<AuthentikProfile>): OIDCConfig<AuthentikProfile> {
  return oidcProvider(
    {
      id: "authentik",
      name: "authentik",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      capabilities: { refresh: true, revocation: true },
      docs: "https://docs.goauthentik.io/docs/add-secure-apps/providers/oauth2/",
      style: { brandColor: "#FD4B2D", mark: () => import("./logos/authentik.js") },
      profile: standardClaimsOrUsername,
    },
    options
  )
}
