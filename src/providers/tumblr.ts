import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * One blog of the user, as `/v2/user/info` lists it.
 *
 * @example
 * ```ts
 * import type { TumblrBlog } from "latchkey/providers/tumblr"
 * const primaryBlogUrl = (blogs: TumblrBlog[]) => blogs.find((blog) => blog.primary)?.url ?? null
 * ```
 */
export interface TumblrBlog {
  name: string
  title: string
  url: string
  /** The stable blog identifier, such as `t:0aY0xL2Fi1OFJg4YxpmegQ`. */
  uuid?: string
  primary: boolean
  followers?: number
  type?: "public" | "private"
  avatar?: { width: number; height: number; url: string }[]
  [field: string]: unknown
}

/**
 * The response of `GET https://api.tumblr.com/v2/user/info`.
 *
 * @example
 * ```ts
 * import Tumblr, { type TumblrProfile } from "latchkey/providers/tumblr"
 * const provider = Tumblr({
 *   profile: ({ response: { user } }: TumblrProfile) => ({ id: user.name, name: user.blogs.find((blog) => blog.primary)?.title ?? user.name }),
 * })
 * ```
 */
export interface TumblrProfile {
  meta: { status: number; msg: string }
  response: {
    user: {
      /** The user's short name: the name of their primary blog. */
      name: string
      likes: number
      following: number
      default_post_format: string
      blogs: TumblrBlog[]
      [field: string]: unknown
    }
  }
  [field: string]: unknown
}

/**
 * Sign in with Tumblr (OAuth 2.0).
 *
 * Setup: register an application at https://www.tumblr.com/oauth/apps and set its OAuth2 redirect
 * URL to `<base>/callback/tumblr`; set `AUTH_TUMBLR_ID` and `AUTH_TUMBLR_SECRET` (the OAuth
 * consumer key and secret).
 *
 * Quirks, handled for you: Tumblr wants the client secret in the token request body and requires
 * `state` (it has no PKCE); its token response carries `"id_token": false`, which is dropped so it
 * is not mistaken for an id_token. A Tumblr user has no id of its own, so the account is keyed to
 * the primary blog's `uuid` (stable across renames), with its avatar as the image. Tumblr shares
 * no email address, so `email` is always `null`. Refresh is flagged off: refresh responses carry
 * the same `id_token: false`, which latchkey's refresh request does not yet drop.
 *
 * Exported from `latchkey/providers/tumblr` and `latchkey/providers`.
 * Docs: https://www.tumblr.com/docs/en/api/v2
 *
 * @example
 * ```ts
 * import Tumblr from "latchkey/providers/tumblr"
 * const provider = Tumblr({ authorization: { params: { scope: "basic write" } } })
 * ```
 */
export default function Tumblr(options?: OAuthUserConfig<TumblrProfile>): OAuthConfig<TumblrProfile> {
  return oauthProvider(
    {
      id: "tumblr",
      name: "Tumblr",
      type: "oauth",
      authorization: { url: "https://www.tumblr.com/oauth2/authorize", params: { scope: "basic" } },
      token: {
        url: "https://api.tumblr.com/v2/oauth2/token",
        async conform(response) {
          const body = await response.json().catch(() => null)
          if (body?.id_token !== false) return undefined
          delete body.id_token
          return Response.json(body, { status: response.status })
        },
      },
      userinfo: "https://api.tumblr.com/v2/user/info",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://www.tumblr.com/docs/en/api/v2",
      style: { brandColor: "#001935" },
      profile: ({ response: { user } }) => {
        const blog = user.blogs.find((entry) => entry.primary)
        return { id: blog?.uuid ?? user.name, name: user.name, email: null, image: blog?.avatar?.[0]?.url ?? null }
      },
    },
    options
  )
}
