import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a Google id_token (and of its userinfo response).
 *
 * @example
 * ```ts
 * import type { GoogleProfile } from "latchkey/providers/google"
 * // Sign-in restricted to one Workspace domain, which the `hd` claim names.
 * const isAcmeAccount = (profile: GoogleProfile) => profile.hd === "acme.dev" && profile.email_verified
 * ```
 */
export interface GoogleProfile {
  iss: string
  azp: string
  aud: string
  sub: string
  email: string
  email_verified: boolean
  at_hash?: string
  name: string
  picture: string
  given_name: string
  family_name?: string
  locale?: string
  /** The Google Workspace domain, for Workspace accounts. */
  hd?: string
  iat: number
  exp: number
  [claim: string]: unknown
}

/**
 * Sign in with Google (OpenID Connect).
 *
 * Setup: create an OAuth client ID of type "Web application" at
 * https://console.cloud.google.com/apis/credentials with the redirect URI
 * `<base>/callback/google`; set `AUTH_GOOGLE_ID` and `AUTH_GOOGLE_SECRET`.
 *
 * Google issues a refresh token only when asked: pass
 * `authorization: { params: { access_type: "offline", prompt: "consent" } }`. To restrict sign-in
 * to a Workspace domain, pass `hd` and also check the `hd` claim in the `signIn` callback.
 *
 * The profile is mapped by the standard claims (`sub`, `name`, `email`, `picture`).
 *
 * Exported from `latchkey/providers/google` and `latchkey/providers`.
 * Docs: https://developers.google.com/identity/openid-connect/openid-connect
 *
 * @example
 * ```ts
 * import Google from "latchkey/providers/google"
 * const provider = Google({ authorization: { params: { access_type: "offline", prompt: "consent" } } })
 * ```
 */
export default function Google(options?: OIDCUserConfig<GoogleProfile>): OIDCConfig<GoogleProfile> {
  return oidcProvider(
    {
      id: "google",
      name: "Google",
      type: "oidc",
      issuer: "https://accounts.google.com",
      authorization: { params: { scope: "openid email profile" } },
      capabilities: { refresh: true, revocation: "https://oauth2.googleapis.com/revoke" },
      docs: "https://developers.google.com/identity/openid-connect/openid-connect",
      style: { brandColor: "#4285F4", mark: () => import("./marks/google.js") },
    },
    options
  )
}
