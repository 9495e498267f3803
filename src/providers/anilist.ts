import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The GraphQL response to the `Viewer` query latchkey sends.
 *
 * @example
 * ```ts
 * import AniList, { type AniListProfile } from "latchkey/providers/anilist"
 * const provider = AniList({
 *   profile: ({ data: { Viewer: viewer } }: AniListProfile) => ({ id: String(viewer.id), name: viewer.name, image: viewer.avatar?.medium ?? null }),
 * })
 * ```
 */
export interface AniListProfile {
  data: {
    Viewer: {
      id: number
      name: string
      avatar?: { large?: string | null; medium?: string | null } | null
      bannerImage?: string | null
      siteUrl?: string
      [field: string]: unknown
    }
  }
  [field: string]: unknown
}

/**
 * Sign in with AniList (OAuth 2.0; the profile comes from its GraphQL API).
 *
 * Setup: create a client at https://anilist.co/settings/developer with the redirect URL
 * `<base>/callback/anilist`; set `AUTH_ANILIST_ID` and `AUTH_ANILIST_SECRET`.
 *
 * Quirks, handled for you: there is no REST userinfo endpoint, so the profile is read with a
 * GraphQL `Viewer` query POSTed to `https://graphql.anilist.co`; the client secret goes in the
 * token request body, as AniList documents. AniList has no scopes, documents no PKCE (the flow is
 * protected with `state`) and never shares the email address, so `email` is always `null`.
 * Access tokens last a year and come without a refresh token.
 *
 * Exported from `latchkey/providers/anilist` and `latchkey/providers`.
 * Docs: https://docs.anilist.co/guide/auth/authorization-code
 *
 * @example
 * ```ts
 * import AniList from "latchkey/providers/anilist"
 * const provider = AniList() // AUTH_ANILIST_ID / AUTH_ANILIST_SECRET
 * ```
 */
export default function AniList(options?: OAuthUserConfig<AniListProfile>): OAuthConfig<AniListProfile> {
  return oauthProvider(
    {
      id: "anilist",
      name: "AniList",
      type: "oauth",
      authorization: "https://anilist.co/api/v2/oauth/authorize",
      token: "https://anilist.co/api/v2/oauth/token",
      userinfo: {
        url: "https://graphql.anilist.co",
        request: ({ provider, fetchJson }) =>
          fetchJson(provider.userinfo.url!, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ query: "{Viewer{id name avatar{large medium} bannerImage siteUrl}}" }),
          }),
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://docs.anilist.co/guide/auth/authorization-code",
      style: { brandColor: "#02A9FF", mark: () => import("./logos/anilist.js") },
      profile: ({ data: { Viewer: viewer } }) => ({
        id: String(viewer.id),
        name: viewer.name,
        email: null,
        image: viewer.avatar?.large ?? viewer.avatar?.medium ?? null,
      }),
    },
    options
  )
}
