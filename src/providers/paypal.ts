import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET /v1/identity/openidconnect/userinfo?schema=openid` (Identity API v1).
 *
 * @example
 * ```ts
 * import PayPal, { type PayPalProfile } from "latchkey/providers/paypal"
 * const provider = PayPal({
 *   profile: (profile: PayPalProfile) => ({ id: profile.user_id, name: profile.given_name ?? profile.name ?? null, email: profile.email_verified ? profile.email : null }),
 * })
 * ```
 */
export interface PayPalProfile {
  /** `https://www.paypal.com/webapps/auth/identity/user/<id>`: stable per app. */
  user_id: string
  sub?: string
  name?: string
  given_name?: string
  family_name?: string
  middle_name?: string
  picture?: string
  /** With the `email` scope. */
  email?: string
  email_verified?: boolean
  locale?: string
  zoneinfo?: string
  address?: { street_address?: string; locality?: string; region?: string; postal_code?: string; country?: string }
  /** With the `https://uri.paypal.com/services/paypalattributes` scope. */
  verified_account?: boolean | string
  payer_id?: string
  account_type?: string
  [field: string]: unknown
}

/**
 * PayPal options: everything in {@link OAuthUserConfig}, plus the sandbox.
 *
 * @example
 * ```ts
 * import PayPal, { type PayPalUserConfig } from "latchkey/providers/paypal"
 * const options: PayPalUserConfig = { sandbox: true, clientId: process.env.PAYPAL_SANDBOX_CLIENT_ID, clientSecret: process.env.PAYPAL_SANDBOX_SECRET }
 * const provider = PayPal(options)
 * ```
 */
export interface PayPalUserConfig extends OAuthUserConfig<PayPalProfile> {
  /** Use the sandbox (`sandbox.paypal.com`) with sandbox app credentials. Default false. */
  sandbox?: boolean
}

/**
 * Sign in with PayPal (Log in with PayPal, OAuth 2.0).
 *
 * Setup: create a REST app at https://developer.paypal.com/dashboard/applications, enable "Log in
 * with PayPal" with the return URL `<base>/callback/paypal` and the full name and email
 * attributes; set `AUTH_PAYPAL_ID` and `AUTH_PAYPAL_SECRET`. Pass `sandbox: true` with the
 * sandbox app's credentials to test.
 *
 * Quirks, handled for you: the profile comes from PayPal's identity userinfo endpoint with
 * `schema=openid`, and the user id is its `user_id`. PayPal documents no PKCE, so the flow is
 * protected with `state`. The attributes returned are those enabled for the app and requested in
 * the scope (`profile email` by default). `openid` is not requested: this is an OAuth 2.0 record,
 * and the id_token it would add is not needed for the profile.
 *
 * Exported from `latchkey/providers/paypal` and `latchkey/providers`.
 * Docs: https://developer.paypal.com/docs/log-in-with-paypal/integrate/
 *
 * @example
 * ```ts
 * import PayPal from "latchkey/providers/paypal"
 * const provider = PayPal({ sandbox: process.env.NODE_ENV !== "production" })
 * ```
 */
export default function PayPal(options: PayPalUserConfig = {}): OAuthConfig<PayPalProfile> {
  const { sandbox, ...userOptions } = options
  const env = sandbox ? "sandbox." : ""
  return oauthProvider(
    {
      id: "paypal",
      name: "PayPal",
      type: "oauth",
      authorization: { url: `https://www.${env}paypal.com/signin/authorize`, params: { scope: "profile email" } },
      token: `https://api-m.${env}paypal.com/v1/oauth2/token`,
      userinfo: { url: `https://api-m.${env}paypal.com/v1/identity/openidconnect/userinfo`, params: { schema: "openid" } },
      checks: ["state"],
      capabilities: { refresh: true, revocation: false },
      docs: "https://developer.paypal.com/docs/log-in-with-paypal/integrate/",
      style: { brandColor: "#003087", mark: () => import("./logos/paypal.js") },
      profile: (profile) => ({
        id: profile.user_id,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
    },
    userOptions
  )
}
