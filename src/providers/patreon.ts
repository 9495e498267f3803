import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The JSON:API document of `GET /api/oauth2/v2/identity` with the `fields[user]` below.
 *
 * @example
 * ```ts
 * import Patreon, { type PatreonProfile } from "latchkey/providers/patreon"
 * const provider = Patreon({
 *   profile: ({ data }: PatreonProfile) => ({ id: data.id, name: data.attributes.vanity ?? data.attributes.full_name ?? null, image: data.attributes.thumb_url ?? null }),
 * })
 * ```
 */
export interface PatreonProfile {
  data: {
    id: string
    type: "user"
    attributes: {
      /** With the `identity[email]` scope. */
      email?: string
      is_email_verified?: boolean
      full_name?: string
      first_name?: string | null
      last_name?: string | null
      vanity?: string | null
      image_url?: string
      thumb_url?: string
      url?: string
      created?: string
      [field: string]: unknown
    }
    relationships?: Record<string, unknown>
  }
  links?: { self: string }
  [field: string]: unknown
}

/**
 * Sign in with Patreon (OAuth 2.0, API v2).
 *
 * Setup: register a client at https://www.patreon.com/portal/registration/register-clients (API
 * version 2) with the redirect URI `<base>/callback/patreon`; set `AUTH_PATREON_ID` and
 * `AUTH_PATREON_SECRET`.
 *
 * Quirks, handled for you: the v2 API returns no attributes unless they are named, so the profile
 * request asks for `fields[user]`; Patreon wants the client secret in the token request body, and
 * documents `state` (not PKCE) to protect the flow. Patreon has no revocation endpoint.
 *
 * Exported from `latchkey/providers/patreon` and `latchkey/providers`.
 * Docs: https://docs.patreon.com/#oauth
 *
 * @example
 * ```ts
 * import Patreon from "latchkey/providers/patreon"
 * const provider = Patreon({ authorization: { params: { scope: "identity identity[email] identity.memberships" } } })
 * ```
 */
export default function Patreon(options?: OAuthUserConfig<PatreonProfile>): OAuthConfig<PatreonProfile> {
  return oauthProvider(
    {
      id: "patreon",
      name: "Patreon",
      type: "oauth",
      authorization: { url: "https://www.patreon.com/oauth2/authorize", params: { scope: "identity identity[email]" } },
      token: "https://www.patreon.com/api/oauth2/token",
      userinfo: {
        url: "https://www.patreon.com/api/oauth2/v2/identity",
        params: { "fields[user]": "email,is_email_verified,full_name,image_url,vanity,url" },
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://docs.patreon.com/#oauth",
      style: { brandColor: "#000000", mark: () => import("./logos/patreon.js") },
      profile: ({ data: { id, attributes } }) => ({
        id,
        name: attributes.full_name || attributes.vanity || null,
        email: attributes.email ?? null,
        image: attributes.image_url ?? null,
      }),
    },
    options
  )
}
