import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a "Sign in with SimpleLogin" id_token (and userinfo response). Which of `name`,
 * `email` and `avatar_url` appear is set per app in SimpleLogin, not by the requested scope.
 *
 * @example
 * ```ts
 * import SimpleLogin, { type SimpleLoginProfile } from "latchkey/providers/simplelogin"
 * const provider = SimpleLogin({
 *   profile: (profile: SimpleLoginProfile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email_verified ? profile.email : null, image: profile.avatar_url ?? null }),
 * })
 * ```
 */
export interface SimpleLoginProfile {
  iss: string
  aud: string
  /** The user's id for this app, as a string. */
  sub: string
  /** The same id, as a number. */
  id: number
  /** The app's name. */
  client: string
  /** The user's address, or the alias they chose to share with the app. */
  email?: string
  email_verified: boolean
  name?: string
  avatar_url?: string | null
  [claim: string]: unknown
}

/**
 * Sign in with SimpleLogin (OpenID Connect), with the user's real address or an alias.
 *
 * Setup: create an app at https://app.simplelogin.io/developer and add
 * `<base>/callback/simplelogin` to its authorized redirect URIs; set `AUTH_SIMPLELOGIN_ID` and
 * `AUTH_SIMPLELOGIN_SECRET`.
 *
 * Quirks, handled for you: SimpleLogin ignores PKCE, so the flow is protected by state instead,
 * and it issues no refresh token. The picture is in `avatar_url`. The email may be an alias the
 * user created for your app.
 *
 * Exported from `latchkey/providers/simplelogin` and `latchkey/providers`.
 * Docs: https://simplelogin.io/docs/siwsl/intro/
 *
 * @example
 * ```ts
 * import SimpleLogin from "latchkey/providers/simplelogin"
 * const providers = [SimpleLogin] // AUTH_SIMPLELOGIN_ID / AUTH_SIMPLELOGIN_SECRET
 * ```
 */
export default function SimpleLogin(options?: OIDCUserConfig<SimpleLoginProfile>): OIDCConfig<SimpleLoginProfile> {
  return oidcProvider(
    {
      id: "simplelogin",
      name: "SimpleLogin",
      type: "oidc",
      issuer: "https://app.simplelogin.io",
      authorization: { params: { scope: "openid" } },
      checks: ["state"],
      capabilities: { refresh: false, revocation: false },
      docs: "https://simplelogin.io/docs/siwsl/intro/",
      style: { brandColor: "#EA319F", mark: () => import("./logos/simplelogin.js") },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name || null,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }),
    },
    options
  )
}
