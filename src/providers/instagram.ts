import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The IG User of `GET graph.instagram.com/v26.0/me` with the fields below.
 *
 * @example
 * ```ts
 * import Instagram, { type InstagramProfile } from "latchkey/providers/instagram"
 * const provider = Instagram({
 *   profile: (profile: InstagramProfile) => ({ id: profile.id, name: profile.username, image: profile.profile_picture_url ?? null }),
 * })
 * ```
 */
export interface InstagramProfile {
  /** The app-scoped id of the user, returned by default. */
  id: string
  /** The Instagram professional account id. */
  user_id?: string
  username: string
  name?: string
  /** `Business` or `Media_Creator`. */
  account_type?: string
  profile_picture_url?: string
  followers_count?: number
  follows_count?: number
  media_count?: number
  [field: string]: unknown
}

/**
 * Sign in with Instagram (Instagram API with Instagram Login, "Business Login for Instagram").
 * It signs in professional (Business and Creator) accounts; personal accounts cannot authorize.
 *
 * Setup: in a Meta app of type "Business" at https://developers.facebook.com/apps, add the
 * Instagram product, open "API setup with Instagram login" › "Set up Instagram business login" and
 * add `<base>/callback/instagram` as a redirect URL; set `AUTH_INSTAGRAM_ID` and
 * `AUTH_INSTAGRAM_SECRET` (the Instagram App ID and secret shown there, not the Meta app's).
 *
 * Quirks, handled for you: the code exchange at `api.instagram.com` answers without a
 * `token_type` (and, per Meta's reference, inside a `data` array), so it is a custom request that
 * unwraps the token and names it a bearer token; the profile needs its fields named. Instagram
 * shares no email address, so `email` is always `null`. Tokens are renewed by Meta's own
 * `ig_refresh_token` exchange, not an OAuth refresh grant, so refresh is flagged off.
 *
 * Exported from `latchkey/providers/instagram` and `latchkey/providers`.
 * Docs: https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login
 *
 * @example
 * ```ts
 * import Instagram from "latchkey/providers/instagram"
 * const provider = Instagram({ authorization: { params: { scope: "instagram_business_basic,instagram_business_content_publish" } } })
 * ```
 */
export default function Instagram(options?: OAuthUserConfig<InstagramProfile>): OAuthConfig<InstagramProfile> {
  return oauthProvider(
    {
      id: "instagram",
      name: "Instagram",
      type: "oauth",
      authorization: { url: "https://www.instagram.com/oauth/authorize", params: { scope: "instagram_business_basic" } },
      token: {
        url: "https://api.instagram.com/oauth/access_token",
        async request({ params, provider, redirectUri, fetch }) {
          const body = new URLSearchParams({
            client_id: provider.clientId,
            client_secret: provider.clientSecret ?? "",
            grant_type: "authorization_code",
            redirect_uri: redirectUri,
            code: params.get("code") ?? "",
          })
          const json = await (await fetch(provider.token.url!, { method: "POST", body })).json()
          return { tokens: { token_type: "bearer", ...(json.data?.[0] ?? json) } }
        },
      },
      userinfo: { url: "https://graph.instagram.com/v26.0/me", params: { fields: "id,user_id,username,name,account_type,profile_picture_url" } },
      checks: ["state"],
      capabilities: { refresh: false, revocation: false },
      docs: "https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login",
      style: { brandColor: "#FF0069", mark: () => import("./logos/instagram.js") },
      profile: (profile) => ({ id: profile.id, name: profile.name || profile.username, email: null, image: profile.profile_picture_url ?? null }),
    },
    options
  )
}
