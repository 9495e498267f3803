import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of an Ory Hydra id_token. Beyond the protocol claims, they are whatever your login
 * and consent app (or Ory Identities, on the Ory Network) grants for the requested scopes.
 *
 * @example
 * ```ts
 * import OryHydra, { type OryHydraProfile } from "latchkey/providers/ory-hydra"
 * const provider = OryHydra({
 *   profile: (profile: OryHydraProfile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email_verified ? profile.email : null }),
 * })
 * ```
 */
export interface OryHydraProfile {
  iss: string
  aud: string[]
  sub: string
  sid?: string
  name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/**
 * Sign in with Ory Hydra, Ory's OAuth 2.0 and OpenID Connect server (self-hosted, or Ory OAuth2 on
 * the Ory Network). The id is `hydra`.
 *
 * Setup: create an OAuth2 client with the `authorization_code` (and `refresh_token`) grant, the
 * `code` response type, the `openid profile email` scopes, and the redirect URI
 * `<base>/callback/hydra`; set `AUTH_HYDRA_ID`, `AUTH_HYDRA_SECRET` and `AUTH_HYDRA_ISSUER`, the
 * issuer exactly as the discovery document names it: `urls.self.issuer` when self-hosted, or
 * `https://<project-slug>.projects.oryapis.com` on the Ory Network.
 *
 * Quirk: Hydra uses the configured issuer verbatim (Hydra 1.x always added a trailing slash), so
 * it is not trimmed here; copy it as the discovery document shows it. A refresh token needs the
 * `offline_access` scope.
 *
 * The profile is mapped by the standard claims (`sub`, `name`, `email`, `picture`).
 *
 * Exported from `latchkey/providers/ory-hydra` and `latchkey/providers`.
 * Docs: https://www.ory.sh/docs/oauth2-oidc/authorization-code-flow
 *
 * @example
 * ```ts
 * import OryHydra from "latchkey/providers/ory-hydra"
 * const provider = OryHydra({ issuer: "https://auth.acme.dev" })
 * ```
 */
export default function OryHydra(options?: OIDCUserConfig<OryHydraProfile>): OIDCConfig<OryHydraProfile> {
  return oidcProvider(
    {
      id: "hydra",
      name: "Ory Hydra",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      capabilities: { refresh: true, revocation: true },
      docs: "https://www.ory.sh/docs/oauth2-oidc/authorization-code-flow",
      style: { brandColor: "#4F46E5", mark: () => import("./logos/hydra.js") },
    },
    options
  )
}
