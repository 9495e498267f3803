import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The userinfo claims of the BankID OIDC Provider for the `openid profile` scopes (more with `email`, `phone`, `address`, `nnin_altsub`).
 *
 * @example
 * ```ts
 * import BankIDNorway, { type BankIDNorwayProfile } from "latchkey/providers/bankid-no"
 * const provider = BankIDNorway({
 *   profile: (profile: BankIDNorwayProfile) => ({ id: profile.sub, name: `${profile.given_name} ${profile.family_name}`, email: profile.email ?? null }),
 * })
 * ```
 */
export interface BankIDNorwayProfile {
  /** The same as in the id_token. */
  sub: string
  name: string
  given_name: string
  family_name: string
  /** `YYYY-MM-DD`. */
  birthdate: string
  preferred_username?: string
  /** Only with the `email` scope and the user's consent. */
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
  address?: { formatted: string; street_address: string; postal_code: string; locality: string; country: string; [field: string]: unknown }
  /** The BankID certificate's personal identifier (PID), with the `nnin_altsub` scope. */
  bankid_altsub?: string
  /** The Norwegian national identity number, with the `nnin` scope for eligible merchants. */
  nnin?: string
  iss?: string
  aud?: string | string[]
  updated_at?: number
  [claim: string]: unknown
}

/**
 * BankID options: everything in {@link OIDCUserConfig}, plus the environment.
 *
 * @example
 * ```ts
 * import BankIDNorway, { type BankIDNorwayUserConfig } from "latchkey/providers/bankid-no"
 * const options: BankIDNorwayUserConfig = { environment: process.env.NODE_ENV === "production" ? "production" : "test" }
 * const provider = BankIDNorway(options)
 * ```
 */
export interface BankIDNorwayUserConfig extends OIDCUserConfig<BankIDNorwayProfile> {
  /** `"production"` or `"test"` (BankID's "current" pre-production environment). Default `"production"`. Ignored when `issuer` is set. */
  environment?: "production" | "test"
}

/**
 * Sign in with BankID Norway (the BankID OIDC Provider, OpenID Connect).
 *
 * Setup: get a BankID OIDC client through a BankID reseller, with the redirect URI
 * `<base>/callback/bankid-no`; set `AUTH_BANKID_NO_ID` and `AUTH_BANKID_NO_SECRET`. Pass
 * `environment: "test"` with credentials for the "current" test environment. Through a broker
 * such as Criipto or Signicat instead, pass its `issuer`.
 *
 * Quirks, handled for you: the profile comes from the userinfo endpoint that discovery names
 * (a `userinfo: { url }` still overrides it), whose `sub` is checked against the id_token's. That
 * endpoint is a service of its own, documented to answer with a JWT it issues itself (its `iss`)
 * for your client (its `aud`), signed with the keys of the issuer's `jwks_uri`: the flow verifies
 * the signature, the audience, an `iss` on the userinfo endpoint's origin and the `sub` before it
 * reads a claim, and refuses the sign-in otherwise (a plain JSON answer, as brokers send, works
 * too). BankID has no profile pictures, so `image` is `null`, and `email` needs the `email` scope
 * and the user's consent.
 *
 * Exported from `latchkey/providers/bankid-no` and `latchkey/providers`.
 * Docs: https://developer.bankid.no/bankid-oidc-provider/
 *
 * @example
 * ```ts
 * import BankIDNorway from "latchkey/providers/bankid-no"
 * const provider = BankIDNorway({ environment: "test", authorization: { params: { scope: "openid profile email" } } })
 * ```
 */
export default function BankIDNorway(options: BankIDNorwayUserConfig = {}): OIDCConfig<BankIDNorwayProfile> {
  const { environment, ...userOptions } = options
  const env = environment === "test" ? "current." : ""
  return oidcProvider(
    {
      id: "bankid-no",
      name: "BankID",
      type: "oidc",
      issuer: `https://auth.${env}bankid.no/auth/realms/${env ? "current" : "prod"}`,
      idToken: false,
      authorization: { params: { scope: "openid profile" } },
      // The userinfo endpoint is the one the openid-configuration names, not a fixed host, and it
      // signs its own JWT: https://developer.bankid.no/bankid-oidc-provider/api/openid-configuration
      // and the TINFO userinfo page (iss: the userinfo service, aud: the client).
      quirks: { userinfoIssuedByEndpoint: true },
      capabilities: { refresh: false, revocation: false },
      docs: "https://developer.bankid.no/bankid-oidc-provider/",
      style: { brandColor: "#39134C" },
      profile: (profile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: null }),
    },
    userOptions
  )
}
