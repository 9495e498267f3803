import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `POST https://id.vk.com/oauth2/user_info`.
 *
 * @example
 * ```ts
 * import VK, { type VKProfile } from "latchkey/providers/vk"
 * const provider = VK({
 *   profile: ({ user }: VKProfile) => ({ id: user.user_id, name: user.first_name ?? null, email: user.email ?? null, image: user.avatar ?? null }),
 * })
 * ```
 */
export interface VKProfile {
  user: {
    user_id: string
    first_name?: string
    last_name?: string
    /** With the `vkid.personal_info` scope. */
    avatar?: string
    /** With the `email` scope. */
    email?: string
    /** With the `phone` scope, for verified business profiles. */
    phone?: string
    /** 1 female, 2 male, 0 not set. */
    sex?: number
    /** `DD.MM.YYYY`. */
    birthday?: string
    verified?: boolean
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Sign in with VK ID (VK's OAuth 2.1 authorization server, `id.vk.com`), not the classic
 * `oauth.vk.com` OAuth 2.0 endpoints. Users can sign in with VK, OK or Mail accounts.
 *
 * Setup: create a web app at https://id.vk.com/about/business/go (VK ID business account) and add
 * `<base>/callback/vk` as a trusted redirect URL; set `AUTH_VK_ID` (the app id). VK ID's code
 * exchange relies on PKCE, not the client secret, so `AUTH_VK_SECRET` is not needed.
 *
 * Quirks, handled for you: VK ID requires PKCE and `state`, and redirects back with a `device_id`
 * that the token request must repeat, so the code exchange is a custom request; its token
 * response carries an id_token that is dropped (the profile comes from the `user_info` endpoint,
 * which takes the access token and client id in a POST form). Refreshing needs that `device_id`
 * too, and VK ID's revocation is not RFC 7009, so both are flagged off.
 *
 * Exported from `latchkey/providers/vk` and `latchkey/providers`.
 * Docs: https://id.vk.com/about/business/go/docs/ru/vkid/latest/vk-id/connection/api-integration/api-description
 *
 * @example
 * ```ts
 * import VK from "latchkey/providers/vk"
 * const provider = VK({ authorization: { params: { scope: "vkid.personal_info email phone" } } })
 * ```
 */
export default function VK(options?: OAuthUserConfig<VKProfile>): OAuthConfig<VKProfile> {
  return oauthProvider(
    {
      id: "vk",
      name: "VK ID",
      type: "oauth",
      authorization: { url: "https://id.vk.com/authorize", params: { scope: "vkid.personal_info email" } },
      token: {
        url: "https://id.vk.com/oauth2/auth",
        async request({ checks, params, provider, redirectUri, fetch }) {
          const body = new URLSearchParams({
            grant_type: "authorization_code",
            code: params.get("code") ?? "",
            code_verifier: checks.code_verifier ?? "",
            client_id: provider.clientId,
            device_id: params.get("device_id") ?? "",
            redirect_uri: redirectUri,
            state: checks.state ?? "",
          })
          const { id_token: _idToken, ...tokens } = await (await fetch(provider.token.url!, { method: "POST", body })).json()
          return { tokens }
        },
      },
      userinfo: {
        url: "https://id.vk.com/oauth2/user_info",
        request: ({ tokens, provider, fetchJson }) => {
          const body = new URLSearchParams({ client_id: provider.clientId, access_token: tokens.access_token ?? "" })
          return fetchJson(provider.userinfo.url!, { method: "POST", body })
        },
      },
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "none" },
      capabilities: { refresh: false, revocation: false },
      docs: "https://id.vk.com/about/business/go/docs/ru/vkid/latest/vk-id/connection/api-integration/api-description",
      style: { brandColor: "#0077FF", mark: () => import("./logos/vk.js") },
      profile: ({ user }) => ({
        id: user.user_id,
        name: [user.first_name, user.last_name].filter(Boolean).join(" ") || null,
        email: user.email ?? null,
        image: user.avatar ?? null,
      }),
    },
    options
  )
}
