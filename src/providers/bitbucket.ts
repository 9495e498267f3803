import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user of `GET /2.0/user`, with `email` added from `GET /2.0/user/emails`.
 *
 * @example
 * ```ts
 * import Bitbucket, { type BitbucketProfile } from "latchkey/providers/bitbucket"
 * const provider = Bitbucket({
 *   profile: (profile: BitbucketProfile) => ({ id: profile.account_id, name: profile.nickname, email: profile.email ?? null, image: profile.links.avatar?.href ?? null }),
 * })
 * ```
 */
export interface BitbucketProfile {
  type: "user"
  /** The UUID in braces, such as `{b6f7…}`. */
  uuid: string
  account_id: string
  display_name: string
  nickname: string
  username?: string
  account_status?: string
  created_on?: string
  has_2fa_enabled?: boolean | null
  location?: string | null
  links: { avatar?: { href: string }; html?: { href: string }; self?: { href: string }; [link: string]: unknown }
  /** Not part of `/2.0/user`: the primary confirmed address, or null. */
  email?: string | null
  [field: string]: unknown
}

/**
 * One entry of `GET /2.0/user/emails`.
 *
 * @example
 * ```ts
 * import type { BitbucketEmail } from "latchkey/providers/bitbucket"
 * const confirmedAddresses = (emails: BitbucketEmail[]) => emails.filter((entry) => entry.is_confirmed).map((entry) => entry.email)
 * ```
 */
export interface BitbucketEmail {
  email: string
  is_primary: boolean
  is_confirmed: boolean
  type: "email"
}

/**
 * Sign in with Bitbucket Cloud (OAuth 2.0).
 *
 * Setup: in a workspace's settings, add an OAuth consumer (Apps and features → OAuth consumers)
 * with the callback URL `<base>/callback/bitbucket` and the "Account: Email" and "Account: Read"
 * permissions; set `AUTH_BITBUCKET_ID` (the Key) and `AUTH_BITBUCKET_SECRET` (the Secret).
 *
 * Quirks, handled for you: `/2.0/user` never includes an email address, so `/2.0/user/emails` is
 * asked for the primary confirmed one (none, or no `email` scope, gives a null email); Bitbucket
 * documents no PKCE, so `state` protects the flow.
 *
 * Exported from `latchkey/providers/bitbucket` and `latchkey/providers`.
 * Docs: https://developer.atlassian.com/cloud/bitbucket/oauth-2/
 *
 * @example
 * ```ts
 * import Bitbucket from "latchkey/providers/bitbucket"
 * const provider = Bitbucket({ authorization: { params: { scope: "account email repository" } } })
 * ```
 */
export default function Bitbucket(options?: OAuthUserConfig<BitbucketProfile>): OAuthConfig<BitbucketProfile> {
  return oauthProvider(
    {
      id: "bitbucket",
      name: "Bitbucket",
      type: "oauth",
      authorization: { url: "https://bitbucket.org/site/oauth2/authorize", params: { scope: "account email" } },
      token: "https://bitbucket.org/site/oauth2/access_token",
      userinfo: {
        url: "https://api.bitbucket.org/2.0/user",
        async request({ provider, fetchJson }) {
          const url = provider.userinfo.url!
          const [profile, emails] = await Promise.all([
            fetchJson<BitbucketProfile>(url),
            fetchJson<{ values?: BitbucketEmail[] }>(`${url}/emails`).catch(() => undefined),
          ])
          profile.email = emails?.values?.find((entry) => entry.is_primary && entry.is_confirmed)?.email ?? null
          return profile
        },
      },
      checks: ["state"],
      capabilities: { refresh: true, revocation: false },
      docs: "https://developer.atlassian.com/cloud/bitbucket/oauth-2/",
      style: { brandColor: "#0052CC", mark: () => import("./logos/bitbucket.js") },
      profile: (profile) => ({ id: profile.uuid, name: profile.display_name, email: profile.email ?? null, image: profile.links.avatar?.href ?? null }),
    },
    options
  )
}
