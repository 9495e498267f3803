import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"
import { standardClaimsOrUsername } from "./core/defaults.js"

/**
 * The claims of ZITADEL's userinfo endpoint for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import Zitadel, { type ZitadelProfile } from "latchkey/providers/zitadel"
 * const provider = Zitadel({
 *   profile: (profile: ZitadelProfile) => ({ id: profile.sub, name: profile.nickname ?? profile.name ?? null, email: profile.email_verified ? profile.email : null }),
 * })
 * ```
 */
export interface ZitadelProfile {
  /** The user's ZITADEL id. */
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  nickname?: string
  preferred_username?: string
  gender?: string
  locale?: string
  picture?: string
  updated_at?: number
  email?: string
  email_verified?: boolean
  [claim: string]: unknown
}

/**
 * Sign in with ZITADEL (OpenID Connect), on ZITADEL Cloud or your own instance.
 *
 * Setup: in a ZITADEL project, add a "Web" application with the "Code" authentication method (or
 * "PKCE"), the redirect URI `<base>/callback/zitadel`; set `AUTH_ZITADEL_ID`,
 * `AUTH_ZITADEL_SECRET` and `AUTH_ZITADEL_ISSUER`, your instance's domain
 * (`https://<instance>.zitadel.cloud`, or your custom domain). A trailing slash is trimmed, so it
 * never breaks discovery.
 *
 * Quirk, handled for you: unless the application's "User Info inside ID Token" setting is on,
 * ZITADEL keeps the profile claims out of the id_token, so the profile is fetched from the
 * userinfo endpoint (its `sub` is checked against the id_token's). A refresh token needs the
 * `offline_access` scope and the application's "Refresh Token" grant.
 *
 * Exported from `latchkey/providers/zitadel` and `latchkey/providers`.
 * Docs: https://zitadel.com/docs/guides/integrate/login/oidc/login-users
 *
 * @example
 * ```ts
 * import Zitadel from "latchkey/providers/zitadel"
 * const provider = Zitadel({ issuer: "https://acme-x7k2q.zitadel.cloud" })
 * ```
 */
export default function Zitadel(options?: OIDCUserConfig<ZitadelProfile>): OIDCConfig<ZitadelProfile> {
  return oidcProvider(
    {
      id: "zitadel",
      name: "ZITADEL",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      idToken: false,
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: true },
      docs: "https://zitadel.com/docs/guides/integrate/login/oidc/login-users",
      style: { brandColor: "#FF8700" },
      profile: standardClaimsOrUsername,
    },
    options
  )
}
