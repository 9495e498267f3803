import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a Yahoo id_token for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import Yahoo, { type YahooProfile } from "latchkey/providers/yahoo"
 * const provider = Yahoo({
 *   profile: (profile: YahooProfile) => ({ id: profile.sub, name: profile.nickname ?? profile.name ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
 * })
 * ```
 */
export interface YahooProfile {
  iss: string
  aud: string
  exp: number
  iat: number
  auth_time?: number
  nonce?: string
  at_hash?: string
  /** The user's GUID. */
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  nickname?: string
  locale?: string
  picture?: string
  profile_images?: Record<string, string>
  email?: string
  email_verified?: boolean
  birthdate?: string
  gender?: string
  [claim: string]: unknown
}

/**
 * Sign in with Yahoo (OpenID Connect).
 *
 * Setup: create an app at https://developer.yahoo.com/apps/create/ with the redirect URI
 * `<base>/callback/yahoo` and the OpenID Connect permissions "Email" and "Profile"; set
 * `AUTH_YAHOO_ID` and `AUTH_YAHOO_SECRET`.
 *
 * A `nonce` is sent along with PKCE, so the id_token is bound to this sign-in even where PKCE is
 * not enforced. Yahoo has no revocation endpoint.
 *
 * The profile is mapped by the standard claims (`sub`, `name`, `email`, `picture`).
 *
 * Exported from `latchkey/providers/yahoo` and `latchkey/providers`.
 * Docs: https://developer.yahoo.com/oauth2/guide/openid_connect/getting_started.html
 *
 * @example
 * ```ts
 * import Yahoo from "latchkey/providers/yahoo"
 * const provider = Yahoo() // AUTH_YAHOO_ID / AUTH_YAHOO_SECRET
 * ```
 */
export default function Yahoo(options?: OIDCUserConfig<YahooProfile>): OIDCConfig<YahooProfile> {
  return oidcProvider(
    {
      id: "yahoo",
      name: "Yahoo",
      type: "oidc",
      issuer: "https://api.login.yahoo.com",
      authorization: { params: { scope: "openid profile email" } },
      checks: ["pkce", "nonce"],
      capabilities: { refresh: true, revocation: false },
      docs: "https://developer.yahoo.com/oauth2/guide/openid_connect/getting_started.html",
      style: { brandColor: "#6001D2" },
    },
    options
  )
}
