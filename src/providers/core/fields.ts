/**
 * The fields an OAuth or OpenID Connect configuration may have. A field outside this list is
 * refused, never dropped: a misspelt or foreign option (Auth.js v3/v4's `scope`, `accessTokenUrl`)
 * would otherwise be ignored in silence and the app would sign users in with a configuration it did
 * not mean. (A `baseUrl` for a provider with no instance is refused in `resolve.ts`.)
 */
import { InvalidProviderError } from "../../errors.js"
import type { OAuth2Config, OIDCConfig } from "../types.js"

type ConfigField = keyof OAuth2Config | keyof OIDCConfig

const FIELDS = [
  "id",
  "name",
  "type",
  "authorization",
  "token",
  "userinfo",
  "wellKnown",
  "issuer",
  "jwks_endpoint",
  "baseUrl",
  "profile",
  "account",
  "checks",
  "clientId",
  "clientSecret",
  "clientPrivateKey",
  "client",
  "redirectProxyUrl",
  "allowDangerousEmailAccountLinking",
  "style",
  "quirks",
  "capabilities",
  "docs",
  "deprecated",
  "options",
  "idToken",
] as const satisfies readonly ConfigField[]

// Fails to compile when a field is added to the config types and not to the list above.
const everyField: Record<Exclude<ConfigField, (typeof FIELDS)[number]>, never> = {}
void everyField

const KNOWN = new Set<string>(FIELDS)

/** Where fields from other libraries (Auth.js v3/v4 among them) go in latchkey. */
const MOVED: Record<string, string> = {
  scope: "authorization.params.scope",
  params: "token.params",
  authorizationUrl: "authorization",
  accessTokenUrl: "token",
  profileUrl: "userinfo",
  protection: "checks",
  state: "checks",
}

/**
 * Throws {@link InvalidProviderError} for a field the configuration cannot use. `given` is what the
 * user wrote: a factory's options, or a whole hand-written configuration.
 */
export function checkFields(id: string, type: "oauth" | "oidc", given: Record<string, unknown>): void {
  for (const field in given) {
    if (given[field] !== undefined && !KNOWN.has(field)) {
      const moved = Object.hasOwn(MOVED, field) ? MOVED[field] : undefined
      throw new InvalidProviderError(id, field, `unknown option "${field}"${moved ? `: write it as ${moved}` : ""}.`)
    }
  }
  if (type === "oauth" && given.idToken === true) throw new InvalidProviderError(id, "idToken", 'an OAuth 2.0 provider has no id_token; write type: "oidc".')
}
