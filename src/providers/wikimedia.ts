import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET /w/rest.php/oauth2/resource/profile` (MediaWiki OAuth extension).
 *
 * @example
 * ```ts
 * import Wikimedia, { type WikimediaProfile } from "latchkey/providers/wikimedia"
 * const provider = Wikimedia({
 *   profile: (profile: WikimediaProfile) => ({ id: String(profile.sub), name: profile.username ?? null, email: profile.confirmed_email ? profile.email : null }),
 * })
 * ```
 */
export interface WikimediaProfile {
  /** The central (global) user id. */
  sub: number | string
  /** The fields below are left out for suppressed (hidden) accounts. */
  username?: string
  editcount?: number
  confirmed_email?: boolean
  blocked: boolean
  registered?: string
  groups?: string[]
  rights?: string[]
  grants?: string[]
  /** Only with the "User identity verification only, with access to real name and email address" grant. */
  realname?: string
  /** Only with the same grant as `realname`. */
  email?: string
  [field: string]: unknown
}

/**
 * Sign in with a Wikimedia account (Wikipedia, Wikimedia Commons and the sister projects; OAuth 2.0
 * through the MediaWiki OAuth extension on Meta-Wiki).
 *
 * Setup: propose an OAuth 2.0 consumer at
 * https://meta.wikimedia.org/wiki/Special:OAuthConsumerRegistration/propose/oauth2 with the
 * callback URL `<base>/callback/wikimedia`, choosing "User identity verification only, with
 * access to real name and email address" for sign-in with email; set `AUTH_WIKIMEDIA_ID` and
 * `AUTH_WIKIMEDIA_SECRET`. Until an administrator approves it, only the proposing account can use it.
 *
 * The grants are fixed when the consumer is registered, so no `scope` is sent, which MediaWiki
 * reads as `#default`: all of the consumer's grants. `email` is `null` unless the consumer has the email grant and the address is
 * confirmed. Wikimedia accounts have no profile picture, so `image` is always `null`.
 *
 * Exported from `latchkey/providers/wikimedia` and `latchkey/providers`.
 * Docs: https://www.mediawiki.org/wiki/OAuth/For_Developers
 *
 * @example
 * ```ts
 * import Wikimedia from "latchkey/providers/wikimedia"
 * const provider = Wikimedia() // AUTH_WIKIMEDIA_ID / AUTH_WIKIMEDIA_SECRET
 * ```
 */
export default function Wikimedia(options?: OAuthUserConfig<WikimediaProfile>): OAuthConfig<WikimediaProfile> {
  return oauthProvider(
    {
      id: "wikimedia",
      name: "Wikimedia",
      type: "oauth",
      authorization: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize",
      token: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
      userinfo: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
      capabilities: { refresh: true, revocation: false },
      docs: "https://www.mediawiki.org/wiki/OAuth/For_Developers",
      style: { brandColor: "#006699" },
      profile: (profile) => ({
        id: String(profile.sub),
        name: profile.username ?? null,
        email: profile.confirmed_email ? (profile.email ?? null) : null,
        image: null,
      }),
    },
    options
  )
}
