import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The Threads user of `GET graph.threads.com/v1.0/me` with the fields below.
 *
 * @example
 * ```ts
 * import Threads, { type ThreadsProfile } from "latchkey/providers/threads"
 * const provider = Threads({
 *   profile: (profile: ThreadsProfile) => ({ id: profile.id, name: `@${profile.username}`, image: profile.threads_profile_picture_url ?? null }),
 * })
 * ```
 */
export interface ThreadsProfile {
  /** The Threads user id, scoped to the app. */
  id: string
  username: string
  name?: string
  threads_profile_picture_url?: string
  threads_biography?: string
  is_verified?: boolean
  [field: string]: unknown
}

/**
 * Sign in with Threads (Meta's Threads API, OAuth 2.0).
 *
 * Setup: create a Meta app with the "Access the Threads API" use case at
 * https://developers.facebook.com/apps and add `<base>/callback/threads` to its redirect callback
 * URLs; set `AUTH_THREADS_ID` and `AUTH_THREADS_SECRET` (the Threads App ID and secret, not the
 * Meta app's).
 *
 * Quirks, handled for you: the code exchange answers `{ access_token, user_id }` without a
 * `token_type`, which the core reads as a Bearer token; the profile needs
 * its fields named. Threads shares no email address, so `email` is always `null`. Tokens are
 * extended and renewed by Meta's own `th_exchange_token` / `th_refresh_token` calls, not an OAuth
 * refresh grant, so refresh is flagged off.
 *
 * Exported from `latchkey/providers/threads` and `latchkey/providers`.
 * Docs: https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions
 *
 * @example
 * ```ts
 * import Threads from "latchkey/providers/threads"
 * const provider = Threads({ authorization: { params: { scope: "threads_basic,threads_content_publish" } } })
 * ```
 */
export default function Threads(options?: OAuthUserConfig<ThreadsProfile>): OAuthConfig<ThreadsProfile> {
  return oauthProvider(
    {
      id: "threads",
      name: "Threads",
      type: "oauth",
      authorization: { url: "https://threads.com/oauth/authorize", params: { scope: "threads_basic" } },
      // The current docs name graph.threads.com (graph.threads.net still answers):
      // https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions
      // https://developers.facebook.com/docs/threads/reference
      token: "https://graph.threads.com/oauth/access_token",
      client: { token_endpoint_auth_method: "client_secret_post" },
      userinfo: { url: "https://graph.threads.com/v1.0/me", params: { fields: "id,username,name,threads_profile_picture_url" } },
      checks: ["state"],
      capabilities: { refresh: false, revocation: false },
      docs: "https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions",
      style: { brandColor: "#000000", mark: () => import("./logos/threads.js") },
      profile: (profile) => ({ id: profile.id, name: profile.name || profile.username, email: null, image: profile.threads_profile_picture_url ?? null }),
    },
    options
  )
}
