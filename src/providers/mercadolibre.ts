import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user object of `GET https://api.mercadolibre.com/users/me`.
 *
 * @example
 * ```ts
 * import MercadoLibre, { type MercadoLibreProfile } from "latchkey/providers/mercadolibre"
 * const provider = MercadoLibre({
 *   profile: (profile: MercadoLibreProfile) => ({ id: String(profile.id), name: profile.nickname, email: profile.email ?? null, image: profile.thumbnail?.picture_url ?? null }),
 * })
 * ```
 */
export interface MercadoLibreProfile {
  id: number
  nickname: string
  first_name?: string
  last_name?: string
  email?: string
  /** The marketplace the account belongs to, such as `MLA` (Argentina) or `MLB` (Brazil). */
  site_id?: string
  country_id?: string
  user_type?: string
  permalink?: string
  registration_date?: string
  thumbnail?: { picture_id?: string; picture_url?: string } | null
  status?: Record<string, unknown>
  [field: string]: unknown
}

/**
 * Mercado Libre options: which country's sign-in page users see.
 *
 * @example
 * ```ts
 * import MercadoLibre, { type MercadoLibreUserConfig } from "latchkey/providers/mercadolibre"
 * const options: MercadoLibreUserConfig = { domain: "mercadolibre.com.mx" }
 * const mexico = MercadoLibre(options)
 * ```
 */
export interface MercadoLibreUserConfig extends OAuthUserConfig<MercadoLibreProfile> {
  /**
   * The marketplace domain of the authorization page: `auth.<domain>/authorization`, such as
   * `mercadolivre.com.br` or `mercadolibre.com.mx`. Default `mercadolibre.com.ar` (Argentina).
   */
  domain?: string
}

/**
 * Sign in with Mercado Libre / Mercado Livre (OAuth 2.0).
 *
 * Setup: create an application at https://developers.mercadolibre.com.ar/devcenter with the
 * redirect URI `<base>/callback/mercadolibre` (and the `offline_access` scope for refresh
 * tokens); set `AUTH_MERCADOLIBRE_ID` (the App ID) and `AUTH_MERCADOLIBRE_SECRET`.
 *
 * Quirks, handled for you: each country has its own authorization domain (pick it with
 * `domain`), while the token and API hosts are shared; the token endpoint takes the client secret
 * in the request body. Scopes are set on the application, not in the request. Both PKCE and
 * `state` are sent, as Mercado Libre recommends.
 *
 * Exported from `latchkey/providers/mercadolibre` and `latchkey/providers`.
 * Docs: https://developers.mercadolibre.com.ar/en_us/authentication-and-authorization
 *
 * @example
 * ```ts
 * import MercadoLibre from "latchkey/providers/mercadolibre"
 * const brazil = MercadoLibre({ domain: "mercadolivre.com.br" })
 * ```
 */
export default function MercadoLibre(options: MercadoLibreUserConfig = {}): OAuthConfig<MercadoLibreProfile> {
  const { domain = "mercadolibre.com.ar", ...userOptions } = options
  return oauthProvider(
    {
      id: "mercadolibre",
      name: "Mercado Libre",
      type: "oauth",
      authorization: `https://auth.${domain}/authorization`,
      token: "https://api.mercadolibre.com/oauth/token",
      userinfo: "https://api.mercadolibre.com/users/me",
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://developers.mercadolibre.com.ar/en_us/authentication-and-authorization",
      style: { brandColor: "#FFE600" },
      profile: (profile) => ({
        id: String(profile.id),
        name: [profile.first_name, profile.last_name].filter(Boolean).join(" ") || profile.nickname,
        email: profile.email ?? null,
        image: profile.thumbnail?.picture_url ?? null,
      }),
    },
    userOptions
  )
}
