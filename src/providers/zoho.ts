import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"
import { trimTrailingSlashes } from "../lib/trim-slashes.js"

/**
 * The claims of a Zoho id_token for the `openid email profile` scopes.
 *
 * @example
 * ```ts
 * import Zoho, { type ZohoProfile } from "latchkey/providers/zoho"
 * const provider = Zoho({
 *   profile: (profile: ZohoProfile) => ({ id: profile.sub, name: profile.first_name ?? profile.name ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
 * })
 * ```
 */
export interface ZohoProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  at_hash?: string
  email?: string
  email_verified?: boolean
  name?: string
  first_name?: string
  last_name?: string
  gender?: string
  picture?: string
  [claim: string]: unknown
}

/**
 * Zoho options: which data centre's accounts server signs users in.
 *
 * @example
 * ```ts
 * import Zoho, { type ZohoUserConfig } from "latchkey/providers/zoho"
 * const options: ZohoUserConfig = { accountsServer: "https://accounts.zoho.in" }
 * const provider = Zoho(options)
 * ```
 */
export interface ZohoUserConfig extends OIDCUserConfig<ZohoProfile> {
  /**
   * The accounts server of the data centre the app is registered in: `https://accounts.zoho.com`
   * (US, the default), `https://accounts.zoho.eu`, `https://accounts.zoho.in`,
   * `https://accounts.zoho.com.au`, `https://accounts.zoho.jp`, `https://accounts.zohocloud.ca`,
   * `https://accounts.zoho.sa`, `https://accounts.zoho.uk`, `https://accounts.zoho.com.cn`. Ignored
   * when `issuer` is set.
   */
  accountsServer?: string
}

/**
 * Sign in with Zoho (OpenID Connect, "Sign in using Zoho").
 *
 * Setup: in the Zoho API Console (https://api-console.zoho.com), add a "Server-based
 * Applications" client with the redirect URI `<base>/callback/zoho`; set `AUTH_ZOHO_ID` and
 * `AUTH_ZOHO_SECRET`.
 *
 * Quirks, handled for you: Zoho runs a separate accounts server, and issuer, in each data centre;
 * the `accountsServer` option (default `https://accounts.zoho.com`, the US one) picks the one the
 * app is registered in, and discovery is read from it. Users whose account lives in another data
 * centre are sent back with its `accounts-server`, which this issuer does not accept; register the
 * app per data centre (one provider each, with distinct ids) to serve them. The client credentials
 * go in the token request body. A refresh token is issued only when asked:
 * `authorization: { params: { access_type: "offline" } }`.
 *
 * Exported from `latchkey/providers/zoho` and `latchkey/providers`.
 * Docs: https://www.zoho.com/accounts/protocol/oauth/sign-in-using-zoho.html
 *
 * @example
 * ```ts
 * import Zoho from "latchkey/providers/zoho"
 * const provider = Zoho({ accountsServer: "https://accounts.zoho.eu" })
 * ```
 */
export default function Zoho(options: ZohoUserConfig = {}): OIDCConfig<ZohoProfile> {
  const { accountsServer = "https://accounts.zoho.com", ...userOptions } = options
  return oidcProvider(
    {
      id: "zoho",
      name: "Zoho",
      type: "oidc",
      issuer: trimTrailingSlashes(accountsServer),
      authorization: { params: { scope: "openid email profile" } },
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://www.zoho.com/accounts/protocol/oauth/sign-in-using-zoho.html",
      style: { brandColor: "#E42527", mark: () => import("./logos/zoho.js") },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? ([profile.first_name, profile.last_name].filter(Boolean).join(" ") || null),
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
    },
    userOptions
  )
}
