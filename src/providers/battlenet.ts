import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a Battle.net id_token.
 *
 * @example
 * ```ts
 * import type { BattleNetProfile } from "latchkey/providers/battlenet"
 * const gamerName = (profile: BattleNetProfile) => profile.battle_tag.split("#")[0] // "Name" of "Name#1234"
 * ```
 */
export interface BattleNetProfile {
  /** The account id, as a string. */
  sub: string
  /** `Name#1234`. */
  battle_tag: string
  iss: string
  aud: string
  azp?: string
  exp: number
  iat: number
  auth_time?: number
  nonce?: string
  at_hash?: string
  [claim: string]: unknown
}

/**
 * Battle.net options: everything in {@link OIDCUserConfig}, plus the region.
 *
 * @example
 * ```ts
 * import BattleNet, { type BattleNetUserConfig } from "latchkey/providers/battlenet"
 * const options: BattleNetUserConfig = { region: "global", authorization: { params: { scope: "openid wow.profile" } } }
 * const provider = BattleNet(options)
 * ```
 */
export interface BattleNetUserConfig extends OIDCUserConfig<BattleNetProfile> {
  /**
   * `"global"` (the Americas, Europe, Korea and Taiwan share https://oauth.battle.net) or `"cn"`
   * (https://oauth.battlenet.com.cn, for accounts in China). Default `"global"`. Ignored when
   * `issuer` is set.
   */
  region?: "global" | "cn"
}

/**
 * Sign in with Battle.net (Blizzard's OpenID Connect).
 *
 * Setup: create a client at https://develop.battle.net/access/clients with the redirect URL
 * `<base>/callback/battlenet` (https is required); set `AUTH_BATTLENET_ID` and
 * `AUTH_BATTLENET_SECRET`.
 *
 * The issuer depends on the region: pass `region: "cn"` for China, or `issuer` (or
 * `AUTH_BATTLENET_ISSUER`) directly. The id_token names the account by `sub` and `battle_tag`;
 * Battle.net shares no email address or avatar, so `email` and `image` are always `null`. Its
 * access tokens last a day and come without a refresh token.
 *
 * Exported from `latchkey/providers/battlenet` and `latchkey/providers`.
 * Docs: https://develop.battle.net/documentation/guides/using-oauth
 *
 * @example
 * ```ts
 * import BattleNet from "latchkey/providers/battlenet"
 * const provider = BattleNet({ region: "cn" })
 * ```
 */
export default function BattleNet(options: BattleNetUserConfig = {}): OIDCConfig<BattleNetProfile> {
  const { region, ...userOptions } = options
  return oidcProvider(
    {
      id: "battlenet",
      name: "Battle.net",
      type: "oidc",
      issuer: region === "cn" ? "https://oauth.battlenet.com.cn" : "https://oauth.battle.net",
      authorization: { params: { scope: "openid" } },
      capabilities: { refresh: false, revocation: false },
      docs: "https://develop.battle.net/documentation/guides/using-oauth",
      style: { brandColor: "#4381C3", mark: () => import("./logos/battlenet.js") },
      profile: (profile) => ({ id: profile.sub, name: profile.battle_tag ?? null, email: null, image: null }),
    },
    userOptions
  )
}
