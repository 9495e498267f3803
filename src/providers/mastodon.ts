import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The CredentialAccount of `GET /api/v1/accounts/verify_credentials` (abridged).
 *
 * @example
 * ```ts
 * import Mastodon, { type MastodonProfile } from "latchkey/providers/mastodon"
 * const provider = Mastodon({
 *   baseUrl: "https://mastodon.social",
 *   profile: (profile: MastodonProfile) => ({ id: profile.id, name: profile.acct, image: profile.avatar_static }),
 * })
 * ```
 */
export interface MastodonProfile {
  /** Unique on its own server only. */
  id: string
  username: string
  /** `username@domain` for remote accounts; just `username` on its own server. */
  acct: string
  url: string
  display_name: string
  note: string
  avatar: string
  avatar_static: string
  header: string
  header_static: string
  locked: boolean
  bot: boolean
  discoverable: boolean | null
  group: boolean
  created_at: string
  last_status_at: string | null
  statuses_count: number
  followers_count: number
  following_count: number
  fields: { name: string; value: string; verified_at: string | null }[]
  emojis: unknown[]
  source: { note: string; fields: unknown[]; privacy: string; sensitive: boolean; language: string | null; follow_requests_count: number }
  role?: { id: string; name: string; color: string; permissions: string; highlighted: boolean }
  [field: string]: unknown
}

/**
 * Sign in with Mastodon (OAuth 2.0), on the server your app is registered with.
 *
 * Setup: register the app on that server, either with `POST /api/v1/apps` (`redirect_uris` =
 * `<base>/callback/mastodon`, `scopes` = `profile`) or under Preferences → Development; set
 * `AUTH_MASTODON_ID`, `AUTH_MASTODON_SECRET` and `AUTH_MASTODON_ISSUER` (or `baseUrl`), the
 * server's URL such as `https://mastodon.social`; a trailing slash is trimmed.
 *
 * The `profile` scope (Mastodon 4.3+) reads only the signed-in account; on older servers register
 * and request `read:accounts` instead. PKCE arrived in 4.3 too, so `state` is sent as well.
 * Mastodon never shares the email address, so `email` is always `null`; the account id is unique
 * only on its server. Tokens do not expire and come without a refresh token. `/oauth/revoke`
 * exists but is not declared: its URL depends on the server.
 *
 * Exported from `latchkey/providers/mastodon` and `latchkey/providers`.
 * Docs: https://docs.joinmastodon.org/client/authorized/
 *
 * @example
 * ```ts
 * import Mastodon from "latchkey/providers/mastodon"
 * const provider = Mastodon({ baseUrl: "https://mastodon.social" })
 * ```
 */
export default function Mastodon(options?: OAuthUserConfig<MastodonProfile>): OAuthConfig<MastodonProfile> {
  return oauthProvider(
    {
      id: "mastodon",
      name: "Mastodon",
      type: "oauth",
      authorization: { url: "{baseUrl}/oauth/authorize", params: { scope: "profile" } },
      token: "{baseUrl}/oauth/token",
      userinfo: "{baseUrl}/api/v1/accounts/verify_credentials",
      checks: ["pkce", "state"],
      capabilities: { refresh: false, revocation: false },
      docs: "https://docs.joinmastodon.org/client/authorized/",
      style: { brandColor: "#6364FF", mark: () => import("./logos/mastodon.js") },
      profile: (profile) => ({ id: profile.id, name: profile.display_name || profile.username, email: null, image: profile.avatar ?? null }),
    },
    options
  )
}
