import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET /2/users/me` with `user.fields=profile_image_url,confirmed_email`.
 *
 * @example
 * ```ts
 * import Twitter, { type TwitterProfile } from "latchkey/providers/twitter"
 * const provider = Twitter({
 *   profile: ({ data }: TwitterProfile) => ({ id: data.id, name: `@${data.username}`, image: data.profile_image_url ?? null }),
 * })
 * ```
 */
export interface TwitterProfile {
  data: {
    id: string
    name: string
    username: string
    profile_image_url?: string
    /** Present only with the `users.email` scope, for apps allowed to request email. */
    confirmed_email?: string
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Sign in with X (formerly Twitter), OAuth 2.0 with PKCE. The id stays `twitter`.
 *
 * Setup: in the X developer portal, enable "User authentication settings" for your app (type "Web
 * App", a confidential client) with the callback URI `<base>/callback/twitter`, and turn on
 * "Request email from users"; set `AUTH_TWITTER_ID` and `AUTH_TWITTER_SECRET` (the OAuth 2.0
 * client id and secret, not the API key).
 *
 * Quirk: the email address needs the `users.email` scope, which X grants only to apps with email
 * access turned on. It is requested by default; without that setting, drop it:
 * `authorization: { params: { scope: "users.read tweet.read offline.access" } }`.
 *
 * Exported from `latchkey/providers/twitter` and `latchkey/providers`.
 * Docs: https://docs.x.com/resources/fundamentals/authentication/oauth-2-0/authorization-code
 *
 * @example
 * ```ts
 * import Twitter from "latchkey/providers/twitter"
 * const provider = Twitter() // AUTH_TWITTER_ID / AUTH_TWITTER_SECRET
 * ```
 */
export default function Twitter(options?: OAuthUserConfig<TwitterProfile>): OAuthConfig<TwitterProfile> {
  return oauthProvider(
    {
      id: "twitter",
      name: "X",
      type: "oauth",
      authorization: { url: "https://x.com/i/oauth2/authorize", params: { scope: "users.read tweet.read offline.access users.email" } },
      token: "https://api.x.com/2/oauth2/token",
      userinfo: "https://api.x.com/2/users/me?user.fields=profile_image_url,confirmed_email",
      checks: ["pkce", "state"],
      quirks: { scopeGatedEmail: "users.email" },
      capabilities: { refresh: true, revocation: "https://api.x.com/2/oauth2/revoke" },
      docs: "https://docs.x.com/resources/fundamentals/authentication/oauth-2-0/authorization-code",
      style: { brandColor: "#000000", mark: () => import("./logos/twitter.js") },
      profile: ({ data }) => ({ id: data.id, name: data.name, email: data.confirmed_email ?? null, image: data.profile_image_url ?? null }),
    },
    options
  )
}
