import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The response of Roblox's userinfo endpoint with the `openid profile` scopes.
 *
 * @example
 * ```ts
 * import Roblox, { type RobloxProfile } from "latchkey/providers/roblox"
 * const provider = Roblox({
 *   profile: (profile: RobloxProfile) => ({ id: profile.sub, name: profile.preferred_username ?? profile.name ?? null, image: profile.picture ?? null }),
 * })
 * ```
 */
export interface RobloxProfile {
  /** The Roblox user id. */
  sub: string
  /** The display name. */
  name?: string
  /** The display name. */
  nickname?: string
  /** The username. */
  preferred_username?: string
  /** Account creation, as a Unix timestamp. */
  created_at?: number
  /** The profile page URL. */
  profile?: string
  /** The avatar headshot; `null` until generated, or when moderated. */
  picture?: string | null
  [claim: string]: unknown
}

/**
 * Sign in with Roblox (OpenID Connect, Open Cloud OAuth 2.0).
 *
 * Setup: create an OAuth 2.0 app at https://create.roblox.com/dashboard/credentials with the
 * `openid` and `profile` scopes and the redirect URL `<base>/callback/roblox`; set
 * `AUTH_ROBLOX_ID` and `AUTH_ROBLOX_SECRET`.
 *
 * Quirks, handled for you: Roblox's issuer is `https://apis.roblox.com/oauth/`, with the trailing
 * slash its discovery document names. The avatar (`picture`) is served by the userinfo endpoint,
 * so the profile is read there (its `sub` is checked against the id_token's). Roblox offers no
 * email address to third-party apps, so `email` is `null`; usernames and display names can change,
 * so the account is keyed to `sub`.
 *
 * The profile is mapped by the standard claims (`sub`, `name`, `email`, `picture`).
 *
 * Exported from `latchkey/providers/roblox` and `latchkey/providers`.
 * Docs: https://create.roblox.com/docs/cloud/auth/oauth2-reference
 *
 * @example
 * ```ts
 * import Roblox from "latchkey/providers/roblox"
 * const provider = Roblox({ authorization: { params: { scope: "openid profile universe-messaging-service:publish" } } })
 * ```
 */
export default function Roblox(options?: OIDCUserConfig<RobloxProfile>): OIDCConfig<RobloxProfile> {
  return oidcProvider(
    {
      id: "roblox",
      name: "Roblox",
      type: "oidc",
      issuer: "https://apis.roblox.com/oauth/",
      authorization: { params: { scope: "openid profile" } },
      idToken: false,
      capabilities: { refresh: true, revocation: true },
      docs: "https://create.roblox.com/docs/cloud/auth/oauth2-reference",
      style: { brandColor: "#000000", mark: () => import("./logos/roblox.js") },
    },
    options
  )
}
