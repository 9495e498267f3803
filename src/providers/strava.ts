import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The summary athlete that the token response carries (and `GET /api/v3/athlete` returns in full).
 *
 * @example
 * ```ts
 * import Strava, { type StravaProfile } from "latchkey/providers/strava"
 * const provider = Strava({
 *   profile: (athlete: StravaProfile) => ({ id: String(athlete.id), name: athlete.firstname, image: athlete.profile_medium }),
 * })
 * ```
 */
export interface StravaProfile {
  id: number
  username: string | null
  resource_state: number
  firstname: string
  lastname: string
  bio: string | null
  city: string | null
  state: string | null
  country: string | null
  sex: "M" | "F" | null
  premium: boolean
  summit: boolean
  created_at: string
  updated_at: string
  badge_type_id: number
  weight: number | null
  /** 124×124 pixels. */
  profile_medium: string
  /** 60×60 pixels. */
  profile: string
  [field: string]: unknown
}

/**
 * Sign in with Strava (OAuth 2.0).
 *
 * Setup: create an API application at https://www.strava.com/settings/api and set its
 * "Authorization Callback Domain" to your app's host (Strava checks the domain of
 * `<base>/callback/strava`, not the full URL); set `AUTH_STRAVA_ID` and `AUTH_STRAVA_SECRET`.
 *
 * Quirks, handled for you: the token response carries the athlete, so no profile request is made
 * (`/athlete` is asked only when it is missing). Scopes are comma-separated, as Strava documents
 * them: `read,activity:read`. No PKCE is documented, so `state` guards the callback, and the
 * client secret goes in the token request body. Strava never shares an email address, so `email`
 * is always `null`.
 *
 * Exported from `latchkey/providers/strava` and `latchkey/providers`.
 * Docs: https://developers.strava.com/docs/authentication/
 *
 * @example
 * ```ts
 * import Strava from "latchkey/providers/strava"
 * const provider = Strava({ authorization: { params: { scope: "read,activity:read" } } })
 * ```
 */
export default function Strava(options?: OAuthUserConfig<StravaProfile>): OAuthConfig<StravaProfile> {
  return oauthProvider(
    {
      id: "strava",
      name: "Strava",
      type: "oauth",
      authorization: { url: "https://www.strava.com/oauth/authorize", params: { scope: "read", approval_prompt: "auto" } },
      token: "https://www.strava.com/oauth/token",
      userinfo: {
        url: "https://www.strava.com/api/v3/athlete",
        request: ({ tokens, provider, fetchJson }) => (tokens.athlete as StravaProfile | undefined) ?? fetchJson(provider.userinfo.url!),
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://developers.strava.com/docs/authentication/",
      style: { brandColor: "#FC4C02", mark: () => import("./logos/strava.js") },
      profile: (profile) => ({
        id: String(profile.id),
        name: [profile.firstname, profile.lastname].filter(Boolean).join(" ") || profile.username,
        email: null,
        image: profile.profile ?? null,
      }),
    },
    options
  )
}
