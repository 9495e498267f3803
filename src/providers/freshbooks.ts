import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET https://api.freshbooks.com/auth/api/v1/users/me` (the identity).
 *
 * @example
 * ```ts
 * import type { FreshBooksProfile } from "latchkey/providers/freshbooks"
 * const businessNames = (profile: FreshBooksProfile) => profile.response.business_memberships?.map((membership) => membership.business.name) ?? []
 * ```
 */
export interface FreshBooksProfile {
  response: {
    /** The identity id, the same across every business the user belongs to. */
    id: number
    identity_id?: number
    identity_uuid?: string
    first_name: string | null
    last_name: string | null
    email: string
    language?: string | null
    confirmed_at?: string | null
    created_at?: string
    setup_complete?: boolean
    business_memberships?: Array<{ id: number; role: string; business: { id: number; name: string; account_id: string | null; [field: string]: unknown } }>
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Sign in with FreshBooks (OAuth 2.0).
 *
 * Setup: create an app on the FreshBooks developer page (https://my.freshbooks.com/#/developer)
 * with the redirect URI `<base>/callback/freshbooks` and the `user:profile:read` scope; set
 * `AUTH_FRESHBOOKS_ID` and `AUTH_FRESHBOOKS_SECRET`.
 *
 * Quirks, handled for you: the profile is wrapped in a `response` object; the client credentials
 * go in the token request body; FreshBooks documents no PKCE, so `state` protects the flow.
 * Refresh tokens are single-use: each refresh returns a new one.
 *
 * Exported from `latchkey/providers/freshbooks` and `latchkey/providers`.
 * Docs: https://www.freshbooks.com/api/authentication
 *
 * @example
 * ```ts
 * import FreshBooks from "latchkey/providers/freshbooks"
 * const provider = FreshBooks() // AUTH_FRESHBOOKS_ID / AUTH_FRESHBOOKS_SECRET
 * ```
 */
export default function FreshBooks(options?: OAuthUserConfig<FreshBooksProfile>): OAuthConfig<FreshBooksProfile> {
  return oauthProvider(
    {
      id: "freshbooks",
      name: "FreshBooks",
      type: "oauth",
      authorization: { url: "https://auth.freshbooks.com/oauth/authorize", params: { scope: "user:profile:read" } },
      token: "https://api.freshbooks.com/auth/oauth/token",
      userinfo: "https://api.freshbooks.com/auth/api/v1/users/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: "https://api.freshbooks.com/auth/oauth/revoke" },
      docs: "https://www.freshbooks.com/api/authentication",
      style: { brandColor: "#0075DD" },
      profile: ({ response: user }) => ({
        id: String(user.id),
        name: [user.first_name, user.last_name].filter(Boolean).join(" ") || null,
        email: user.email,
        image: null,
      }),
    },
    options
  )
}
