import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET https://api.epicgames.dev/epic/oauth/v2/userInfo`.
 *
 * @example
 * ```ts
 * import EpicGames, { type EpicGamesProfile } from "latchkey/providers/epicgames"
 * const provider = EpicGames({
 *   profile: (profile: EpicGamesProfile) => ({ id: profile.sub, name: profile.preferred_username ?? "Epic player" }),
 * })
 * ```
 */
export interface EpicGamesProfile {
  /** The Epic Account ID. */
  sub: string
  /** The account's display name. */
  preferred_username?: string
  [field: string]: unknown
}

/**
 * Sign in with Epic Games (Epic Account Services, OAuth 2.0).
 *
 * Setup: in the Epic Developer Portal (https://dev.epicgames.com/portal), create a client for your
 * product and an Epic Account Services application linked to it, with the "Basic Profile"
 * permission and the redirect URL `<base>/callback/epicgames`; set `AUTH_EPICGAMES_ID` and
 * `AUTH_EPICGAMES_SECRET` (the client's id and secret).
 *
 * Epic documents no PKCE for web applications, so the flow is protected with `state`. Epic shares
 * neither an email address nor a picture: `email` and `image` are always `null`.
 *
 * Exported from `latchkey/providers/epicgames` and `latchkey/providers`.
 * Docs: https://dev.epicgames.com/docs/web-api-ref/authentication
 *
 * @example
 * ```ts
 * import EpicGames from "latchkey/providers/epicgames"
 * const provider = EpicGames({ authorization: { params: { scope: "basic_profile friends_list" } } })
 * ```
 */
export default function EpicGames(options?: OAuthUserConfig<EpicGamesProfile>): OAuthConfig<EpicGamesProfile> {
  return oauthProvider(
    {
      id: "epicgames",
      name: "Epic Games",
      type: "oauth",
      authorization: { url: "https://www.epicgames.com/id/authorize", params: { scope: "basic_profile" } },
      token: "https://api.epicgames.dev/epic/oauth/v2/token",
      userinfo: "https://api.epicgames.dev/epic/oauth/v2/userInfo",
      checks: ["state"],
      capabilities: { refresh: true, revocation: "https://api.epicgames.dev/epic/oauth/v2/revoke" },
      docs: "https://dev.epicgames.com/docs/web-api-ref/authentication",
      style: { brandColor: "#313131", mark: () => import("./logos/epicgames.js") },
      profile: (profile) => ({ id: profile.sub, name: profile.preferred_username ?? null, email: null, image: null }),
    },
    options
  )
}
