import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a Twitch id_token, with those requested through the `claims` parameter.
 *
 * @example
 * ```ts
 * import Twitch, { type TwitchProfile } from "latchkey/providers/twitch"
 * const provider = Twitch({
 *   profile: (profile: TwitchProfile) => ({ id: profile.sub, name: profile.preferred_username ?? null, email: profile.email_verified ? profile.email : null }),
 * })
 * ```
 */
export interface TwitchProfile {
  iss: string
  sub: string
  aud: string
  azp: string
  exp: number
  iat: number
  nonce?: string
  /** The display name. */
  preferred_username?: string
  /** Present with the `user:read:email` scope. */
  email?: string
  email_verified?: boolean
  picture?: string
  updated_at?: string
  [claim: string]: unknown
}

/**
 * Sign in with Twitch (OpenID Connect).
 *
 * Setup: register an application at https://dev.twitch.tv/console/apps (category "Website
 * Integration", client type "Confidential") with the OAuth redirect URL
 * `<base>/callback/twitch`; set `AUTH_TWITCH_ID` and `AUTH_TWITCH_SECRET`.
 *
 * Quirks, handled for you: a Twitch id_token carries only the protocol claims unless the others
 * are asked for, so the authorization request sends the `claims` parameter for `email`,
 * `email_verified`, `picture` and `preferred_username`; Twitch wants the client secret in the
 * token request body; its token response lists `scope` as an array, which is joined; Twitch
 * documents `state` and `nonce` rather than PKCE, so those protect the flow.
 *
 * Exported from `latchkey/providers/twitch` and `latchkey/providers`.
 * Docs: https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/
 *
 * @example
 * ```ts
 * import Twitch from "latchkey/providers/twitch"
 * const provider = Twitch({ authorization: { params: { scope: "openid user:read:email channel:read:subscriptions" } } })
 * ```
 */
export default function Twitch(options?: OIDCUserConfig<TwitchProfile>): OIDCConfig<TwitchProfile> {
  return oidcProvider(
    {
      id: "twitch",
      name: "Twitch",
      type: "oidc",
      issuer: "https://id.twitch.tv/oauth2",
      authorization: {
        params: {
          scope: "openid user:read:email",
          claims: '{"id_token":{"email":null,"email_verified":null,"picture":null,"preferred_username":null}}',
        },
      },
      checks: ["state", "nonce"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: "https://id.twitch.tv/oauth2/revoke" },
      docs: "https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/",
      style: { brandColor: "#9146FF", mark: () => import("./logos/twitch.js") },
      profile: (profile) => ({ id: profile.sub, name: profile.preferred_username ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
    },
    options
  )
}
