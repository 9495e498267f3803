import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a United Effects Core EOS id_token. By design it carries no name or picture:
 * personal data is shared through Core's separate, consented profile access requests.
 *
 * @example
 * ```ts
 * import UnitedEffects, { type UnitedEffectsProfile } from "latchkey/providers/united-effects"
 * const provider = UnitedEffects({
 *   profile: (profile: UnitedEffectsProfile) => ({ id: profile.sub, name: profile.email ?? null, email: profile.email_verified ? profile.email : null }),
 * })
 * ```
 */
export interface UnitedEffectsProfile {
  iss: string
  aud: string
  /** The user's account id within the Auth Group. */
  sub: string
  email?: string
  email_verified?: boolean
  [claim: string]: unknown
}

/**
 * Sign in with United Effects Core EOS (OpenID Connect), for one Auth Group (platform).
 *
 * Setup: in Core, open your Auth Group's settings, create an OIDC client with the redirect URI
 * `<base>/callback/united-effects` and the authorization code grant; set
 * `AUTH_UNITED_EFFECTS_ID`, `AUTH_UNITED_EFFECTS_SECRET` and `AUTH_UNITED_EFFECTS_ISSUER`, the
 * Auth Group's issuer (`https://auth.unitedeffects.com/<auth-group-id>`). A trailing slash is
 * trimmed, so it never breaks discovery.
 *
 * Core returns no name or picture, so only the id and email are mapped; the profile is the
 * standard claims (`sub`, `email`).
 *
 * Exported from `latchkey/providers/united-effects` and `latchkey/providers`.
 * Docs: https://unitedeffects.com/features
 *
 * @example
 * ```ts
 * import UnitedEffects from "latchkey/providers/united-effects"
 * const provider = UnitedEffects({ issuer: "https://auth.unitedeffects.com/YQpbQV5dbW-224dCovz-3" })
 * ```
 */
export default function UnitedEffects(options?: OIDCUserConfig<UnitedEffectsProfile>): OIDCConfig<UnitedEffectsProfile> {
  return oidcProvider(
    {
      id: "united-effects",
      name: "United Effects",
      type: "oidc",
      authorization: { params: { scope: "openid email" } },
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: true },
      docs: "https://unitedeffects.com/features",
      style: { brandColor: "#000000" },
    },
    options
  )
}
