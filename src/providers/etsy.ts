import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user object of `GET https://api.etsy.com/v3/application/users/{user_id}` (Open API v3).
 *
 * @example
 * ```ts
 * import Etsy, { type EtsyProfile } from "latchkey/providers/etsy"
 * const provider = Etsy({
 *   profile: (profile: EtsyProfile) => ({ id: String(profile.user_id), name: profile.first_name ?? null, email: profile.primary_email ?? null, image: profile.image_url_75x75 ?? null }),
 * })
 * ```
 */
export interface EtsyProfile {
  /** Also the id of the user's shop, if they have one. */
  user_id: number
  /** Only for apps Etsy has granted access to it, case by case. */
  primary_email?: string | null
  first_name?: string | null
  last_name?: string | null
  image_url_75x75?: string | null
  [field: string]: unknown
}

/**
 * Sign in with Etsy (Open API v3, OAuth 2.0 with PKCE).
 *
 * Setup: create an app at https://www.etsy.com/developers/your-apps and add the callback URL
 * `<base>/callback/etsy`; set `AUTH_ETSY_ID` to the app's keystring and `AUTH_ETSY_SECRET` to its
 * shared secret.
 *
 * Quirks, handled for you: Etsy requires both PKCE and `state`. The token request carries only the
 * keystring (`client_id`), never the secret, while every API call must send an `x-api-key` header
 * of `keystring:shared_secret`. The user id is the numeric prefix of the access token
 * (`<user_id>.<token>`), so one `getUser` call with the `email_r` scope yields the profile;
 * `primary_email` is filled in only for apps Etsy has granted it.
 *
 * Exported from `latchkey/providers/etsy` and `latchkey/providers`.
 * Docs: https://developers.etsy.com/documentation/essentials/authentication
 *
 * @example
 * ```ts
 * import Etsy from "latchkey/providers/etsy"
 * const provider = Etsy({ authorization: { params: { scope: "email_r shops_r listings_r" } } })
 * ```
 */
export default function Etsy(options?: OAuthUserConfig<EtsyProfile>): OAuthConfig<EtsyProfile> {
  return oauthProvider(
    {
      id: "etsy",
      name: "Etsy",
      type: "oauth",
      authorization: { url: "https://www.etsy.com/oauth/connect", params: { scope: "email_r" } },
      token: "https://api.etsy.com/v3/public/oauth/token",
      userinfo: {
        url: "https://api.etsy.com/v3/application/users",
        request: ({ tokens, provider, fetchJson }) =>
          fetchJson(`${provider.userinfo.url}/${tokens.access_token!.split(".")[0]}`, {
            headers: { "x-api-key": `${provider.clientId}:${provider.clientSecret ?? ""}` },
          }),
      },
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "none" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://developers.etsy.com/documentation/essentials/authentication",
      style: { brandColor: "#F1641E", mark: () => import("./logos/etsy.js") },
      profile: (profile) => ({
        id: String(profile.user_id),
        name: [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null,
        email: profile.primary_email ?? null,
        image: profile.image_url_75x75 ?? null,
      }),
    },
    options
  )
}
