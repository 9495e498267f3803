import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user object of `GET /v3/users/me/`.
 *
 * @example
 * ```ts
 * import Eventbrite, { type EventbriteProfile } from "latchkey/providers/eventbrite"
 * const provider = Eventbrite({
 *   profile: (profile: EventbriteProfile) => ({ id: profile.id, name: profile.name, email: profile.emails.find((entry) => entry.primary && entry.verified)?.email ?? null }),
 * })
 * ```
 */
export interface EventbriteProfile {
  id: string
  name: string
  first_name: string
  last_name: string
  is_public: boolean
  image_id: string | null
  emails: { email: string; verified: boolean; primary: boolean }[]
  [field: string]: unknown
}

/**
 * Sign in with Eventbrite (OAuth 2.0).
 *
 * Setup: create an API key at https://www.eventbrite.com/platform/api-keys with the OAuth
 * redirect URI `<base>/callback/eventbrite`; set `AUTH_EVENTBRITE_ID` (the API key) and
 * `AUTH_EVENTBRITE_SECRET` (the client secret).
 *
 * Eventbrite has no scopes and no PKCE: `state` guards the callback, and the client secret goes
 * in the token request body. No refresh tokens are issued. The email is the
 * primary address from `emails`; the profile has only an image id, not a URL, so `image` is `null`.
 *
 * Exported from `latchkey/providers/eventbrite` and `latchkey/providers`.
 * Docs: https://www.eventbrite.com/platform/docs/authentication
 *
 * @example
 * ```ts
 * import Eventbrite from "latchkey/providers/eventbrite"
 * const provider = Eventbrite() // AUTH_EVENTBRITE_ID / AUTH_EVENTBRITE_SECRET
 * ```
 */
export default function Eventbrite(options?: OAuthUserConfig<EventbriteProfile>): OAuthConfig<EventbriteProfile> {
  return oauthProvider(
    {
      id: "eventbrite",
      name: "Eventbrite",
      type: "oauth",
      authorization: "https://www.eventbrite.com/oauth/authorize",
      token: "https://www.eventbrite.com/oauth/token",
      userinfo: "https://www.eventbriteapi.com/v3/users/me/",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://www.eventbrite.com/platform/docs/authentication",
      style: { brandColor: "#F05537" },
      profile: (profile) => ({
        id: profile.id,
        name: profile.name,
        email: (profile.emails?.find((entry) => entry.primary) ?? profile.emails?.[0])?.email ?? null,
        image: null,
      }),
    },
    options
  )
}
