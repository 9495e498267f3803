import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET https://api.coinbase.com/v2/user`.
 *
 * @example
 * ```ts
 * import Coinbase, { type CoinbaseProfile } from "latchkey/providers/coinbase"
 * const provider = Coinbase({
 *   profile: ({ data }: CoinbaseProfile) => ({ id: data.id, name: data.username ?? data.name, email: data.email ?? null, image: data.avatar_url }),
 * })
 * ```
 */
export interface CoinbaseProfile {
  data: {
    id: string
    name: string | null
    username: string | null
    profile_location: string | null
    profile_bio: string | null
    profile_url: string | null
    avatar_url: string
    resource: "user"
    resource_path: string
    /** Present with the `wallet:user:email` scope. */
    email?: string
    /** Present with the `wallet:user:read` scope. */
    time_zone?: string
    native_currency?: string
    country?: { code: string; name: string }
    created_at?: string
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Sign in with Coinbase (the Coinbase App's OAuth 2.0).
 *
 * Setup: in the CDP Portal (https://portal.cdp.coinbase.com), under API Keys → OAuth, create a
 * client with the redirect URI `<base>/callback/coinbase` and the `wallet:user:read` and
 * `wallet:user:email` scopes; set `AUTH_COINBASE_ID` and `AUTH_COINBASE_SECRET`. Coinbase
 * currently limits new OAuth clients to approved partners.
 *
 * Quirks, handled for you: the client credentials go in the token request body; PKCE and `state`
 * are both sent, as Coinbase recommends. Refresh tokens are issued only with the `offline_access`
 * scope, and each can be used once: `authorization: { params: { scope: "wallet:user:read wallet:user:email offline_access" } }`.
 *
 * Exported from `latchkey/providers/coinbase` and `latchkey/providers`.
 * Docs: https://docs.cdp.coinbase.com/coinbase-app/oauth2-integration/integrations
 *
 * @example
 * ```ts
 * import Coinbase from "latchkey/providers/coinbase"
 * const provider = Coinbase() // AUTH_COINBASE_ID / AUTH_COINBASE_SECRET
 * ```
 */
export default function Coinbase(options?: OAuthUserConfig<CoinbaseProfile>): OAuthConfig<CoinbaseProfile> {
  return oauthProvider(
    {
      id: "coinbase",
      name: "Coinbase",
      type: "oauth",
      authorization: { url: "https://login.coinbase.com/oauth2/auth", params: { scope: "wallet:user:read wallet:user:email" } },
      token: "https://login.coinbase.com/oauth2/token",
      userinfo: "https://api.coinbase.com/v2/user",
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: "https://login.coinbase.com/oauth2/revoke" },
      docs: "https://docs.cdp.coinbase.com/coinbase-app/oauth2-integration/integrations",
      style: { brandColor: "#0052FF", mark: () => import("./logos/coinbase.js") },
      profile: ({ data }) => ({ id: data.id, name: data.name ?? data.username, email: data.email ?? null, image: data.avatar_url || null }),
    },
    options
  )
}
