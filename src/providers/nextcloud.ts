import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET /ocs/v2.php/cloud/user?format=json`, with its OCS envelope (abridged).
 *
 * @example
 * ```ts
 * import Nextcloud, { type NextcloudProfile } from "latchkey/providers/nextcloud"
 * const provider = Nextcloud({
 *   baseUrl: "https://cloud.acme.dev",
 *   profile: ({ ocs: { data } }: NextcloudProfile) => ({ id: data.id, name: data["display-name"], email: data.email }),
 * })
 * ```
 */
export interface NextcloudProfile {
  ocs: {
    meta: { status: string; statuscode: number; message: string }
    data: {
      id: string
      enabled: boolean
      "display-name": string
      email: string | null
      phone: string
      address: string
      website: string
      twitter: string
      groups: string[]
      language: string
      locale: string
      backend: string
      lastLogin: number
      quota: Record<string, unknown>
      [field: string]: unknown
    }
  }
  [field: string]: unknown
}

/**
 * Sign in with Nextcloud (OAuth 2.0), on your own Nextcloud server.
 *
 * Setup: an admin adds an OAuth 2.0 client under Administration settings → Security with the
 * redirection URI `<base>/callback/nextcloud`; set `AUTH_NEXTCLOUD_ID`, `AUTH_NEXTCLOUD_SECRET`
 * and `AUTH_NEXTCLOUD_ISSUER` (or `baseUrl`), the server's URL such as
 * `https://cloud.example.com` (with any subfolder, without `index.php`); a trailing slash is trimmed.
 *
 * Quirks, handled for you: the endpoints go through `index.php`, so they work without pretty URLs;
 * the profile comes from the OCS API, which needs the `OCS-APIRequest: true` header. Nextcloud has
 * no scopes: every token has full access to the account. Older servers ignore PKCE, so `state` is
 * sent as well. The avatar is served per size, so `image` is `null`.
 *
 * Exported from `latchkey/providers/nextcloud` and `latchkey/providers`.
 * Docs: https://docs.nextcloud.com/server/latest/admin_manual/configuration_server/oauth2.html
 *
 * @example
 * ```ts
 * import Nextcloud from "latchkey/providers/nextcloud"
 * const provider = Nextcloud({ baseUrl: "https://cloud.example.com" })
 * ```
 */
export default function Nextcloud(options?: OAuthUserConfig<NextcloudProfile>): OAuthConfig<NextcloudProfile> {
  return oauthProvider(
    {
      id: "nextcloud",
      name: "Nextcloud",
      type: "oauth",
      authorization: "{baseUrl}/index.php/apps/oauth2/authorize",
      token: "{baseUrl}/index.php/apps/oauth2/api/v1/token",
      userinfo: {
        url: "{baseUrl}/ocs/v2.php/cloud/user",
        request: ({ provider, fetchJson }) => fetchJson(`${provider.userinfo.url}?format=json`, { headers: { "ocs-apirequest": "true" } }),
      },
      checks: ["pkce", "state"],
      capabilities: { refresh: true, revocation: false },
      docs: "https://docs.nextcloud.com/server/latest/admin_manual/configuration_server/oauth2.html",
      style: { brandColor: "#0082C9", mark: () => import("./logos/nextcloud.js") },
      profile: ({ ocs: { data } }) => ({ id: data.id, name: data["display-name"] || data.id, email: data.email || null, image: null }),
    },
    options
  )
}
