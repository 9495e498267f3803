import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user object of `GET https://api.spotify.com/v1/me`.
 *
 * @example
 * ```ts
 * import Spotify, { type SpotifyProfile } from "latchkey/providers/spotify"
 * const provider = Spotify({
 *   profile: (profile: SpotifyProfile) => ({ id: profile.id, name: profile.display_name ?? profile.id, image: profile.images.at(-1)?.url ?? null }),
 * })
 * ```
 */
export interface SpotifyProfile {
  id: string
  display_name: string | null
  /** Present with the `user-read-email` scope; Spotify does not verify it. */
  email?: string
  images: { url: string; height: number | null; width: number | null }[]
  external_urls: { spotify: string }
  followers?: { href: string | null; total: number }
  href: string
  type: "user"
  uri: string
  /** With the `user-read-private` scope. */
  country?: string
  /** With the `user-read-private` scope. */
  product?: string
  explicit_content?: { filter_enabled: boolean; filter_locked: boolean }
  [field: string]: unknown
}

/**
 * Sign in with Spotify (OAuth 2.0 authorization code flow).
 *
 * Setup: create an app at https://developer.spotify.com/dashboard with the redirect URI
 * `<base>/callback/spotify` (Spotify refuses `localhost`; use `http://127.0.0.1` in development);
 * set `AUTH_SPOTIFY_ID` and `AUTH_SPOTIFY_SECRET`.
 *
 * The flow is protected with `state`, as Spotify documents for apps with a client secret (its PKCE
 * flow is for public clients). Spotify does not verify email addresses, so do not link accounts by
 * email without your own check. There is no revocation endpoint.
 *
 * Exported from `latchkey/providers/spotify` and `latchkey/providers`.
 * Docs: https://developer.spotify.com/documentation/web-api/tutorials/code-flow
 *
 * @example
 * ```ts
 * import Spotify from "latchkey/providers/spotify"
 * const provider = Spotify({ authorization: { params: { scope: "user-read-email playlist-read-private" } } })
 * ```
 */
export default function Spotify(options?: OAuthUserConfig<SpotifyProfile>): OAuthConfig<SpotifyProfile> {
  return oauthProvider(
    {
      id: "spotify",
      name: "Spotify",
      type: "oauth",
      authorization: { url: "https://accounts.spotify.com/authorize", params: { scope: "user-read-email" } },
      token: "https://accounts.spotify.com/api/token",
      userinfo: "https://api.spotify.com/v1/me",
      checks: ["state"],
      capabilities: { refresh: true, revocation: false },
      docs: "https://developer.spotify.com/documentation/web-api/tutorials/code-flow",
      style: { brandColor: "#1ED760", mark: () => import("./logos/spotify.js") },
      profile: (profile) => ({ id: profile.id, name: profile.display_name, email: profile.email ?? null, image: profile.images[0]?.url ?? null }),
    },
    options
  )
}
