import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The response of Salesforce's OpenID Connect userinfo endpoint (abridged).
 *
 * @example
 * ```ts
 * import Salesforce, { type SalesforceProfile } from "latchkey/providers/salesforce"
 * const provider = Salesforce({
 *   profile: (profile: SalesforceProfile) => ({ id: profile.user_id, name: profile.name, email: profile.email_verified ? profile.email : null }),
 * })
 * ```
 */
export interface SalesforceProfile {
  /** The identity URL, `https://login.salesforce.com/id/<org id>/<user id>`; the same in the id_token. */
  sub: string
  user_id: string
  organization_id: string
  preferred_username: string
  nickname: string
  name: string
  given_name: string
  family_name: string
  email: string
  email_verified: boolean
  zoneinfo: string
  /** Needs the access token to load, like `photos`. */
  picture: string
  photos: { picture: string; thumbnail: string }
  profile: string
  address?: Record<string, unknown>
  phone_number?: string | null
  urls: Record<string, string>
  active: boolean
  user_type: string
  language: string
  locale: string
  utcOffset: number
  updated_at: string
  is_app_installed?: boolean
  [field: string]: unknown
}

/**
 * Sign in with Salesforce (OpenID Connect).
 *
 * Setup: create an External Client App (or a Connected App) in Salesforce Setup with OAuth
 * enabled, the callback URL `<base>/callback/salesforce` and the `openid`, `profile` and `email`
 * scopes (add `refresh_token` for refresh tokens); set `AUTH_SALESFORCE_ID` (the consumer key)
 * and `AUTH_SALESFORCE_SECRET`.
 *
 * The issuer is https://login.salesforce.com; for a sandbox pass
 * `issuer: "https://test.salesforce.com"`, and for a My Domain or Experience Cloud site its URL
 * (`AUTH_SALESFORCE_ISSUER` works too). The profile is read from the userinfo endpoint, which
 * has the names, email and photos that Salesforce leaves out of the id_token; its `sub` is
 * checked against the id_token's.
 *
 * Exported from `latchkey/providers/salesforce` and `latchkey/providers`.
 * Docs: https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_openid.htm&type=5
 *
 * @example
 * ```ts
 * import Salesforce from "latchkey/providers/salesforce"
 * const sandbox = Salesforce({ issuer: "https://test.salesforce.com" })
 * ```
 */
export default function Salesforce(options?: OIDCUserConfig<SalesforceProfile>): OIDCConfig<SalesforceProfile> {
  return oidcProvider(
    {
      id: "salesforce",
      name: "Salesforce",
      type: "oidc",
      issuer: "https://login.salesforce.com",
      idToken: false,
      authorization: { params: { scope: "openid profile email" } },
      capabilities: { refresh: true, revocation: true },
      docs: "https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_openid.htm&type=5",
      style: { brandColor: "#00A1E0" },
      profile: (profile) => ({
        id: profile.user_id ?? profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
    },
    options
  )
}
