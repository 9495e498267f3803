import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET https://api.fitbit.com/1/user/-/profile.json`.
 *
 * @example
 * ```ts
 * import Fitbit, { type FitbitProfile } from "latchkey/providers/fitbit"
 * const provider = Fitbit({
 *   profile: ({ user }: FitbitProfile) => ({ id: user.encodedId, name: user.displayName, image: user.avatar150 ?? null }),
 * })
 * ```
 */
export interface FitbitProfile {
  user: {
    /** The Fitbit user id. */
    encodedId: string
    displayName: string
    fullName?: string
    firstName?: string
    lastName?: string
    avatar?: string
    avatar150?: string
    avatar640?: string
    aboutMe?: string
    age?: number
    gender?: string
    memberSince?: string
    timezone?: string
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Sign in with Fitbit (Fitbit Web API, OAuth 2.0 with PKCE).
 *
 * Setup: register a "Server" application at https://dev.fitbit.com/apps/new with the redirect URL
 * `<base>/callback/fitbit`; set `AUTH_FITBIT_ID` (the OAuth 2.0 Client ID) and
 * `AUTH_FITBIT_SECRET`.
 *
 * The token endpoint takes HTTP Basic client authentication (latchkey's default). The profile is
 * wrapped in a `user` object, and Fitbit shares no email address, so `email` is always `null`.
 * Google announced that the legacy Fitbit Web API is turned off in 2026 in favour of the Google
 * Health API; check the Fitbit developer site before starting a new integration.
 *
 * Exported from `latchkey/providers/fitbit` and `latchkey/providers`.
 * Docs: https://dev.fitbit.com/build/reference/web-api/developer-guide/authorization/
 *
 * @example
 * ```ts
 * import Fitbit from "latchkey/providers/fitbit"
 * const provider = Fitbit({ authorization: { params: { scope: "profile activity sleep" } } })
 * ```
 */
export default function Fitbit(options?: OAuthUserConfig<FitbitProfile>): OAuthConfig<FitbitProfile> {
  return oauthProvider(
    {
      id: "fitbit",
      name: "Fitbit",
      type: "oauth",
      authorization: { url: "https://www.fitbit.com/oauth2/authorize", params: { scope: "profile" } },
      token: "https://api.fitbit.com/oauth2/token",
      userinfo: "https://api.fitbit.com/1/user/-/profile.json",
      capabilities: { refresh: true, revocation: "https://api.fitbit.com/oauth2/revoke" },
      docs: "https://dev.fitbit.com/build/reference/web-api/developer-guide/authorization/",
      style: { brandColor: "#00B0B9", mark: () => import("./logos/fitbit.js") },
      profile: ({ user }) => ({ id: user.encodedId, name: user.fullName || user.displayName, email: null, image: user.avatar640 ?? user.avatar ?? null }),
    },
    options
  )
}
