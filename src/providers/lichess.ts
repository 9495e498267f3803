import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET https://lichess.org/api/account`, with the address from `/api/account/email`.
 *
 * @example
 * ```ts
 * import Lichess, { type LichessProfile } from "latchkey/providers/lichess"
 * const provider = Lichess({
 *   profile: (profile: LichessProfile) => ({ id: profile.id, name: profile.profile?.realName ?? profile.username, email: profile.email ?? null }),
 * })
 * ```
 */
export interface LichessProfile {
  /** The lowercased username: the stable id. */
  id: string
  username: string
  /** Added by latchkey from `GET /api/account/email` (`email:read` scope); `null` without it. */
  email?: string | null
  title?: string
  flair?: string
  patron?: boolean
  verified?: boolean
  createdAt?: number
  seenAt?: number
  disabled?: boolean
  tosViolation?: boolean
  url?: string
  profile?: {
    flag?: string
    location?: string
    bio?: string
    realName?: string
    fideRating?: number
    links?: string
    [field: string]: unknown
  }
  perfs?: Record<string, unknown>
  playTime?: { total: number; tv: number }
  [field: string]: unknown
}

/**
 * Sign in with Lichess (OAuth 2.0 with PKCE, a public client).
 *
 * Setup: nothing to register. Lichess clients are public: `AUTH_LICHESS_ID` is any identifier you
 * choose for your app (shown to users), no secret is needed or sent, and any redirect URI is
 * accepted, so pass `<base>/callback/lichess`.
 *
 * Quirks, handled for you: the token request authenticates with PKCE alone
 * (`token_endpoint_auth_method: "none"`). The account does not include the email address, so it is
 * read from `/api/account/email` with the `email:read` scope and added as `email` (`null` when that
 * scope is not granted). Access tokens last a year and cannot be refreshed; Lichess revokes them
 * with `DELETE /api/token`, not RFC 7009. Lichess has no profile pictures.
 *
 * Exported from `latchkey/providers/lichess` and `latchkey/providers`.
 * Docs: https://lichess.org/api#tag/OAuth
 *
 * @example
 * ```ts
 * import Lichess from "latchkey/providers/lichess"
 * const provider = Lichess({ clientId: "example.com", authorization: { params: { scope: "email:read challenge:write" } } })
 * ```
 */
export default function Lichess(options?: OAuthUserConfig<LichessProfile>): OAuthConfig<LichessProfile> {
  return oauthProvider(
    {
      id: "lichess",
      name: "Lichess",
      type: "oauth",
      authorization: { url: "https://lichess.org/oauth", params: { scope: "email:read" } },
      token: "https://lichess.org/api/token",
      userinfo: {
        url: "https://lichess.org/api/account",
        async request({ provider, fetchJson }) {
          const url = provider.userinfo.url!
          const [account, address] = await Promise.all([
            fetchJson<LichessProfile>(url),
            fetchJson<{ email?: string }>(`${url}/email`).catch(() => ({ email: undefined })),
          ])
          return { ...account, email: address.email ?? null }
        },
      },
      client: { token_endpoint_auth_method: "none" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://lichess.org/api#tag/OAuth",
      style: { brandColor: "#000000", mark: () => import("./logos/lichess.js") },
      profile: (profile) => ({ id: profile.id, name: profile.username, email: profile.email ?? null, image: null }),
    },
    options
  )
}
