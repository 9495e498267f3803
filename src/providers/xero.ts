import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a Sign in with Xero id_token.
 *
 * @example
 * ```ts
 * import Xero, { type XeroProfile } from "latchkey/providers/xero"
 * const provider = Xero({
 *   profile: (profile: XeroProfile) => ({ id: profile.xero_userid, name: profile.given_name ?? null, email: profile.email ?? null }),
 * })
 * ```
 */
export interface XeroProfile {
  iss: string
  aud: string
  exp: number
  iat: number
  nbf?: number
  auth_time?: number
  /** The user's identity id, stable across apps. */
  sub: string
  /** The user's Xero user id. */
  xero_userid: string
  global_session_id?: string
  sid?: string
  preferred_username?: string
  /** With the `email` scope. */
  email?: string
  /** With the `profile` scope. */
  given_name?: string
  family_name?: string
  amr?: string[]
  [claim: string]: unknown
}

/**
 * Sign in with Xero (OpenID Connect).
 *
 * Setup: create a "Web app" at https://developer.xero.com/app/manage with the redirect URI
 * `<base>/callback/xero`; set `AUTH_XERO_ID` and `AUTH_XERO_SECRET`.
 *
 * The id_token has no `name` or `picture` claim: the name is built from `given_name` and
 * `family_name`, and `image` is always `null`. Xero issues a refresh token only with the
 * `offline_access` scope: pass `authorization: { params: { scope: "openid profile email offline_access" } }`.
 *
 * Exported from `latchkey/providers/xero` and `latchkey/providers`.
 * Docs: https://developer.xero.com/documentation/guides/oauth2/sign-in/
 *
 * @example
 * ```ts
 * import Xero from "latchkey/providers/xero"
 * const provider = Xero({ authorization: { params: { scope: "openid profile email offline_access accounting.transactions" } } })
 * ```
 */
export default function Xero(options?: OIDCUserConfig<XeroProfile>): OIDCConfig<XeroProfile> {
  return oidcProvider(
    {
      id: "xero",
      name: "Xero",
      type: "oidc",
      issuer: "https://identity.xero.com",
      authorization: { params: { scope: "openid profile email" } },
      capabilities: { refresh: true, revocation: true },
      docs: "https://developer.xero.com/documentation/guides/oauth2/sign-in/",
      style: { brandColor: "#13B5EA", mark: () => import("./logos/xero.js") },
      profile: (profile) => ({
        id: profile.sub,
        name: [profile.given_name, profile.family_name].filter(Boolean).join(" ") || null,
        email: profile.email ?? null,
        image: null,
      }),
    },
    options
  )
}
