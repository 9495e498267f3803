import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"
import { readEnv } from "../env.js"

/**
 * The id_token claims of NetSuite as OIDC Provider for the `openid email` scopes.
 *
 * @example
 * ```ts
 * import NetSuite, { type NetSuiteProfile } from "latchkey/providers/netsuite"
 * const provider = NetSuite({
 *   accountId: "1234567",
 *   profile: (profile: NetSuiteProfile) => ({ id: profile.sub, name: profile.given_name ?? profile.name ?? null, email: profile.email ?? null }),
 * })
 * ```
 */
export interface NetSuiteProfile {
  sub: string
  /** With the `email` scope. */
  email?: string
  email_verified?: boolean
  name?: string
  given_name?: string
  family_name?: string
  iss: string
  aud: string | string[]
  exp: number
  iat: number
  [claim: string]: unknown
}

/**
 * NetSuite options: everything in {@link OIDCUserConfig}, plus the account.
 *
 * @example
 * ```ts
 * import NetSuite, { type NetSuiteUserConfig } from "latchkey/providers/netsuite"
 * const options: NetSuiteUserConfig = { accountId: process.env.NETSUITE_ACCOUNT_ID, authorization: { params: { scope: "openid email" } } }
 * const provider = NetSuite(options)
 * ```
 */
export interface NetSuiteUserConfig extends OIDCUserConfig<NetSuiteProfile> {
  /**
   * The NetSuite account id, such as `1234567` or `1234567_SB1` for a sandbox; it names the
   * account's discovery document and revocation endpoint. Default: `AUTH_NETSUITE_ACCOUNT_ID`.
   */
  accountId?: string
}

/**
 * Sign in with NetSuite (the "NetSuite as OIDC Provider" feature, OpenID Connect).
 *
 * Setup: enable the OAuth 2.0 and "NetSuite as OIDC Provider" features, give the signing-in roles
 * the "Log in using OAuth 2.0 Access Tokens" permission, and create an integration record with the
 * authorization code grant, the "NetSuite as OIDC Provider" scope and the redirect URI
 * `<base>/callback/netsuite`; set `AUTH_NETSUITE_ID` and `AUTH_NETSUITE_SECRET` (the consumer key
 * and secret) and the account id, as `accountId` or `AUTH_NETSUITE_ACCOUNT_ID`.
 *
 * Quirks, handled for you: every account has its own endpoints, so discovery reads the account's
 * document (`https://<account>.suitetalk.api.netsuite.com/.well-known/openid-configuration`, with
 * the id lower-cased and `_` as `-`) while tokens name the shared issuer https://system.netsuite.com.
 * NetSuite requires `state` (22 characters or more), which is sent alongside PKCE.
 *
 * Exported from `latchkey/providers/netsuite` and `latchkey/providers`.
 * Docs: https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_160855370280.html
 *
 * @example
 * ```ts
 * import NetSuite from "latchkey/providers/netsuite"
 * const provider = NetSuite({ accountId: "1234567_SB1" })
 * ```
 */
export default function NetSuite(options: NetSuiteUserConfig = {}): OIDCConfig<NetSuiteProfile> {
  const { accountId, ...userOptions } = options
  const host = (accountId ?? readEnv("AUTH_NETSUITE_ACCOUNT_ID"))?.toLowerCase().replace(/_/g, "-")
  const api = host && `https://${host}.suitetalk.api.netsuite.com`
  return oidcProvider(
    {
      id: "netsuite",
      name: "NetSuite",
      type: "oidc",
      issuer: "https://system.netsuite.com",
      ...(api ? { wellKnown: `${api}/.well-known/openid-configuration` } : {}),
      authorization: { params: { scope: "openid email" } },
      checks: ["pkce", "state"],
      capabilities: { refresh: true, revocation: api ? `${api}/services/rest/auth/oauth2/v1/revoke` : false },
      docs: "https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_160855370280.html",
      style: { brandColor: "#125580" },
      profile: (profile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: null }),
    },
    userOptions
  )
}
