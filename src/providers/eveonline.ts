import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"
import { decodeBase64url } from "../lib/base64url.js"

/**
 * The claims of an EVE SSO v2 access token, a JWT that names the character the user chose.
 *
 * @example
 * ```ts
 * import type { EVEOnlineProfile } from "latchkey/providers/eveonline"
 * const characterId = (profile: EVEOnlineProfile) => Number(profile.sub.split(":")[2]) // from "CHARACTER:EVE:<id>"
 * ```
 */
export interface EVEOnlineProfile {
  /** `CHARACTER:EVE:<character id>`. */
  sub: string
  /** The character's name. */
  name: string
  /** Changes when the character moves to another EVE account: compare it to spot a transfer. */
  owner: string
  /** The granted ESI scopes: a string for one, an array for several. */
  scp?: string | string[]
  azp: string
  aud: string | string[]
  iss: string
  jti: string
  kid: string
  tenant?: string
  tier?: string
  region?: string
  exp: number
  iat: number
  [claim: string]: unknown
}

/**
 * Sign in with EVE Online (EVE SSO v2, OAuth 2.0): the user picks one of their characters, and
 * that character is the identity.
 *
 * Setup: create an application at https://developers.eveonline.com/applications with the callback
 * URL `<base>/callback/eveonline` (for sign-in alone, "Authentication Only" needs no scopes); set
 * `AUTH_EVEONLINE_ID` and `AUTH_EVEONLINE_SECRET`.
 *
 * Quirk, handled for you: there is no profile endpoint (the old `/oauth/verify` is retired);
 * the access token is a JWT that carries the character's id, name and owner hash, and is read
 * directly. It comes straight from the token endpoint over TLS, so its signature is not checked
 * here; verify it against https://login.eveonline.com/oauth/jwks before passing it to third
 * parties. EVE SSO requires `state` and supports PKCE, so both are sent. Characters have no email
 * address, so `email` is always `null`; `image` is the character portrait.
 *
 * Exported from `latchkey/providers/eveonline` and `latchkey/providers`.
 * Docs: https://developers.eveonline.com/docs/services/sso/
 *
 * @example
 * ```ts
 * import EVEOnline from "latchkey/providers/eveonline"
 * const provider = EVEOnline({ authorization: { params: { scope: "esi-skills.read_skills.v1" } } })
 * ```
 */
export default function EVEOnline(options?: OAuthUserConfig<EVEOnlineProfile>): OAuthConfig<EVEOnlineProfile> {
  return oauthProvider(
    {
      id: "eveonline",
      name: "EVE Online",
      type: "oauth",
      authorization: "https://login.eveonline.com/v2/oauth/authorize",
      token: "https://login.eveonline.com/v2/oauth/token",
      userinfo: {
        request: ({ tokens }) => JSON.parse(new TextDecoder().decode(decodeBase64url(tokens.access_token!.split(".")[1]!))),
      },
      checks: ["pkce", "state"],
      capabilities: { refresh: true, revocation: "https://login.eveonline.com/v2/oauth/revoke" },
      docs: "https://developers.eveonline.com/docs/services/sso/",
      style: { brandColor: "#000000" },
      profile: (profile) => {
        const id = profile.sub.split(":")[2]!
        return { id, name: profile.name, email: null, image: `https://images.evetech.net/characters/${id}/portrait` }
      },
    },
    options
  )
}
