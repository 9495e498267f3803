import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The GraphQL response to the `currentUser` query latchkey sends.
 *
 * @example
 * ```ts
 * import StartGG, { type StartGGProfile } from "latchkey/providers/startgg"
 * const provider = StartGG({
 *   profile: ({ data: { currentUser: user } }: StartGGProfile) => ({ id: String(user.id), name: user.player?.gamerTag ?? user.slug, email: user.email ?? null }),
 * })
 * ```
 */
export interface StartGGProfile {
  data: {
    currentUser: {
      id: number
      slug: string
      name?: string | null
      /** With the `user.email` scope. */
      email?: string | null
      player?: { id: number; gamerTag: string; prefix?: string | null } | null
      images?: { id?: string; type: string; url: string }[] | null
      [field: string]: unknown
    }
  }
  [field: string]: unknown
}

const SCOPE = "user.identity user.email"

/**
 * Sign in with start.gg (formerly smash.gg; OAuth 2.0, the profile from its GraphQL API).
 *
 * Setup: create an OAuth application in your start.gg developer settings
 * (https://start.gg/admin/profile/developer) with the redirect URI `<base>/callback/startgg`; set
 * `AUTH_STARTGG_ID` and `AUTH_STARTGG_SECRET`.
 *
 * Quirks, handled for you: the token request must repeat the scope, so it is sent there too (pass
 * the same `scope` in `token.params` when you change it); the client secret goes in the request
 * body. The profile is read with a GraphQL `currentUser` query POSTed to
 * `https://api.start.gg/gql/alpha`; the name is the player's gamer tag. start.gg documents no
 * PKCE, so the flow is protected with `state`. Its refresh requests go to a separate
 * `/oauth/refresh` endpoint and repeat the scope and redirect URI, which latchkey's standard
 * refresh request does not send, so refresh is flagged off.
 *
 * Exported from `latchkey/providers/startgg` and `latchkey/providers`.
 * Docs: https://developer.start.gg/docs/oauth/oauth-overview
 *
 * @example
 * ```ts
 * import StartGG from "latchkey/providers/startgg"
 * const provider = StartGG() // AUTH_STARTGG_ID / AUTH_STARTGG_SECRET
 * ```
 */
export default function StartGG(options?: OAuthUserConfig<StartGGProfile>): OAuthConfig<StartGGProfile> {
  return oauthProvider(
    {
      id: "startgg",
      name: "start.gg",
      type: "oauth",
      authorization: { url: "https://start.gg/oauth/authorize", params: { scope: SCOPE } },
      token: { url: "https://api.start.gg/oauth/access_token", params: { scope: SCOPE } },
      userinfo: {
        url: "https://api.start.gg/gql/alpha",
        request: ({ provider, fetchJson }) =>
          fetchJson(provider.userinfo.url!, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ query: "{currentUser{id slug name email player{id gamerTag prefix} images{id type url}}}" }),
          }),
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://developer.start.gg/docs/oauth/oauth-overview",
      style: { brandColor: "#3F80FF", mark: () => import("./logos/startgg.js") },
      profile: ({ data: { currentUser: user } }) => ({
        id: String(user.id),
        name: user.player?.gamerTag ?? user.name ?? user.slug,
        email: user.email ?? null,
        image: user.images?.find((image) => image.type === "profile")?.url ?? null,
      }),
    },
    options
  )
}
