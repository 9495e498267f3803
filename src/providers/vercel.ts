import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a "Sign in with Vercel" id_token.
 *
 * @example
 * ```ts
 * import Vercel, { type VercelProfile } from "latchkey/providers/vercel"
 * const provider = Vercel({
 *   profile: (profile: VercelProfile) => ({ id: profile.sub, name: profile.preferred_username ?? profile.name ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
 * })
 * ```
 */
export interface VercelProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  nbf?: number
  jti?: string
  nonce?: string
  /** With the `profile` scope. */
  name?: string
  /** The Vercel username; with the `profile` scope. */
  preferred_username?: string
  picture?: string
  /** With the `email` scope. */
  email?: string
  [claim: string]: unknown
}

/**
 * Sign in with Vercel (OpenID Connect, PKCE required).
 *
 * Setup: create an app from your Vercel team dashboard (see "Manage from dashboard" in the docs)
 * with the callback URL `<base>/callback/vercel` and the `openid`, `email` and `profile` scopes,
 * and generate a client secret; set `AUTH_VERCEL_ID` and `AUTH_VERCEL_SECRET`.
 *
 * Metadata comes from Vercel's published RFC 8414 document
 * (`https://vercel.com/.well-known/oauth-authorization-server`), which names the id_token issuer,
 * keys, endpoints and revocation endpoint. A refresh token (valid 30 days, rotating) is issued
 * with the `offline_access` scope: `authorization: { params: { scope: "openid email profile offline_access" } }`.
 *
 * The profile is mapped by the standard claims (`sub`, `name`, `email`, `picture`).
 *
 * Exported from `latchkey/providers/vercel` and `latchkey/providers`.
 * Docs: https://vercel.com/docs/sign-in-with-vercel
 *
 * @example
 * ```ts
 * import Vercel from "latchkey/providers/vercel"
 * const provider = Vercel() // AUTH_VERCEL_ID / AUTH_VERCEL_SECRET
 * ```
 */
export default function Vercel(options?: OIDCUserConfig<VercelProfile>): OIDCConfig<VercelProfile> {
  return oidcProvider(
    {
      id: "vercel",
      name: "Vercel",
      type: "oidc",
      issuer: "https://vercel.com",
      wellKnown: "https://vercel.com/.well-known/oauth-authorization-server",
      authorization: { params: { scope: "openid email profile" } },
      capabilities: { refresh: true, revocation: true },
      docs: "https://vercel.com/docs/sign-in-with-vercel",
      style: { brandColor: "#000000", mark: () => import("./logos/vercel.js") },
    },
    options
  )
}
