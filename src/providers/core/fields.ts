/**
 * The fields an OAuth or OpenID Connect configuration may have. A field outside this list is
 * refused, never dropped: a misspelt or foreign option (Auth.js v3/v4's `scope`, `accessTokenUrl`)
 * would otherwise be ignored in silence and the app would sign users in with a configuration it did
 * not mean. (A `baseUrl` for a provider with no instance is refused in `resolve.ts`.)
 */
import { InvalidProviderError } from "../../errors.js"
import { didYouMean } from "../../lib/did-you-mean.js"
import type { OAuth2Config, OIDCConfig, TokenEndpointAuthMethod } from "../types.js"

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

/** Every client authentication method, typed against {@link TokenEndpointAuthMethod} so the list cannot fall behind. */
const AUTH_METHODS: Record<TokenEndpointAuthMethod, true> = { client_secret_basic: true, client_secret_post: true, client_secret_jwt: true, private_key_jwt: true, none: true }

/**
 * An unknown `client.token_endpoint_auth_method` is refused: a config in a `const` reaches here
 * with any string (see WidenedOAuthConfig), and the flow would otherwise treat a misspelt method
 * as `client_secret_basic`.
 */
function checkAuthMethod(id: string, client: unknown): void {
  const method = typeof client === "object" && client !== null ? (client as { token_endpoint_auth_method?: unknown }).token_endpoint_auth_method : undefined
  if (method === undefined || (typeof method === "string" && Object.hasOwn(AUTH_METHODS, method))) return
  const known = Object.keys(AUTH_METHODS)
  const suggestion = typeof method === "string" ? didYouMean(method, known) : ""
  throw new InvalidProviderError(id, "client.token_endpoint_auth_method", `unknown token_endpoint_auth_method "${String(method).slice(0, 64)}"${suggestion}; it is one of ${known.join(", ")}.`)
}

/**
 * Throws {@link InvalidProviderError} for a field the configuration cannot use. `given` is what the
 * user wrote: a factory's options, or a whole hand-written configuration.
 */
export function checkFields(id: string, type: "oauth" | "oidc", given: Record<string, unknown>): void {
  for (const field in given) {
    if (given[field] !== undefined && !KNOWN.has(field)) {
      const moved = Object.hasOwn(MOVED, field) ? MOVED[field] : undefined
      const hint = moved ? `: write it as ${moved}` : didYouMean(field, FIELDS)
      throw new InvalidProviderError(id, field, `unknown option "${field.slice(0, 64)}"${hint}.`)
    }
  }
  checkAuthMethod(id, given.client)
  if (type === "oauth" && given.idToken === true) throw new InvalidProviderError(id, "idToken", 'an OAuth 2.0 provider has no id_token; write type: "oidc".')
}
