import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET /api/users/me` on the Concept2 Logbook API.
 *
 * @example
 * ```ts
 * import Concept2, { type Concept2Profile } from "latchkey/providers/concept2"
 * const provider = Concept2({
 *   profile: ({ data }: Concept2Profile) => ({ id: String(data.id), name: data.username, email: data.email, image: data.profile_image }),
 * })
 * ```
 */
export interface Concept2Profile {
  data: {
    id: number
    username: string
    first_name: string
    last_name: string
    gender: string
    dob: string
    email: string
    country: string
    profile_image: string | null
    age_restricted: boolean
    email_permission: boolean | null
    max_heart_rate: number | null
    weight: number | null
    logbook_privacy: string | null
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Sign in with Concept2 (the Concept2 Logbook, OAuth 2.0).
 *
 * Setup: request API keys at https://log.concept2.com/developers/keys with the redirect URI
 * `<base>/callback/concept2`; set `AUTH_CONCEPT2_ID` and `AUTH_CONCEPT2_SECRET`. Concept2 has
 * new integrations develop against https://log-dev.concept2.com first: point `authorization`,
 * `token` and `userinfo` there until the live keys are approved.
 *
 * Scopes are comma-separated, as Concept2 documents them (`user:read,results:read`); the default
 * `user:read` covers the profile and email address. No PKCE is documented, so `state` guards the
 * callback, and the client secret goes in the token request body.
 *
 * Exported from `latchkey/providers/concept2` and `latchkey/providers`.
 * Docs: https://log.concept2.com/developers/documentation/
 *
 * @example
 * ```ts
 * import Concept2 from "latchkey/providers/concept2"
 * const provider = Concept2({ authorization: { params: { scope: "user:read,results:read" } } })
 * ```
 */
export default function Concept2(options?: OAuthUserConfig<Concept2Profile>): OAuthConfig<Concept2Profile> {
  return oauthProvider(
    {
      id: "concept2",
      name: "Concept2",
      type: "oauth",
      authorization: { url: "https://log.concept2.com/oauth/authorize", params: { scope: "user:read" } },
      token: "https://log.concept2.com/oauth/access_token",
      userinfo: "https://log.concept2.com/api/users/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://log.concept2.com/developers/documentation/",
      style: { brandColor: "#003A70" },
      profile: ({ data }) => ({
        id: String(data.id),
        name: [data.first_name, data.last_name].filter(Boolean).join(" ") || data.username,
        email: data.email ?? null,
        image: data.profile_image ?? null,
      }),
    },
    options
  )
}
