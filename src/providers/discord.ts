import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user object of `GET /users/@me`.
 *
 * @example
 * ```ts
 * import Discord, { type DiscordProfile } from "latchkey/providers/discord"
 * const provider = Discord({
 *   profile: (profile: DiscordProfile) => ({ id: profile.id, name: profile.username, email: profile.verified ? profile.email : null }),
 * })
 * ```
 */
export interface DiscordProfile {
  id: string
  username: string
  /** "0" for users on the unique-username system. */
  discriminator: string
  global_name: string | null
  avatar: string | null
  bot?: boolean
  system?: boolean
  mfa_enabled?: boolean
  banner?: string | null
  accent_color?: number | null
  locale?: string
  /** Present with the `email` scope. */
  verified?: boolean
  /** Present with the `email` scope; null when the account has none. */
  email?: string | null
  flags?: number
  premium_type?: number
  public_flags?: number
  [field: string]: unknown
}

/** The CDN URL of the user's avatar, or of the default avatar Discord shows for them. */
function avatarUrl(profile: DiscordProfile): string {
  if (profile.avatar) {
    const format = profile.avatar.startsWith("a_") ? "gif" : "png"
    return `https://cdn.discordapp.com/avatars/${profile.id}/${profile.avatar}.${format}`
  }
  const index = profile.discriminator === "0" ? Number((BigInt(profile.id) >> 22n) % 6n) : Number(profile.discriminator) % 5
  return `https://cdn.discordapp.com/embed/avatars/${index}.png`
}

/**
 * Sign in with Discord (OAuth 2.0).
 *
 * Setup: create an application at https://discord.com/developers/applications, add the redirect
 * `<base>/callback/discord` under OAuth2; set `AUTH_DISCORD_ID` and `AUTH_DISCORD_SECRET`.
 *
 * Exported from `latchkey/providers/discord` and `latchkey/providers`.
 * Docs: https://discord.com/developers/docs/topics/oauth2
 *
 * @example
 * ```ts
 * import Discord from "latchkey/providers/discord"
 * const provider = Discord({ authorization: { params: { scope: "identify email guilds" } } })
 * ```
 */
export default function Discord(options?: OAuthUserConfig<DiscordProfile>): OAuthConfig<DiscordProfile> {
  return oauthProvider(
    {
      id: "discord",
      name: "Discord",
      type: "oauth",
      authorization: { url: "https://discord.com/oauth2/authorize", params: { scope: "identify email" } },
      token: "https://discord.com/api/oauth2/token",
      userinfo: "https://discord.com/api/users/@me",
      capabilities: { refresh: true, revocation: "https://discord.com/api/oauth2/token/revoke" },
      docs: "https://discord.com/developers/docs/topics/oauth2",
      style: { brandColor: "#5865F2", mark: () => import("./logos/discord.js") },
      profile: (profile) => ({ id: profile.id, name: profile.global_name ?? profile.username, email: profile.email ?? null, image: avatarUrl(profile) }),
    },
    options
  )
}
