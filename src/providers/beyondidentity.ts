import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"
import { standardClaimsOrUsernameNoImage } from "./core/defaults.js"

/**
 * The claims of a Beyond Identity id_token.
 *
 * @example
 * ```ts
 * import BeyondIdentity, { type BeyondIdentityProfile } from "latchkey/providers/beyondidentity"
 * const provider = BeyondIdentity({
 *   profile: (profile: BeyondIdentityProfile) => ({ id: profile.sub, name: profile.preferred_username ?? profile.name ?? null, email: profile.email ?? null }),
 * })
 * ```
 */
export interface BeyondIdentityProfile {
  iss: string
  aud: string | string[]
  /** The identity, by the field the application's "Subject" setting names (id, email or username). */
  sub: string
  name?: string
  preferred_username?: string
  email?: string
  [claim: string]: unknown
}

/**
 * Sign in with Beyond Identity passkeys (OpenID Connect).
 *
 * Setup: in the Beyond Identity Admin Console, create an OIDC application in your realm (client
 * type "Confidential", grant type "Authorization Code", PKCE "S256") with the redirect URI
 * `<base>/callback/beyondidentity`; set `AUTH_BEYONDIDENTITY_ID`, `AUTH_BEYONDIDENTITY_SECRET`
 * and `AUTH_BEYONDIDENTITY_ISSUER`, the application's issuer
 * (`https://auth-<us|eu>.beyondidentity.com/v1/tenants/<tenant>/realms/<realm>/applications/<app>`).
 * A trailing slash is trimmed, so it never breaks discovery.
 *
 * Beyond Identity documents the `openid` scope with both PKCE and state, which is what is sent. A
 * refresh token is issued only when the application's "Enable Refresh Tokens" setting is on.
 *
 * Exported from `latchkey/providers/beyondidentity` and `latchkey/providers`.
 * Docs: https://developer.beyondidentity.com/docs/next-auth
 *
 * @example
 * ```ts
 * import BeyondIdentity from "latchkey/providers/beyondidentity"
 * const provider = BeyondIdentity() // AUTH_BEYONDIDENTITY_ID / _SECRET / _ISSUER
 * ```
 */
export default function BeyondIdentity(options?: OIDCUserConfig<BeyondIdentityProfile>): OIDCConfig<BeyondIdentityProfile> {
  return oidcProvider(
    {
      id: "beyondidentity",
      name: "Beyond Identity",
      type: "oidc",
      authorization: { params: { scope: "openid" } },
      checks: ["pkce", "state"],
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: true },
      docs: "https://developer.beyondidentity.com/docs/next-auth",
      style: { brandColor: "#5077C5" },
      profile: standardClaimsOrUsernameNoImage,
    },
    options
  )
}
