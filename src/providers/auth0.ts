import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The standard claims Auth0 returns for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import Auth0, { type Auth0Profile } from "latchkey/providers/auth0"
 * const provider = Auth0({
 *   profile: (profile: Auth0Profile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email_verified ? profile.email : null }),
 * })
 * ```
 */
export interface Auth0Profile {
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  nickname?: string
  picture?: string
  email?: string
  email_verified?: boolean
  locale?: string
  updated_at?: string
  org_id?: string
  [claim: string]: unknown
}

/**
 * Sign in with Auth0 (OpenID Connect).
 *
 * Setup: create a "Regular Web Application" in the Auth0 dashboard with the allowed callback URL
 * `<base>/callback/auth0`; set `AUTH_AUTH0_ID`, `AUTH_AUTH0_SECRET` and `AUTH_AUTH0_ISSUER` (your
 * tenant's domain as a URL, such as `https://acme.us.auth0.com/`, trailing slash included: it is
 * part of Auth0's issuer). Add the `offline_access` scope for refresh tokens.
 *
 * Exported from `latchkey/providers/auth0` and `latchkey/providers`.
 * Docs: https://auth0.com/docs/authenticate/login/oidc-conformant-authentication
 *
 * @example
 * ```ts
 * import Auth0 from "latchkey/providers/auth0"
 * const provider = Auth0({ issuer: "https://acme.us.auth0.com/" })
 * ```
 */
export default function Auth0(options?: OIDCUserConfig<Auth0Profile>): OIDCConfig<Auth0Profile> {
  return oidcProvider(
    {
      id: "auth0",
      name: "Auth0",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      capabilities: { refresh: true, revocation: true },
      docs: "https://auth0.com/docs/authenticate/login/oidc-conformant-authentication",
      style: { brandColor: "#EB5424", mark: () => import("./logos/auth0.js") },
      profile: (profile) => ({ id: profile.sub, name: profile.name ?? profile.nickname ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
    },
    options
  )
}
