import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The `viewer` (the authorized user) of Linear's GraphQL API, as latchkey queries it.
 *
 * @example
 * ```ts
 * import Linear, { type LinearProfile } from "latchkey/providers/linear"
 * const provider = Linear({
 *   profile: (profile: LinearProfile) => ({ id: profile.id, name: profile.displayName, email: profile.email, image: profile.avatarUrl }),
 * })
 * ```
 */
export interface LinearProfile {
  id: string
  name: string
  displayName: string
  email: string
  avatarUrl: string | null
  [field: string]: unknown
}

/** Fields of the signed-in user; `viewer` needs only the `read` scope. */
const VIEWER = JSON.stringify({ query: "{ viewer { id name displayName email avatarUrl } }" })

/**
 * Sign in with Linear (OAuth 2.0 with PKCE).
 *
 * Setup: in a workspace's settings (API → OAuth applications), create an application with the
 * callback URL `<base>/callback/linear`; set `AUTH_LINEAR_ID` and `AUTH_LINEAR_SECRET`.
 *
 * Quirks, handled for you: Linear has no REST profile endpoint, so the user is read with a GraphQL
 * `viewer` query (a POST to the GraphQL endpoint); the client credentials go in the token request
 * body. Access tokens expire after a day and come with a rotating refresh token.
 *
 * Exported from `latchkey/providers/linear` and `latchkey/providers`.
 * Docs: https://linear.app/developers/oauth-2-0-authentication
 *
 * @example
 * ```ts
 * import Linear from "latchkey/providers/linear"
 * const provider = Linear({ authorization: { params: { scope: "read,write" } } })
 * ```
 */
export default function Linear(options?: OAuthUserConfig<LinearProfile>): OAuthConfig<LinearProfile> {
  return oauthProvider(
    {
      id: "linear",
      name: "Linear",
      type: "oauth",
      authorization: { url: "https://linear.app/oauth/authorize", params: { scope: "read" } },
      token: "https://api.linear.app/oauth/token",
      userinfo: {
        url: "https://api.linear.app/graphql",
        async request({ provider, fetchJson }) {
          const result = await fetchJson<{ data?: { viewer?: LinearProfile } }>(provider.userinfo.url!, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: VIEWER,
          })
          // GraphQL reports errors with HTTP 200 and no data; no viewer is then no profile.
          return result.data?.viewer as LinearProfile
        },
      },
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://linear.app/developers/oauth-2-0-authentication",
      style: { brandColor: "#5E6AD2", mark: () => import("./logos/linear.js") },
      profile: (profile) => ({ id: profile.id, name: profile.name || profile.displayName, email: profile.email, image: profile.avatarUrl }),
    },
    options
  )
}
