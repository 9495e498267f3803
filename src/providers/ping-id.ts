import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of PingOne's userinfo endpoint for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import PingId, { type PingIdProfile } from "latchkey/providers/ping-id"
 * const provider = PingId({
 *   profile: (profile: PingIdProfile) => ({ id: profile.sub, name: profile.preferred_username ?? profile.name ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
 * })
 * ```
 */
export interface PingIdProfile {
  /** The user's PingOne id. */
  sub: string
  name?: string
  given_name?: string
  middle_name?: string
  family_name?: string
  preferred_username?: string
  nickname?: string
  picture?: string
  email?: string
  email_verified?: boolean
  updated_at?: number
  /** The environment and organization ids. */
  env?: string
  org?: string
  [claim: string]: unknown
}

/**
 * Sign in with Ping Identity's PingOne (OpenID Connect).
 *
 * Setup: in the PingOne admin console, add an OIDC "Web App" application with the redirect URI
 * `<base>/callback/ping-id`, the "Authorization Code" grant and the `openid`, `profile` and
 * `email` scopes, and enable it; set `AUTH_PING_ID_ID`, `AUTH_PING_ID_SECRET` and
 * `AUTH_PING_ID_ISSUER`, the application's issuer (`https://auth.pingone.com/<environment-id>/as`,
 * or the `.eu`, `.ca` or `.asia` domain of your region). A trailing slash is trimmed, so it never
 * breaks discovery.
 *
 * Quirk, handled for you: unless the application includes user info in the id_token, PingOne
 * keeps the profile claims out of it, so the profile is fetched from the userinfo endpoint (its
 * `sub` is checked against the id_token's).
 *
 * Exported from `latchkey/providers/ping-id` and `latchkey/providers`.
 * Docs: https://developer.pingidentity.com/pingone-api/auth/openid-connect-oauth-2/userinfo-1.html
 *
 * @example
 * ```ts
 * import PingId from "latchkey/providers/ping-id"
 * const provider = PingId({ issuer: "https://auth.pingone.com/2f6a1c3e-7b9d-4e0f-8a1b-2c3d4e5f6a7b/as" })
 * ```
 */
export default function PingId(options?: OIDCUserConfig<PingIdProfile>): OIDCConfig<PingIdProfile> {
  return oidcProvider(
    {
      id: "ping-id",
      name: "Ping Identity",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      idToken: false,
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: true },
      docs: "https://developer.pingidentity.com/pingone-api/auth/openid-connect-oauth-2/userinfo-1.html",
      style: { brandColor: "#B3282D" },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? ([profile.given_name, profile.family_name].filter(Boolean).join(" ") || profile.preferred_username || null),
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
    },
    options
  )
}
