import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"
import { readEnv } from "../env.js"

/**
 * The response of `GET /Platform/User/GetBungieNetUserById/{id}/`: a GeneralUser in the platform envelope.
 *
 * @example
 * ```ts
 * import Bungie, { type BungieProfile } from "latchkey/providers/bungie"
 * const provider = Bungie({
 *   profile: ({ Response: user }: BungieProfile) => ({ id: user.membershipId, name: user.uniqueName, image: `https://www.bungie.net${user.profilePicturePath}` }),
 * })
 * ```
 */
export interface BungieProfile {
  Response: {
    /** int64, sent as a string. */
    membershipId: string
    uniqueName: string
    normalizedName?: string
    displayName: string
    profilePicture: number
    profileTheme: number
    userTitle: number
    successMessageFlags: string
    isDeleted: boolean
    about: string
    firstAccess?: string
    lastUpdate?: string
    showActivity?: boolean
    locale: string
    localeInheritDefault: boolean
    showGroupMessaging: boolean
    /** Relative to https://www.bungie.net. */
    profilePicturePath: string
    profilePictureWidePath?: string
    profileThemeName: string
    userTitleDisplay: string
    statusText: string
    statusDate: string
    cachedBungieGlobalDisplayName: string
    cachedBungieGlobalDisplayNameCode?: number
    psnDisplayName?: string
    xboxDisplayName?: string
    steamDisplayName?: string
    [field: string]: unknown
  }
  ErrorCode: number
  ThrottleSeconds: number
  ErrorStatus: string
  Message: string
  MessageData: Record<string, string>
  [field: string]: unknown
}

/**
 * Bungie options: everything in {@link OAuthUserConfig}, plus the application's API key.
 *
 * @example
 * ```ts
 * import Bungie, { type BungieUserConfig } from "latchkey/providers/bungie"
 * const options: BungieUserConfig = { apiKey: process.env.BUNGIE_API_KEY, clientId: process.env.BUNGIE_CLIENT_ID }
 * const provider = Bungie(options)
 * ```
 */
export interface BungieUserConfig extends OAuthUserConfig<BungieProfile> {
  /** The application's API key, sent as `X-API-Key` on platform calls. Default: `AUTH_BUNGIE_API_KEY`. */
  apiKey?: string
}

/**
 * Sign in with Bungie.net (OAuth 2.0), for Destiny players.
 *
 * Setup: create an application at https://www.bungie.net/en/Application with the OAuth client type
 * "Confidential" and the redirect URL `<base>/callback/bungie`; set `AUTH_BUNGIE_ID`,
 * `AUTH_BUNGIE_SECRET` and `AUTH_BUNGIE_API_KEY` (or pass `apiKey`).
 *
 * Quirks, handled for you: the token response carries the user's `membership_id`, which fills the
 * `{membershipId}` in the profile URL; platform calls need the application's API key as
 * `X-API-Key`. The scope is fixed in the application settings and must not be sent. Bungie
 * documents no PKCE, so `state` guards the callback. Bungie never shares an email address, so
 * `email` is always `null`. Only confidential clients get refresh tokens.
 *
 * Exported from `latchkey/providers/bungie` and `latchkey/providers`.
 * Docs: https://github.com/Bungie-net/api/wiki/OAuth-Documentation
 *
 * @example
 * ```ts
 * import Bungie from "latchkey/providers/bungie"
 * const provider = Bungie({ apiKey: process.env.BUNGIE_API_KEY })
 * ```
 */
export default function Bungie(options: BungieUserConfig = {}): OAuthConfig<BungieProfile> {
  const { apiKey, ...userOptions } = options
  return oauthProvider(
    {
      id: "bungie",
      name: "Bungie",
      type: "oauth",
      authorization: "https://www.bungie.net/en/oauth/authorize",
      token: "https://www.bungie.net/platform/app/oauth/token/",
      userinfo: {
        url: "https://www.bungie.net/Platform/User/GetBungieNetUserById/{membershipId}/",
        request: ({ tokens, provider, fetchJson }) =>
          // URL parsing percent-encodes the braces of the template.
          fetchJson(provider.userinfo.url!.replace(/%7BmembershipId%7D|\{membershipId\}/, encodeURIComponent(String(tokens.membership_id))), {
            headers: { "x-api-key": apiKey ?? readEnv("AUTH_BUNGIE_API_KEY") ?? "" },
          }),
      },
      checks: ["state"],
      capabilities: { refresh: true, revocation: false },
      docs: "https://github.com/Bungie-net/api/wiki/OAuth-Documentation",
      style: { brandColor: "#0075BB", mark: () => import("./logos/bungie.js") },
      profile: ({ Response: user }) => ({
        id: user.membershipId,
        name: user.cachedBungieGlobalDisplayName || user.displayName,
        email: null,
        image: user.profilePicturePath ? `https://www.bungie.net${user.profilePicturePath}` : null,
      }),
    },
    userOptions
  )
}
