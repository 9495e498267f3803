import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a Logto id_token for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import Logto, { type LogtoProfile } from "latchkey/providers/logto"
 * const provider = Logto({
 *   profile: (profile: LogtoProfile) => ({ id: profile.sub, name: profile.username ?? profile.name ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
 * })
 * ```
 */
export interface LogtoProfile {
  iss: string
  aud: string
  /** The user's Logto id. */
  sub: string
  name?: string | null
  username?: string | null
  picture?: string | null
  email?: string | null
  email_verified?: boolean
  updated_at?: number
  created_at?: number
  [claim: string]: unknown
}

/**
 * Sign in with Logto (OpenID Connect), on Logto Cloud or your own instance.
 *
 * Setup: in the Logto Console, create a "Traditional web" application with the redirect URI
 * `<base>/callback/logto`; set `AUTH_LOGTO_ID` (the App ID), `AUTH_LOGTO_SECRET` (the App Secret)
 * and `AUTH_LOGTO_ISSUER`, the application's issuer endpoint (`https://<tenant>.logto.app/oidc`).
 * A trailing slash is trimmed, so it never breaks discovery.
 *
 * `offline_access` is requested along with the profile scopes, as Logto documents, so a refresh
 * token is issued. Logto sends `null` for profile claims the user has not filled; the name falls
 * back to the username.
 *
 * Exported from `latchkey/providers/logto` and `latchkey/providers`.
 * Docs: https://docs.logto.io/quick-starts/next-auth
 *
 * @example
 * ```ts
 * import Logto from "latchkey/providers/logto"
 * const provider = Logto({ issuer: "https://acme.logto.app/oidc" })
 * ```
 */
export default function Logto(options?: OIDCUserConfig<LogtoProfile>): OIDCConfig<LogtoProfile> {
  return oidcProvider(
    {
      id: "logto",
      name: "Logto",
      type: "oidc",
      authorization: { params: { scope: "openid offline_access profile email" } },
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: true },
      docs: "https://docs.logto.io/quick-starts/next-auth",
      style: { brandColor: "#5D34F2" },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name || profile.username || null,
        email: profile.email || null,
        image: profile.picture || null,
      }),
    },
    options
  )
}
