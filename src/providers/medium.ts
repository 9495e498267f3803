import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET https://api.medium.com/v1/me`.
 *
 * @example
 * ```ts
 * import Medium, { type MediumProfile } from "latchkey/providers/medium"
 * const provider = Medium({
 *   profile: ({ data }: MediumProfile) => ({ id: data.id, name: `@${data.username}`, image: data.imageUrl || null }),
 * })
 * ```
 */
export interface MediumProfile {
  data: {
    id: string
    username: string
    name: string
    /** The profile URL. */
    url: string
    imageUrl: string
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Sign in with Medium (Medium API v1, OAuth 2.0).
 *
 * Medium no longer supports its API and allows no new integrations: its documentation repository
 * is archived and browser-based OAuth works only for integrations that already have a client id
 * and secret. This provider implements the documented API for those.
 *
 * Setup: with an existing Medium integration, register `<base>/callback/medium` as its callback
 * URL; set `AUTH_MEDIUM_ID` and `AUTH_MEDIUM_SECRET`.
 *
 * Quirks, handled for you: Medium requires `state` (it has no PKCE) and the client secret in the
 * token request body; its token response lists `scope` as an array, which is joined, and gives the
 * expiry as `expires_at` in milliseconds rather than `expires_in` (the `expiresAtMilliseconds`
 * quirk reads it, so refreshes are timed right). Medium shares no email address,
 * so `email` is always `null`.
 *
 * Exported from `latchkey/providers/medium` and `latchkey/providers`.
 * Docs: https://github.com/Medium/medium-api-docs
 *
 * @example
 * ```ts
 * import Medium from "latchkey/providers/medium"
 * const provider = Medium({ authorization: { params: { scope: "basicProfile,listPublications" } } })
 * ```
 */
export default function Medium(options?: OAuthUserConfig<MediumProfile>): OAuthConfig<MediumProfile> {
  return oauthProvider(
    {
      id: "medium",
      name: "Medium",
      type: "oauth",
      authorization: { url: "https://medium.com/m/oauth/authorize", params: { scope: "basicProfile" } },
      token: "https://api.medium.com/v1/tokens",
      userinfo: "https://api.medium.com/v1/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      quirks: { expiresAtMilliseconds: true },
      docs: "https://github.com/Medium/medium-api-docs",
      style: { brandColor: "#000000", mark: () => import("./logos/medium.js") },
      profile: ({ data }) => ({ id: data.id, name: data.name || data.username, email: null, image: data.imageUrl || null }),
    },
    options
  )
}
