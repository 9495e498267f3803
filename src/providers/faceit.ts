import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims FACEIT Connect puts in id_tokens for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import FACEIT, { type FACEITProfile } from "latchkey/providers/faceit"
 * const provider = FACEIT({
 *   profile: (profile: FACEITProfile) => ({ id: profile.guid, name: profile.nickname, email: profile.email ?? null, image: profile.picture ?? null }),
 * })
 * ```
 */
export interface FACEITProfile {
  sub?: string
  /** The FACEIT player id (a UUID). */
  guid: string
  nickname: string
  picture?: string
  email?: string
  given_name?: string
  family_name?: string
  birthdate?: string
  locale?: string
  /** With the `membership` scope. */
  membership?: string
  memberships?: string[]
  [claim: string]: unknown
}

/**
 * Sign in with FACEIT (FACEIT Connect, OpenID Connect).
 *
 * Setup: in the FACEIT Developer Portal (https://developers.faceit.com), open App Studio and
 * create an OAuth2 client with the redirect URL `<base>/callback/faceit`; set `AUTH_FACEIT_ID`
 * and `AUTH_FACEIT_SECRET`.
 *
 * Quirk, handled for you: FACEIT publishes its discovery document at
 * `https://api.faceit.com/auth/v1/openid_configuration` rather than under `/.well-known/`, so it is
 * named explicitly. The id is the player's `guid` (a UUID), the name their nickname.
 *
 * Exported from `latchkey/providers/faceit` and `latchkey/providers`.
 * Docs: https://docs.faceit.com/getting-started/authentication/oauth2
 *
 * @example
 * ```ts
 * import FACEIT from "latchkey/providers/faceit"
 * const provider = FACEIT({ authorization: { params: { scope: "openid profile email membership" } } })
 * ```
 */
export default function FACEIT(options?: OIDCUserConfig<FACEITProfile>): OIDCConfig<FACEITProfile> {
  return oidcProvider(
    {
      id: "faceit",
      name: "FACEIT",
      type: "oidc",
      issuer: "https://api.faceit.com/auth",
      wellKnown: "https://api.faceit.com/auth/v1/openid_configuration",
      authorization: { params: { scope: "openid profile email" } },
      capabilities: { refresh: true, revocation: false },
      docs: "https://docs.faceit.com/getting-started/authentication/oauth2",
      style: { brandColor: "#FF5500", mark: () => import("./logos/faceit.js") },
      profile: (profile) => ({
        id: profile.guid ?? profile.sub,
        name: profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
    },
    options
  )
}
