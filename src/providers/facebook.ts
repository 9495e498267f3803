import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The User node of `GET /me?fields=id,name,email,picture` (Graph API v26.0).
 *
 * @example
 * ```ts
 * import Facebook, { type FacebookProfile } from "latchkey/providers/facebook"
 * const provider = Facebook({
 *   profile: (profile: FacebookProfile) => ({ id: profile.id, name: profile.first_name ?? profile.name ?? null, email: profile.email ?? null }),
 * })
 * ```
 */
export interface FacebookProfile {
  /** The app-scoped user id: stable for this app, different in every other app. */
  id: string
  name?: string
  first_name?: string
  last_name?: string
  /** Present with the `email` permission, and only when the account has a usable address. */
  email?: string
  picture?: { data: { height: number; width: number; is_silhouette: boolean; url: string } }
  [field: string]: unknown
}

/**
 * Sign in with Facebook (Facebook Login, OAuth 2.0 through the Graph API).
 *
 * Setup: create a Meta app at https://developers.facebook.com/apps with the "Authenticate and
 * request data from users with Facebook Login" use case, and add `<base>/callback/facebook` to
 * "Valid OAuth Redirect URIs"; set `AUTH_FACEBOOK_ID` and `AUTH_FACEBOOK_SECRET` (the App ID and
 * App Secret).
 *
 * Quirks, handled for you: the Graph API returns only the `id` unless the fields are named, so the
 * profile request asks for `id,name,email,picture`; the code flow is protected with `state`, as the
 * manual login flow documents (Meta's PKCE support is limited to its OpenID Connect variant, still
 * in testing). Facebook issues no refresh tokens (long-lived tokens are an exchange of their own)
 * and has no RFC 7009 revocation, so both are flagged off. Endpoints are pinned to Graph API
 * v26.0; pass your own URLs to use another version.
 *
 * Exported from `latchkey/providers/facebook` and `latchkey/providers`.
 * Docs: https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow
 *
 * @example
 * ```ts
 * import Facebook from "latchkey/providers/facebook"
 * const provider = Facebook({ userinfo: { params: { fields: "id,name,email,picture.width(400)" } } })
 * ```
 */
export default function Facebook(options?: OAuthUserConfig<FacebookProfile>): OAuthConfig<FacebookProfile> {
  return oauthProvider(
    {
      id: "facebook",
      name: "Facebook",
      type: "oauth",
      authorization: { url: "https://www.facebook.com/v26.0/dialog/oauth", params: { scope: "email public_profile" } },
      token: "https://graph.facebook.com/v26.0/oauth/access_token",
      userinfo: { url: "https://graph.facebook.com/v26.0/me", params: { fields: "id,name,email,picture" } },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow",
      style: { brandColor: "#0866FF", mark: () => import("./logos/facebook.js") },
      profile: (profile) => ({ id: profile.id, name: profile.name ?? null, email: profile.email ?? null, image: profile.picture?.data.url ?? null }),
    },
    options
  )
}
