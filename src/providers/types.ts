/**
 * The provider model's types: what a provider factory returns, what a user may pass to it, and
 * what `resolveProviders` turns both into. Exported from `latchkey/providers`.
 *
 * @module
 */
import type { Client } from "oauth4webapi"
import type { Account, Awaitable, Profile, TokenSet, User } from "../types.js"
import type { CredentialsConfig } from "./credentials.js"
import type { EmailConfig } from "./email/types.js"
import type { WebAuthnConfig } from "./webauthn.js"
import type { PasswordConfig } from "./password.js"
import type { CommonProviderOptions, ProviderType } from "./common.js"

export type { CredentialInput, CredentialsConfig } from "./credentials.js"
export type { EmailConfig, EmailUserConfig } from "./email/types.js"
export type { WebAuthnConfig } from "./webauthn.js"
export type { PasswordConfig } from "./password.js"
export type { CommonProviderOptions, ProviderType } from "./common.js"

/**
 * The provider types whose sign-in is a form post to latchkey itself rather than a redirect away.
 *
 * @example
 * ```ts
 * import type { RedirectableProviderType } from "latchkey/providers"
 * const formPosted: RedirectableProviderType[] = ["email", "credentials"]
 * ```
 */
export type RedirectableProviderType = "email" | "credentials"

/**
 * The three OAuth endpoints a provider can configure.
 *
 * @example
 * ```ts
 * import type { OAuthEndpointType, ResolvedOAuthProvider } from "latchkey/providers"
 * const endpointUrl = (provider: ResolvedOAuthProvider, endpoint: OAuthEndpointType) => provider[endpoint].url
 * ```
 */
export type OAuthEndpointType = "authorization" | "token" | "userinfo"

/**
 * A provider as the handler exposes it: with the URLs that start and finish its sign-in.
 *
 * @example
 * ```ts
 * import type { AppProvider } from "latchkey/providers"
 * const response = await fetch("https://app.example.com/auth/providers")
 * const providers = (await response.json()) as AppProvider[]
 * const callbacks = providers.map((provider) => provider.callbackUrl)
 * ```
 */
export interface AppProvider extends CommonProviderOptions {
  signinUrl: string
  callbackUrl: string
}

/**
 * The checks that protect an OAuth 2.0 authorization code flow. `"none"` disables them all.
 *
 * @example
 * ```ts
 * import GitHub from "latchkey/providers/github"
 * import type { OAuth2Check } from "latchkey/providers"
 * const checks: OAuth2Check[] = ["pkce", "state"]
 * const provider = GitHub({ checks })
 * ```
 */
export type OAuth2Check = "none" | "state" | "pkce"
/**
 * The checks for OpenID Connect, which adds `nonce`.
 *
 * @example
 * ```ts
 * import Google from "latchkey/providers/google"
 * import type { OIDCCheck } from "latchkey/providers"
 * const checks: OIDCCheck[] = ["pkce", "nonce"]
 * const provider = Google({ checks })
 * ```
 */
export type OIDCCheck = OAuth2Check | "nonce"
/**
 * Either kind of check list.
 *
 * @example
 * ```ts
 * import type { OAuthChecks } from "latchkey/providers"
 * const usesPkce = (checks: OAuthChecks) => checks.includes("pkce")
 * ```
 */
export type OAuthChecks = OAuth2Check[] | OIDCCheck[]

/**
 * Values the flow verified, handed to a custom token request.
 *
 * @example
 * ```ts
 * import type { OAuthCheckValues } from "latchkey/providers"
 * const verifierParams = (checks: OAuthCheckValues) => (checks.code_verifier ? { code_verifier: checks.code_verifier } : {})
 * ```
 */
export interface OAuthCheckValues {
  code_verifier?: string
  state?: string
  nonce?: string
}

/**
 * The authorization request's parameters: the RFC 6749 ones plus anything the provider takes.
 *
 * @example
 * ```ts
 * import Google from "latchkey/providers/google"
 * import type { AuthorizationParameters } from "latchkey/providers"
 * const params: AuthorizationParameters = { prompt: "select_account", login_hint: "ada@example.com" }
 * const provider = Google({ authorization: { params } })
 * ```
 */
export type AuthorizationParameters = Record<string, string | undefined>

/**
 * Replaces the token request. Receives the verified checks and the callback's parameters.
 *
 * @example
 * ```ts
 * import type { TokenEndpointHandler } from "latchkey/providers"
 * const request: TokenEndpointHandler = async ({ checks, params, provider, redirectUri, fetch }) => {
 *   const body = new URLSearchParams({ grant_type: "authorization_code", code: params.get("code") ?? "", redirect_uri: redirectUri, client_id: provider.clientId })
 *   if (checks.code_verifier) body.set("code_verifier", checks.code_verifier)
 *   return { tokens: await (await fetch(provider.token.url!, { method: "POST", body })).json() }
 * }
 * ```
 */
export type TokenEndpointHandler = (context: {
  checks: OAuthCheckValues
  params: URLSearchParams
  provider: ResolvedOAuthProvider
  /** The redirect URI of this sign-in, which the token request must repeat. */
  redirectUri: string
  /** The fetch the flow was configured with. */
  fetch: typeof fetch
}) => Awaitable<{ tokens: TokenSet }>

/**
 * Replaces the userinfo request. Receives the tokens; returns the raw profile.
 *
 * @example
 * ```ts
 * import type { UserinfoEndpointHandler } from "latchkey/providers"
 * const request: UserinfoEndpointHandler = async ({ provider, fetchJson }) => {
 *   const { data } = await fetchJson<{ data: { id: string; email: string } }>(provider.userinfo.url!)
 *   return { sub: data.id, email: data.email }
 * }
 * ```
 */
export type UserinfoEndpointHandler = (context: {
  tokens: TokenSet
  provider: ResolvedOAuthProvider
  /** The fetch the flow was configured with. */
  fetch: typeof fetch
  /**
   * Requests JSON with the access token as a Bearer credential (override `authorization` in
   * `init.headers` when the API wants another scheme); a failure becomes an `OAuthProfileError`.
   */
  fetchJson: <T = unknown>(url: string, init?: RequestInit) => Promise<T>
}) => Awaitable<Profile>

/**
 * Adjusts a token endpoint response before it is processed (for providers that bend the spec).
 *
 * @example
 * ```ts
 * import type { ResponseConform } from "latchkey/providers"
 * // For a token endpoint that wraps its answer in `data`: unwrap it; `undefined` keeps the original.
 * const conform: ResponseConform = async (response) => {
 *   const body = (await response.json()) as { data?: Record<string, unknown> }
 *   return body.data ? Response.json(body.data, { status: response.status }) : undefined
 * }
 * ```
 */
export type ResponseConform = (response: Response) => Awaitable<Response | undefined>

/**
 * The authorization endpoint: a URL, or a URL with parameters.
 *
 * @example
 * ```ts
 * import type { AuthorizationEndpointConfig } from "latchkey/providers"
 * const authorization: AuthorizationEndpointConfig = { url: "https://auth.acme.dev/authorize", params: { scope: "openid email" } }
 * ```
 */
export type AuthorizationEndpointConfig = string | { url?: string; params?: AuthorizationParameters }

/**
 * The token endpoint: a URL, or an object that may replace or adjust the request.
 *
 * @example
 * ```ts
 * import type { TokenEndpointConfig } from "latchkey/providers"
 * const token: TokenEndpointConfig = "https://auth.acme.dev/token"
 * const proxied: TokenEndpointConfig = { url: "https://auth-proxy.acme.dev/token" }
 * ```
 */
export type TokenEndpointConfig =
  | string
  | { url?: string; params?: Record<string, string | undefined>; request?: TokenEndpointHandler; conform?: ResponseConform }

/**
 * The userinfo endpoint: a URL, or an object that may replace the request.
 *
 * @example
 * ```ts
 * import type { UserinfoEndpointConfig } from "latchkey/providers"
 * const userinfo: UserinfoEndpointConfig = { url: "https://api.acme.dev/me", params: { fields: "id,name,email" } }
 * ```
 */
export type UserinfoEndpointConfig = string | { url?: string; params?: Record<string, string | undefined>; request?: UserinfoEndpointHandler }

/**
 * Maps a provider's raw profile to a latchkey `User`.
 *
 * @example
 * ```ts
 * import GitHub, { type GitHubProfile } from "latchkey/providers/github"
 * import type { ProfileCallback } from "latchkey/providers"
 * const profile: ProfileCallback<GitHubProfile> = (profile) => ({ id: String(profile.id), name: profile.login, email: profile.email })
 * const provider = GitHub({ profile })
 * ```
 */
export type ProfileCallback<P> = (profile: P, tokens: TokenSet) => Awaitable<User>

/**
 * Picks what of the token response is kept on the `Account`.
 *
 * @example
 * ```ts
 * import GitHub from "latchkey/providers/github"
 * import type { AccountCallback } from "latchkey/providers"
 * const account: AccountCallback = (tokens) => ({ access_token: tokens.access_token, scope: tokens.scope })
 * const provider = GitHub({ account })
 * ```
 */
export type AccountCallback = (tokens: TokenSet) => Awaitable<Partial<Account> | TokenSet | undefined | void>

/**
 * How the client authenticates at the token endpoint (RFC 7591 names).
 *
 * @example
 * ```ts
 * import Google from "latchkey/providers/google"
 * import type { TokenEndpointAuthMethod } from "latchkey/providers"
 * const method: TokenEndpointAuthMethod = "client_secret_post"
 * const provider = Google({ client: { token_endpoint_auth_method: method } })
 * ```
 */
export type TokenEndpointAuthMethod = "client_secret_basic" | "client_secret_post" | "client_secret_jwt" | "private_key_jwt" | "none"

/**
 * Client metadata beyond the id and secret.
 *
 * @example
 * ```ts
 * import Keycloak from "latchkey/providers/keycloak"
 * import type { ClientOptions } from "latchkey/providers"
 * const client: ClientOptions = { token_endpoint_auth_method: "client_secret_post", id_token_signed_response_alg: "ES256" }
 * const provider = Keycloak({ client })
 * ```
 */
export type ClientOptions = Partial<Omit<Client, "client_id">> & { token_endpoint_auth_method?: TokenEndpointAuthMethod }

/**
 * How the provider looks on the sign-in page.
 *
 * @example
 * ```ts
 * import Keycloak from "latchkey/providers/keycloak"
 * import type { ProviderStyle } from "latchkey/providers"
 * const style: ProviderStyle = { brandColor: "#0B5FFF", logo: "https://acme.dev/sso.svg" }
 * const provider = Keycloak({ name: "Acme SSO", style })
 * ```
 */
export interface ProviderStyle {
  brandColor?: string
  /** A URL or a `data:` URI, shown as an `<img>`; it wins over `mark`. */
  logo?: string
  /**
   * Loads the provider's mark for the sign-in page: a module whose default export is an inline
   * `<svg>` element (trusted markup, written into the page as is). Every built-in with a mark sets
   * it to a dynamic import of its own mark, so an app's bundle carries the marks of the providers
   * it configures and no others, and loads them only when the page is first rendered.
   */
  mark?: () => Promise<{ default: string }>
  /** @deprecated Use `brandColor`. */
  bg?: string
  /** @deprecated The button text colour is derived from `brandColor`. */
  text?: string
}

/**
 * Provider behaviour that departs from the specs, named so it can be seen, documented and
 * implemented once in the provider core and the flow. A record lists the quirks it has.
 *
 * @example
 * ```ts
 * import type { OAuthConfig, ProviderQuirks } from "latchkey/providers"
 * const quirks: ProviderQuirks = { formPost: true, clientIdParam: "client_key" }
 * const acme: OAuthConfig = { id: "acme", name: "Acme", type: "oauth", issuer: "https://auth.acme.dev", quirks }
 * ```
 */
export interface ProviderQuirks {
  /**
   * RFC 9207: the provider appends `iss` to the callback. The value it must have, for providers
   * without a discovery document to announce it.
   */
  issParameter?: string
  /**
   * With `issParameter`: compare the `iss` when the callback carries one, but do not require it.
   * For a provider that has rolled the parameter out and back (GitHub).
   */
  issParameterOptional?: boolean
  /** The callback arrives as a form POST (`response_mode=form_post`). */
  formPost?: boolean
  /** The user's name is sent once, on the first sign-in, as a JSON `user` form field (Apple). */
  firstSignInUserField?: boolean
  /** The discovery issuer is a `{tenantid}` template, validated against the id_token's `tid` (Entra ID). */
  tenantIssuer?: boolean
  /** The issuer is the user's own instance URL; trailing slashes are trimmed so discovery works. */
  instanceIssuer?: boolean
  /** The email address needs an extra scope, granted only to apps approved for it. */
  scopeGatedEmail?: string
  /** The authorization request names the client id with this parameter too (TikTok: `client_key`). */
  clientIdParam?: string
  /** A `response_type` other than `code` that still answers with a code (Azure DevOps: `Assertion`). */
  responseType?: string
  /**
   * The token response gives the expiry as an absolute `expires_at` in milliseconds, not
   * `expires_in` (Medium); read so that refreshes are timed right.
   */
  expiresAtMilliseconds?: boolean
  /**
   * The userinfo endpoint is a service of its own that answers with a JWT it issues itself, signed
   * with the provider's published keys (BankID Norway). The flow verifies that JWT as any signed
   * userinfo, accepting as its `iss` an URL on the userinfo endpoint's origin as well as the
   * issuer, and reads a JWS body as a JWT whatever content type labels it.
   */
  userinfoIssuedByEndpoint?: boolean
}

/**
 * Facts about a provider that the flow and the docs rely on.
 *
 * @example
 * ```ts
 * import type { ProviderCapabilities } from "latchkey/providers"
 * const capabilities: ProviderCapabilities = { refresh: true, revocation: "https://auth.acme.dev/oauth/revoke" }
 * ```
 */
export interface ProviderCapabilities {
  /** Whether it issues refresh tokens that latchkey can use. */
  refresh: boolean
  /**
   * RFC 7009 token revocation: the endpoint URL, `true` when the discovery document announces it,
   * or `false` when the provider has none.
   */
  revocation: string | boolean
}

/**
 * The fields an OAuth 2.0 provider is configured with.
 *
 * @example
 * ```ts
 * import type { OAuth2Config } from "latchkey/providers"
 * const acme: OAuth2Config<{ id: number; login: string }> = {
 *   id: "acme", name: "Acme", type: "oauth",
 *   authorization: "https://acme.dev/oauth/authorize", token: "https://acme.dev/oauth/token", userinfo: "https://api.acme.dev/me",
 *   profile: (profile) => ({ id: String(profile.id), name: profile.login }),
 * }
 * ```
 */
export interface OAuth2Config<P = Profile> extends Omit<CommonProviderOptions, "name"> {
  /** Shown to users, as in "Sign in with Acme". Default: the id. */
  name?: string
  type: "oauth"
  authorization?: AuthorizationEndpointConfig
  token?: TokenEndpointConfig
  userinfo?: UserinfoEndpointConfig
  /**
   * The discovery document URL, when it is not `<issuer>/.well-known/openid-configuration`;
   * `{issuer}` in it stands for the issuer. Given without an issuer, the issuer is read back from it.
   */
  wellKnown?: string
  /** The authorization server's issuer identifier; with it, endpoints come from discovery. */
  issuer?: string
  /** The JWKS URL, for providers that sign but publish no discovery document. */
  jwks_endpoint?: string
  /**
   * The user's own instance, for self-hosted OAuth 2.0 providers (Mastodon, Gitea, …): it replaces
   * `{baseUrl}` in the endpoint URLs. Default: `AUTH_<ID>_ISSUER`. Trailing slashes are trimmed.
   */
  baseUrl?: string
  /** Maps the raw profile to a `User`. Default: `id` from `sub` or `id`, `email`, `name`, `image` from `picture`. */
  profile?: ProfileCallback<P>
  /** Picks what of the token response the `Account` keeps. */
  account?: AccountCallback
  /** Default `["pkce"]`. */
  checks?: OAuth2Check[]
  clientId?: string
  clientSecret?: string
  /** The private key for `private_key_jwt` client authentication. */
  clientPrivateKey?: CryptoKey | { key: CryptoKey; kid?: string }
  client?: ClientOptions
  /** Where callbacks are proxied through, for preview deployments; adds the `state` check. */
  redirectProxyUrl?: string
  /**
   * Link a new account to an existing user with the same email without proof that the user owns
   * both. Safe only when the provider verifies emails. Default false.
   */
  allowDangerousEmailAccountLinking?: boolean
  style?: ProviderStyle
  /** Named departures from the specs. */
  quirks?: ProviderQuirks
  /** Refresh and revocation support. */
  capabilities?: ProviderCapabilities
  /** The provider's own documentation for this integration. */
  docs?: string
  /**
   * Set on a built-in whose service is retired: why, and since when. The id stays so configs still
   * compile; the docs table marks the provider.
   */
  deprecated?: string
  /** What the user passed to the factory; merged over the defaults by `resolveProviders`. */
  options?: OAuthUserConfig<P>
}

/**
 * The fields an OpenID Connect provider is configured with.
 *
 * @example
 * ```ts
 * import type { OIDCConfig } from "latchkey/providers"
 * const acme: OIDCConfig = { id: "acme", name: "Acme", type: "oidc", issuer: "https://login.acme.dev", checks: ["pkce", "nonce"] }
 * ```
 */
export interface OIDCConfig<P = Profile> extends Omit<OAuth2Config<P>, "type" | "checks" | "options"> {
  type: "oidc"
  /** Default `["pkce"]`. */
  checks?: OIDCCheck[]
  /**
   * With `false`, the profile comes from the userinfo endpoint; an id_token is still required and
   * validated, and the userinfo `sub` must equal its `sub`. Default true: the profile is the
   * id_token's claims.
   */
  idToken?: boolean
  options?: OIDCUserConfig<P>
}

/**
 * An OAuth 2.0 or OpenID Connect provider configuration.
 *
 * @example
 * ```ts
 * import type { OAuthConfig } from "latchkey/providers"
 * const discovers = (provider: OAuthConfig) => provider.type === "oidc" || provider.issuer !== undefined
 * ```
 */
export type OAuthConfig<P = Profile> = OIDCConfig<P> | OAuth2Config<P>

/**
 * What a user passes to an OAuth 2.0 provider factory: every field optional.
 *
 * @example
 * ```ts
 * import Discord, { type DiscordProfile } from "latchkey/providers/discord"
 * import type { OAuthUserConfig } from "latchkey/providers"
 * const options: OAuthUserConfig<DiscordProfile> = { authorization: { params: { scope: "identify" } } }
 * const provider = Discord(options)
 * ```
 */
export type OAuthUserConfig<P = Profile> = Omit<Partial<OAuth2Config<P>>, "options" | "type">

/**
 * What a user passes to an OpenID Connect provider factory: every field optional.
 *
 * @example
 * ```ts
 * import Google, { type GoogleProfile } from "latchkey/providers/google"
 * import type { OIDCUserConfig } from "latchkey/providers"
 * const options: OIDCUserConfig<GoogleProfile> = { clientId: "…", clientSecret: "…", checks: ["pkce", "nonce"] }
 * const provider = Google(options)
 * ```
 */
export type OIDCUserConfig<P = Profile> = Omit<Partial<OIDCConfig<P>>, "options" | "type">

/**
 * An OAuth 2.0 or OpenID Connect provider written as an object in its own `const`, without an
 * annotation. TypeScript widens such an object's strings: `type: "oidc"` becomes `type: string`,
 * and so do `checks` and `client.token_endpoint_auth_method`, which no literal type accepts. This
 * shape accepts them as strings; `resolveProviders` checks each at run time, at `createAuth`
 * (`InvalidProviderError` for an unknown type, check or method, with the nearest valid one).
 * Annotate the const (`const acme: OIDCConfig = …`) to have TypeScript check them instead.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * const corp = { id: "corp", type: "oidc", issuer: "https://login.corp.example", clientId: "app", clientSecret: "…" }
 * export const { handler, auth } = createAuth({ providers: [corp] }) // a WidenedOAuthConfig
 * ```
 */
export interface WidenedOAuthConfig extends Omit<OAuth2Config<any>, "type" | "checks" | "client" | "options"> {
  /** `"oauth"` or `"oidc"`, checked at run time. */
  type: string
  /** Checked at run time, as {@link OAuth2Config.checks} and {@link OIDCConfig.checks}. */
  checks?: readonly string[]
  client?: Omit<ClientOptions, "token_endpoint_auth_method"> & { token_endpoint_auth_method?: string }
  /** As {@link OIDCConfig.idToken}. */
  idToken?: boolean
}

/**
 * Any provider configuration.
 *
 * @example
 * ```ts
 * import { GitHub, Resend, type ProviderConfig } from "latchkey/providers"
 * const configs: ProviderConfig[] = [GitHub(), Resend({ from: "auth@acme.dev" })]
 * const ids = configs.map((config) => config.id) // ["github", "resend"]
 * ```
 */
export type ProviderConfig = OAuthConfig<any> | EmailConfig | CredentialsConfig | WebAuthnConfig | PasswordConfig

/**
 * A provider: a configuration, or a factory that makes one (`GitHub` as well as `GitHub({...})`).
 * As in Auth.js, a hand-written `Provider` with no type argument gets an untyped `profile`
 * (`any`), so an Auth.js app's `profile(profile) { return { id: profile.sub } }` keeps compiling;
 * name the profile (`Provider<CorpProfile>`) to have it checked.
 *
 * @example
 * ```ts
 * import { GitHub, Google, type GoogleProfile, type Provider } from "latchkey/providers"
 * const github: Provider = GitHub // a factory: resolveProviders calls it with no options
 * const google: Provider<GoogleProfile> = Google({ authorization: { params: { prompt: "select_account" } } })
 * ```
 */
export type Provider<P = any> = OAuthConfig<P> | EmailConfig | CredentialsConfig | WebAuthnConfig | PasswordConfig | WidenedOAuthConfig | ((options?: any) => ProviderConfig)

/**
 * The `providers` list of a config.
 *
 * @example
 * ```ts
 * import { GitHub, Google, Resend, type AppProviders } from "latchkey/providers"
 * const providers: AppProviders = [GitHub, Google, Resend({ from: "Acme <auth@acme.dev>" })]
 * ```
 */
export type AppProviders = Provider<any>[]

/**
 * A resolved endpoint: absolute URL (when not replaced by `request`) and parameters as strings.
 *
 * @example
 * ```ts
 * import type { ResolvedEndpoint } from "latchkey/providers"
 * const withParams = (endpoint: ResolvedEndpoint) => {
 *   const url = new URL(endpoint.url!)
 *   for (const [name, value] of Object.entries(endpoint.params)) url.searchParams.set(name, value)
 *   return url
 * }
 * ```
 */
export interface ResolvedEndpoint<Handler = never> {
  url?: string
  params: Record<string, string>
  request?: Handler
  conform?: ResponseConform
}

/**
 * An OAuth or OIDC provider after resolution: merged, validated and ready for the flow.
 *
 * @example
 * ```ts
 * import { resolveProvider, type ResolvedOAuthProvider } from "latchkey/providers"
 * import GitHub from "latchkey/providers/github"
 * const github = resolveProvider(GitHub({ clientId: "Iv1.x" }), { baseUrl: "https://app.example.com" }) as ResolvedOAuthProvider
 * github.authorization.params.scope // "read:user user:email"
 * ```
 */
export interface ResolvedOAuthProvider<P = Profile> extends AppProvider {
  type: "oauth" | "oidc"
  issuer?: string
  baseUrl?: string
  wellKnown?: string
  jwks_endpoint?: string
  authorization: ResolvedEndpoint
  token: ResolvedEndpoint<TokenEndpointHandler>
  userinfo: ResolvedEndpoint<UserinfoEndpointHandler>
  checks: OIDCCheck[]
  clientId: string
  clientSecret?: string
  clientPrivateKey?: CryptoKey | { key: CryptoKey; kid?: string }
  client: ClientOptions
  idToken: boolean
  profile: ProfileCallback<P>
  account: AccountCallback
  allowDangerousEmailAccountLinking: boolean
  redirectProxyUrl?: string
  style: ProviderStyle
  quirks: ProviderQuirks
  capabilities: ProviderCapabilities
  docs?: string
}

/**
 * Any provider after resolution.
 *
 * @example
 * ```ts
 * import type { ResolvedOAuthProvider, ResolvedProvider } from "latchkey/providers"
 * const oauthOnly = (providers: ResolvedProvider[]) =>
 *   providers.filter((provider): provider is ResolvedOAuthProvider => provider.type === "oauth" || provider.type === "oidc")
 * ```
 */
export type ResolvedProvider =
  | ResolvedOAuthProvider<any>
  | (EmailConfig & AppProvider)
  | (CredentialsConfig & AppProvider)
  | (WebAuthnConfig & AppProvider)
  | (PasswordConfig & AppProvider)
