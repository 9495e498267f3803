import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a LINE Login v2.1 id_token.
 *
 * @example
 * ```ts
 * import Line, { type LineProfile } from "latchkey/providers/line"
 * const provider = Line({
 *   profile: (profile: LineProfile) => ({ id: profile.sub, name: profile.name ?? "LINE user", email: profile.email ?? null, image: profile.picture ?? null }),
 * })
 * ```
 */
export interface LineProfile {
  iss: string
  /** The LINE user id. */
  sub: string
  /** The channel id. */
  aud: string
  exp: number
  iat: number
  auth_time?: number
  nonce?: string
  amr?: string[]
  /** With the `profile` scope: the display name. */
  name?: string
  /** With the `profile` scope. */
  picture?: string
  /** With the `email` scope, for channels approved for email. */
  email?: string
  [claim: string]: unknown
}

/**
 * Sign in with LINE (LINE Login v2.1, OpenID Connect).
 *
 * Setup: create a LINE Login channel at https://developers.line.biz/console/ with the "Web app"
 * app type and the callback URL `<base>/callback/line`; for email addresses, apply for "Email
 * address permission" on the channel's Basic settings tab; set `AUTH_LINE_ID` and
 * `AUTH_LINE_SECRET` (the channel id and channel secret).
 *
 * Quirks, handled for you: LINE requires `state` and supports PKCE, so both protect the flow; it
 * wants the channel secret in the token request body. LINE's revocation endpoint takes an
 * `access_token` parameter rather than RFC 7009's `token`, so revocation is flagged off.
 *
 * Quirk, handled for you: LINE signs the id_tokens of web logins with HS256, keyed by the channel
 * secret (only LIFF and the SDKs get ES256 tokens); the record declares it, so latchkey verifies
 * those id_tokens with the client secret.
 *
 * The profile is mapped by the standard claims (`sub`, `name`, `email`, `picture`).
 *
 * Exported from `latchkey/providers/line` and `latchkey/providers`.
 * Docs: https://developers.line.biz/en/docs/line-login/integrate-line-login/
 *
 * @example
 * ```ts
 * import Line from "latchkey/providers/line"
 * const provider = Line({ authorization: { params: { bot_prompt: "aggressive" } } })
 * ```
 */
export default function Line(options?: OIDCUserConfig<LineProfile>): OIDCConfig<LineProfile> {
  return oidcProvider(
    {
      id: "line",
      name: "LINE",
      type: "oidc",
      issuer: "https://access.line.me",
      authorization: { params: { scope: "openid profile email" } },
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post", id_token_signed_response_alg: "HS256" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://developers.line.biz/en/docs/line-login/integrate-line-login/",
      style: { brandColor: "#06C755", mark: () => import("./logos/line.js") },
    },
    options
  )
}
