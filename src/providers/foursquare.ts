import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET /v2/users/self`, with its `meta` and `response` envelope.
 *
 * @example
 * ```ts
 * import Foursquare, { type FoursquareProfile } from "latchkey/providers/foursquare"
 * const provider = Foursquare({
 *   profile: ({ response: { user } }: FoursquareProfile) => ({ id: user.id, name: user.firstName, image: `${user.photo.prefix}300x300${user.photo.suffix}` }),
 * })
 * ```
 */
export interface FoursquareProfile {
  meta: { code: number; requestId: string }
  response: {
    user: {
      id: string
      firstName: string
      lastName?: string
      gender?: string
      relationship?: string
      canonicalUrl?: string
      /** Build a URL as `prefix + size + suffix`, with a size such as `original` or `300x300`. */
      photo: { prefix: string; suffix: string }
      contact?: { email?: string; phone?: string; twitter?: string; facebook?: string }
      homeCity?: string
      [field: string]: unknown
    }
  }
  [field: string]: unknown
}

/**
 * Sign in with Foursquare (the v2 API's user OAuth 2.0, for Foursquare and Swarm accounts).
 *
 * Setup: create an app in the Foursquare developer console (https://foursquare.com/developers/)
 * with the redirect URL `<base>/callback/foursquare`; set `AUTH_FOURSQUARE_ID` and
 * `AUTH_FOURSQUARE_SECRET`.
 *
 * Quirks, handled for you: the v2 API takes the token as the `oauth_token` query parameter, not
 * a header, and every request needs the `v` version date (`YYYYMMDD`), which stays pinned here
 * until the profile fields are re-checked; pass `userinfo: { params: { v: "…" } }` to move it.
 * Foursquare has no scopes and no PKCE: `state` guards the callback, and the client secret goes in
 * the token request body. Its tokens do not expire.
 *
 * Exported from `latchkey/providers/foursquare` and `latchkey/providers`.
 * Docs: https://docs.foursquare.com/developer/reference/v2-authentication
 *
 * @example
 * ```ts
 * import Foursquare from "latchkey/providers/foursquare"
 * const provider = Foursquare() // AUTH_FOURSQUARE_ID / AUTH_FOURSQUARE_SECRET
 * ```
 */
export default function Foursquare(options?: OAuthUserConfig<FoursquareProfile>): OAuthConfig<FoursquareProfile> {
  return oauthProvider(
    {
      id: "foursquare",
      name: "Foursquare",
      type: "oauth",
      authorization: "https://foursquare.com/oauth2/authenticate",
      token: "https://foursquare.com/oauth2/access_token",
      userinfo: {
        url: "https://api.foursquare.com/v2/users/self",
        params: { v: "20231010" },
        request({ tokens, provider, fetchJson }) {
          const url = new URL(provider.userinfo.url!)
          // v2 documents the token only as the `oauth_token` query parameter.
          for (const [name, value] of Object.entries({ ...provider.userinfo.params, oauth_token: tokens.access_token! })) url.searchParams.set(name, value)
          return fetchJson(url.href)
        },
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://docs.foursquare.com/developer/reference/v2-authentication",
      style: { brandColor: "#3333FF", mark: () => import("./logos/foursquare.js") },
      profile: ({ response: { user } }) => ({
        id: user.id,
        name: [user.firstName, user.lastName].filter(Boolean).join(" "),
        email: user.contact?.email ?? null,
        image: user.photo ? `${user.photo.prefix}original${user.photo.suffix}` : null,
      }),
    },
    options
  )
}
