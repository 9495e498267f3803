import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims Polar puts in id_tokens (and its userinfo response) for a user subject.
 *
 * @example
 * ```ts
 * import Polar, { type PolarProfile } from "latchkey/providers/polar"
 * const provider = Polar({
 *   profile: (profile: PolarProfile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email_verified ? profile.email : null }),
 * })
 * ```
 */
export interface PolarProfile {
  /** The Polar user id. */
  sub: string
  /** The Polar username. */
  name?: string
  /** With the `email` scope. */
  email?: string
  email_verified?: boolean
  [claim: string]: unknown
}

/**
 * Sign in with Polar (polar.sh, OpenID Connect).
 *
 * Setup: create an OAuth 2.0 client in your Polar account settings (https://polar.sh/settings)
 * with the redirect URI `<base>/callback/polar` and the `openid`, `profile` and `email` scopes;
 * set `AUTH_POLAR_ID` and `AUTH_POLAR_SECRET`.
 *
 * Quirk, handled for you: the issuer is `https://polar.sh`, but the discovery document is served
 * by the API host, `https://api.polar.sh/.well-known/openid-configuration`, so `wellKnown` points
 * there. Polar has no profile pictures, so `image` is always `null`.
 *
 * The profile is mapped by the standard claims (`sub`, `name`, `email`, `picture`).
 *
 * Exported from `latchkey/providers/polar` and `latchkey/providers`.
 * Docs: https://polar.sh/docs/integrate/oauth2/introduction
 *
 * @example
 * ```ts
 * import Polar from "latchkey/providers/polar"
 * const provider = Polar({ authorization: { params: { scope: "openid profile email orders:read" } } })
 * ```
 */
export default function Polar(options?: OIDCUserConfig<PolarProfile>): OIDCConfig<PolarProfile> {
  return oidcProvider(
    {
      id: "polar",
      name: "Polar",
      type: "oidc",
      issuer: "https://polar.sh",
      wellKnown: "https://api.polar.sh/.well-known/openid-configuration",
      authorization: { params: { scope: "openid profile email" } },
      capabilities: { refresh: true, revocation: true },
      docs: "https://polar.sh/docs/integrate/oauth2/introduction",
      style: { brandColor: "#0062FF" },
    },
    options
  )
}
