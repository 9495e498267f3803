import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET https://api.digitalocean.com/v2/account`.
 *
 * @example
 * ```ts
 * import type { DigitalOceanProfile } from "latchkey/providers/digitalocean"
 * const canSignIn = (profile: DigitalOceanProfile) => profile.account.status !== "locked" && profile.account.email_verified
 * ```
 */
export interface DigitalOceanProfile {
  account: {
    uuid: string
    email: string
    email_verified: boolean
    name?: string
    status: "active" | "warning" | "locked"
    status_message?: string
    droplet_limit?: number
    floating_ip_limit?: number
    volume_limit?: number
    team?: { uuid: string; name: string }
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Sign in with DigitalOcean (OAuth 2.0).
 *
 * Setup: register an application under API → OAuth Applications at
 * https://cloud.digitalocean.com/account/api/applications with the callback URL
 * `<base>/callback/digitalocean`; set `AUTH_DIGITALOCEAN_ID` and `AUTH_DIGITALOCEAN_SECRET`.
 *
 * The token endpoint takes the client secret in the request body. The default `read` scope is
 * the one DigitalOcean applies when none is given, and covers `/v2/account`; DigitalOcean has no
 * profile pictures, so `image` is always `null`. Its revoke endpoint authenticates with the token
 * itself rather than the client, so it is not RFC 7009 and revocation is flagged off.
 *
 * Exported from `latchkey/providers/digitalocean` and `latchkey/providers`.
 * Docs: https://docs.digitalocean.com/reference/api/oauth/
 *
 * @example
 * ```ts
 * import DigitalOcean from "latchkey/providers/digitalocean"
 * const provider = DigitalOcean({ authorization: { params: { scope: "read write" } } })
 * ```
 */
export default function DigitalOcean(options?: OAuthUserConfig<DigitalOceanProfile>): OAuthConfig<DigitalOceanProfile> {
  return oauthProvider(
    {
      id: "digitalocean",
      name: "DigitalOcean",
      type: "oauth",
      authorization: { url: "https://cloud.digitalocean.com/v1/oauth/authorize", params: { scope: "read" } },
      token: "https://cloud.digitalocean.com/v1/oauth/token",
      userinfo: "https://api.digitalocean.com/v2/account",
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://docs.digitalocean.com/reference/api/oauth/",
      style: { brandColor: "#0069FF", mark: () => import("./logos/digitalocean.js") },
      profile: ({ account }) => ({ id: account.uuid, name: account.name || null, email: account.email, image: null }),
    },
    options
  )
}
