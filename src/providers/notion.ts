import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * A Notion person user, as the token response's `owner.user` and `/v1/users/me` carry it.
 *
 * @example
 * ```ts
 * import Notion, { type NotionProfile } from "latchkey/providers/notion"
 * const provider = Notion({
 *   profile: (profile: NotionProfile) => ({ id: profile.id, name: profile.name ?? "Notion user", email: profile.person?.email ?? null }),
 * })
 * ```
 */
export interface NotionProfile {
  object: "user"
  id: string
  type?: "person"
  name?: string | null
  avatar_url?: string | null
  /** The email address; present when the integration has the "Read user information including email addresses" capability. */
  person?: { email?: string }
  [field: string]: unknown
}

/** Who installed the integration: a user, or (for internal integrations) the workspace. */
interface NotionOwner {
  type: "user" | "workspace"
  user?: NotionProfile
}

/** The API version the profile request is made with. */
const NOTION_VERSION = "2025-09-03"

/**
 * Sign in with Notion (OAuth 2.0, public integrations).
 *
 * Setup: create a public integration at https://www.notion.so/profile/integrations with the
 * redirect URI `<base>/callback/notion` and the capability "Read user information including email
 * addresses"; set `AUTH_NOTION_ID` (the OAuth client ID) and `AUTH_NOTION_SECRET`.
 *
 * Quirks, handled for you: the authorization asks for `owner=user`; the token endpoint takes HTTP
 * Basic authentication with a JSON body, so the code is exchanged by a custom request; the user
 * comes from the token response's `owner.user` (or, failing that, from the bot owner of
 * `/v1/users/me`, called with the `Notion-Version` header); Notion documents no PKCE, so `state`
 * protects the flow. Its refresh grant also wants a JSON body, which the standard refresh does not
 * send, so refresh is flagged off.
 *
 * Exported from `latchkey/providers/notion` and `latchkey/providers`.
 * Docs: https://developers.notion.com/docs/authorization
 *
 * @example
 * ```ts
 * import Notion from "latchkey/providers/notion"
 * const provider = Notion() // AUTH_NOTION_ID / AUTH_NOTION_SECRET
 * ```
 */
export default function Notion(options?: OAuthUserConfig<NotionProfile>): OAuthConfig<NotionProfile> {
  return oauthProvider(
    {
      id: "notion",
      name: "Notion",
      type: "oauth",
      authorization: { url: "https://api.notion.com/v1/oauth/authorize", params: { owner: "user" } },
      token: {
        url: "https://api.notion.com/v1/oauth/token",
        async request({ params, provider, redirectUri, fetch }) {
          const response = await fetch(provider.token.url!, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json",
              authorization: `Basic ${btoa(`${provider.clientId}:${provider.clientSecret ?? ""}`)}`,
            },
            body: JSON.stringify({ grant_type: "authorization_code", code: params.get("code"), redirect_uri: redirectUri }),
          })
          // Errors are RFC 6749 bodies already; the flow reports them as token errors.
          return { tokens: await response.json() }
        },
      },
      userinfo: {
        url: "https://api.notion.com/v1/users/me",
        async request({ tokens, provider, fetchJson }) {
          const owner = tokens.owner as NotionOwner | undefined
          if (owner?.user) return owner.user
          const bot = await fetchJson<{ bot?: { owner?: NotionOwner } }>(provider.userinfo.url!, { headers: { "notion-version": NOTION_VERSION } })
          return bot.bot?.owner?.user as NotionProfile
        },
      },
      checks: ["state"],
      capabilities: { refresh: false, revocation: false },
      docs: "https://developers.notion.com/docs/authorization",
      style: { brandColor: "#000000", mark: () => import("./logos/notion.js") },
      profile: (profile) => ({ id: profile.id, name: profile.name ?? null, email: profile.person?.email ?? null, image: profile.avatar_url ?? null }),
    },
    options
  )
}
