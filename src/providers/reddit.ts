import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The account of `GET https://oauth.reddit.com/api/v1/me` (`identity` scope).
 *
 * @example
 * ```ts
 * import Reddit, { type RedditProfile } from "latchkey/providers/reddit"
 * const provider = Reddit({
 *   profile: (profile: RedditProfile) => ({ id: profile.id, name: `u/${profile.name}`, image: profile.snoovatar_img || profile.icon_img || null }),
 * })
 * ```
 */
export interface RedditProfile {
  /** The account id, without the `t2_` prefix. */
  id: string
  /** The username. */
  name: string
  icon_img?: string
  snoovatar_img?: string
  created_utc?: number
  verified?: boolean
  has_verified_email?: boolean
  is_employee?: boolean
  over_18?: boolean
  link_karma?: number
  comment_karma?: number
  total_karma?: number
  /** The user's profile subreddit (`u_<name>`). */
  subreddit?: { display_name_prefixed?: string; title?: string; public_description?: string; [field: string]: unknown } | null
  [field: string]: unknown
}

/**
 * Reddit options: everything in {@link OAuthUserConfig}, plus the User-Agent Reddit asks for.
 *
 * @example
 * ```ts
 * import Reddit, { type RedditUserConfig } from "latchkey/providers/reddit"
 * const options: RedditUserConfig = { userAgent: "web:dev.acme.app:2.1 (by /u/acme_dev)", authorization: { params: { duration: "permanent" } } }
 * const provider = Reddit(options)
 * ```
 */
export interface RedditUserConfig extends OAuthUserConfig<RedditProfile> {
  /**
   * The User-Agent for every request to Reddit, in Reddit's recommended form
   * `<platform>:<app id>:<version> (by /u/<your username>)`. Default: `web:<client id>:latchkey`.
   */
  userAgent?: string
}

/**
 * Sign in with Reddit (OAuth 2.0).
 *
 * Setup: create a "web app" at https://www.reddit.com/prefs/apps with the redirect uri
 * `<base>/callback/reddit`; set `AUTH_REDDIT_ID` and `AUTH_REDDIT_SECRET`.
 *
 * Quirks, handled for you: Reddit throttles or blocks generic User-Agents, so the code exchange
 * (a custom request, with HTTP Basic client authentication) and the profile request send a
 * descriptive one, which you can set with `userAgent`; `duration=permanent` is asked for so
 * Reddit issues a refresh token; the flow is protected with `state`, which Reddit requires (it has
 * no PKCE); the profile is requested with `raw_json=1`, so URLs come unescaped. Reddit shares no
 * email address, so `email` is always `null`.
 *
 * Exported from `latchkey/providers/reddit` and `latchkey/providers`.
 * Docs: https://github.com/reddit-archive/reddit/wiki/OAuth2
 *
 * @example
 * ```ts
 * import Reddit from "latchkey/providers/reddit"
 * const provider = Reddit({ userAgent: "web:com.example.app:1.0 (by /u/example)" })
 * ```
 */
export default function Reddit(options: RedditUserConfig = {}): OAuthConfig<RedditProfile> {
  const { userAgent, ...userOptions } = options
  const agent = (clientId: string) => userAgent ?? `web:${clientId}:latchkey`
  return oauthProvider(
    {
      id: "reddit",
      name: "Reddit",
      type: "oauth",
      authorization: { url: "https://www.reddit.com/api/v1/authorize", params: { scope: "identity", duration: "permanent" } },
      token: {
        url: "https://www.reddit.com/api/v1/access_token",
        async request({ params, provider, redirectUri, fetch }) {
          const response = await fetch(provider.token.url!, {
            method: "POST",
            headers: { authorization: `Basic ${btoa(`${provider.clientId}:${provider.clientSecret ?? ""}`)}`, "user-agent": agent(provider.clientId) },
            body: new URLSearchParams({ grant_type: "authorization_code", code: params.get("code") ?? "", redirect_uri: redirectUri }),
          })
          return { tokens: await response.json() }
        },
      },
      userinfo: {
        url: "https://oauth.reddit.com/api/v1/me",
        params: { raw_json: "1" },
        request: ({ provider, fetchJson }) =>
          fetchJson(`${provider.userinfo.url}?${new URLSearchParams(provider.userinfo.params)}`, { headers: { "user-agent": agent(provider.clientId) } }),
      },
      checks: ["state"],
      capabilities: { refresh: true, revocation: "https://www.reddit.com/api/v1/revoke_token" },
      docs: "https://github.com/reddit-archive/reddit/wiki/OAuth2",
      style: { brandColor: "#FF4500", mark: () => import("./logos/reddit.js") },
      profile: (profile) => ({ id: profile.id, name: profile.name, email: null, image: profile.icon_img || null }),
    },
    userOptions
  )
}
