import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The customer profile of `GET https://api.amazon.com/user/profile`.
 *
 * @example
 * ```ts
 * import Amazon, { type AmazonProfile } from "latchkey/providers/amazon"
 * const provider = Amazon({ authorization: { params: { scope: "profile postal_code" } } })
 * const postalCode = (profile: AmazonProfile) => profile.postal_code ?? null
 * ```
 */
export interface AmazonProfile {
  /** Stable per developer: every app of one company sees the same id for a customer. */
  user_id: string
  /** With the `profile` scope. */
  name?: string
  /** With the `profile` scope. */
  email?: string
  /** With the `postal_code` scope: of the customer's primary shipping address. */
  postal_code?: string
  [field: string]: unknown
}

/**
 * Sign in with Amazon (Login with Amazon, OAuth 2.0).
 *
 * Setup: create a security profile in the Amazon Developer Console
 * (https://developer.amazon.com/loginwithamazon/console/site/lwa/overview.html), add
 * `<base>/callback/amazon` to its web "Allowed Return URLs"; set `AUTH_AMAZON_ID` and
 * `AUTH_AMAZON_SECRET` (the security profile's client id and secret).
 *
 * The `profile` scope returns the name and email address; Amazon shows a consent screen for it on
 * the first sign-in. Amazon gives no profile picture, so `image` is always `null`.
 *
 * Exported from `latchkey/providers/amazon` and `latchkey/providers`.
 * Docs: https://developer.amazon.com/docs/login-with-amazon/authorization-code-grant.html
 *
 * @example
 * ```ts
 * import Amazon from "latchkey/providers/amazon"
 * const provider = Amazon({ authorization: { params: { scope: "profile postal_code" } } })
 * ```
 */
export default function Amazon(options?: OAuthUserConfig<AmazonProfile>): OAuthConfig<AmazonProfile> {
  return oauthProvider(
    {
      id: "amazon",
      name: "Amazon",
      type: "oauth",
      authorization: { url: "https://www.amazon.com/ap/oa", params: { scope: "profile" } },
      token: "https://api.amazon.com/auth/o2/token",
      userinfo: "https://api.amazon.com/user/profile",
      capabilities: { refresh: true, revocation: false },
      docs: "https://developer.amazon.com/docs/login-with-amazon/authorization-code-grant.html",
      style: { brandColor: "#FF9900" },
      profile: (profile) => ({ id: profile.user_id, name: profile.name ?? null, email: profile.email ?? null, image: null }),
    },
    options
  )
}
