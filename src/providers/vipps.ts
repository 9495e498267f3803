import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The response of the Vipps MobilePay userinfo endpoint (Login API); each field needs its scope.
 *
 * @example
 * ```ts
 * import Vipps, { type VippsProfile } from "latchkey/providers/vipps"
 * const provider = Vipps({
 *   profile: (profile: VippsProfile) => ({ id: profile.sub, name: profile.given_name ?? profile.name ?? null, email: profile.email_verified ? profile.email : null }),
 * })
 * ```
 */
export interface VippsProfile {
  sub: string
  /** `name` scope. */
  name?: string
  given_name?: string
  family_name?: string
  /** `email` scope. */
  email?: string
  email_verified?: boolean
  /** `phoneNumber` scope, with country code and no `+`, such as `4712345678`. */
  phone_number?: string
  /** `birthDate` scope, `YYYY-MM-DD`. */
  birthdate?: string
  /** `address` scope. */
  address?: { address_type: string; country: string; formatted: string; postal_code: string; region: string; street_address: string }
  other_addresses?: unknown[]
  /** `nin` scope, only for merchants allowed to use it. */
  nin?: string
  /** The login session id. */
  sid?: string
  [field: string]: unknown
}

/**
 * Vipps options: everything in {@link OIDCUserConfig}, plus the environment.
 *
 * @example
 * ```ts
 * import Vipps, { type VippsUserConfig } from "latchkey/providers/vipps"
 * const options: VippsUserConfig = { environment: "test", clientId: process.env.VIPPS_TEST_CLIENT_ID }
 * const provider = Vipps(options)
 * ```
 */
export interface VippsUserConfig extends OIDCUserConfig<VippsProfile> {
  /** `"production"` (https://api.vipps.no) or `"test"` (https://apitest.vipps.no). Default `"production"`. Ignored when `issuer` is set. */
  environment?: "production" | "test"
}

/**
 * Sign in with Vipps MobilePay (the Vipps Login API, OpenID Connect).
 *
 * Setup: activate Login on your sales unit in the merchant portal (https://portal.vippsmobilepay.com),
 * add the redirect URI `<base>/callback/vipps`, and use the sales unit's client id and secret as
 * `AUTH_VIPPS_ID` and `AUTH_VIPPS_SECRET`. Pass `environment: "test"` with test credentials.
 *
 * The id_token carries little beyond `sub`, so the profile is read from the userinfo endpoint;
 * its `sub` is checked against the id_token's. Vipps requires `state`, which is sent alongside
 * PKCE. Login documents no refresh tokens, so refresh is flagged off.
 *
 * Exported from `latchkey/providers/vipps` and `latchkey/providers`.
 * Docs: https://developer.vippsmobilepay.com/docs/APIs/login-api/
 *
 * @example
 * ```ts
 * import Vipps from "latchkey/providers/vipps"
 * const provider = Vipps({ environment: "test", authorization: { params: { scope: "openid name email phoneNumber" } } })
 * ```
 */
export default function Vipps(options: VippsUserConfig = {}): OIDCConfig<VippsProfile> {
  const { environment, ...userOptions } = options
  return oidcProvider(
    {
      id: "vipps",
      name: "Vipps MobilePay",
      type: "oidc",
      issuer: `https://${environment === "test" ? "apitest" : "api"}.vipps.no/access-management-1.0/access/`,
      idToken: false,
      authorization: { params: { scope: "openid name email" } },
      checks: ["pkce", "state"],
      capabilities: { refresh: false, revocation: false },
      docs: "https://developer.vippsmobilepay.com/docs/APIs/login-api/",
      style: { brandColor: "#FF5B24" },
      profile: (profile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: null }),
    },
    userOptions
  )
}
