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

export type { CredentialInput, CredentialsConfig } from "./credentials.js"
export type { EmailConfig, EmailUserConfig } from "./email/types.js"
export type { WebAuthnConfig } from "./webauthn.js"

/** Every kind of provider. */
export type ProviderType = "oidc" | "oauth" | "email" | "credentials" | "webauthn"

/** The provider types whose sign-in is a form post to latchkey itself rather than a redirect away. */
export type RedirectableProviderType = "email" | "credentials"

/** The three OAuth endpoints a provider can configure. */
export type OAuthEndpointType = "authorization" | "token" | "userinfo"

/** What every provider has. */
export interface CommonProviderOptions {
  /** Unique among the configured providers, and part of the callback URL: `<base>/callback/<id>`. */
  id: string
  /** Shown to users, as in "Sign in with GitHub". */
  name: string
  type: ProviderType
}

/** A provider as the handler exposes it: with the URLs that start and finish its sign-in. */
export interface AppProvider extends CommonProviderOptions {
  signinUrl: string
  callbackUrl: string
}

/** The checks that protect an OAuth 2.0 authorization code flow. `"none"` disables them all. */
export type OAuth2Check = "none" | "state" | "pkce"
/** The checks for OpenID Connect, which adds `nonce`. */
export type OIDCCheck = OAuth2Check | "nonce"
/** Either kind of check list. */
export type OAuthChecks = OAuth2Check[] | OIDCCheck[]

/** Values the flow verified, handed to a custom token request. */
export interface OAuthCheckValues {
  code_verifier?: string
  state?: string
  nonce?: string
}

/** The authorization request's parameters: the RFC 6749 ones plus anything the provider takes. */
export type AuthorizationParameters = Record<string, string | undefined>

/** Replaces the token request. Receives the verified checks and the callback's parameters. */
export type TokenEndpointHandler = (context: {
  checks: OAuthCheckValues
  params: URLSearchParams
  provider: ResolvedOAuthProvider
  /** The redirect URI of this sign-in, which the token request must repeat. */
  redirectUri: string
  /** The fetch the flow was configured with. */
  fetch: typeof fetch
}) => Awaitable<{ tokens: TokenSet }>

/** Replaces the userinfo request. Receives the tokens; returns the raw profile. */
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

/** Adjusts a token endpoint response before it is processed (for providers that bend the spec). */
export type ResponseConform = (response: Response) => Awaitable<Response | undefined>

/** The authorization endpoint: a URL, or a URL with parameters. */
export type AuthorizationEndpointConfig = string | { url?: string; params?: AuthorizationParameters }

/** The token endpoint: a URL, or an object that may replace or adjust the request. */
export type TokenEndpointConfig =
  | string
  | { url?: string; params?: Record<string, string | undefined>; request?: TokenEndpointHandler; conform?: ResponseConform }

/** The userinfo endpoint: a URL, or an object that may replace the request. */
export type UserinfoEndpointConfig = string | { url?: string; params?: Record<string, string | undefined>; request?: UserinfoEndpointHandler }

/** Maps a provider's raw profile to a latchkey `User`. */
export type ProfileCallback<P> = (profile: P, tokens: TokenSet) => Awaitable<User>

/** Picks what of the token response is kept on the `Account`. */
export type AccountCallback = (tokens: TokenSet) => Awaitable<Partial<Account> | TokenSet | undefined | void>

/** How the client authenticates at the token endpoint (RFC 7591 names). */
export type TokenEndpointAuthMethod = "client_secret_basic" | "client_secret_post" | "client_secret_jwt" | "private_key_jwt" | "none"

/** Client metadata beyond the id and secret. */
export type ClientOptions = Partial<Omit<Client, "client_id">> & { token_endpoint_auth_method?: TokenEndpointAuthMethod }

/** How the provider looks on the sign-in page. */
export interface ProviderStyle {
  brandColor?: string
  /** A URL or a `data:` URI. Built-ins use inline SVG, so the page makes no outside requests. */
  logo?: string
  /** @deprecated Use `brandColor`. */
  bg?: string
  /** @deprecated The button text colour is derived from `brandColor`. */
  text?: string
}

/**
 * Provider behaviour that departs from the specs, named so it can be seen, documented and
 * implemented once in the provider core and the flow. A record lists the quirks it has.
 */
export interface ProviderQuirks {
  /**
   * RFC 9207: the provider appends `iss` to the callback. The value it must have, for providers
   * without a discovery document to announce it.
   */
  issParameter?: string
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
}

/** Facts about a provider that the flow and the docs rely on. */
export interface ProviderCapabilities {
  /** Whether it issues refresh tokens that latchkey can use. */
  refresh: boolean
  /**
   * RFC 7009 token revocation: the endpoint URL, `true` when the discovery document announces it,
   * or `false` when the provider has none.
   */
  revocation: string | boolean
}

/** The fields an OAuth 2.0 provider is configured with. */
export interface OAuth2Config<P = Profile> extends CommonProviderOptions {
  type: "oauth"
  authorization?: AuthorizationEndpointConfig
  token?: TokenEndpointConfig
  userinfo?: UserinfoEndpointConfig
  /** The discovery document URL, when it is not `<issuer>/.well-known/openid-configuration`. */
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
  /** What the user passed to the factory; merged over the defaults by `resolveProviders`. */
  options?: OAuthUserConfig<P>
}

/** The fields an OpenID Connect provider is configured with. */
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

/** An OAuth 2.0 or OpenID Connect provider configuration. */
export type OAuthConfig<P = Profile> = OIDCConfig<P> | OAuth2Config<P>

/** What a user passes to an OAuth 2.0 provider factory: every field optional. */
export type OAuthUserConfig<P = Profile> = Omit<Partial<OAuth2Config<P>>, "options" | "type">

/** What a user passes to an OpenID Connect provider factory: every field optional. */
export type OIDCUserConfig<P = Profile> = Omit<Partial<OIDCConfig<P>>, "options" | "type">

/** Any provider configuration. */
export type ProviderConfig = OAuthConfig<any> | EmailConfig | CredentialsConfig | WebAuthnConfig

/** A provider: a configuration, or a factory that makes one (`GitHub` as well as `GitHub({...})`). */
export type Provider<P = Profile> = OAuthConfig<P> | EmailConfig | CredentialsConfig | WebAuthnConfig | ((options?: any) => ProviderConfig)

/** The `providers` list of a config. */
export type AppProviders = Provider<any>[]

/** A resolved endpoint: absolute URL (when not replaced by `request`) and parameters as strings. */
export interface ResolvedEndpoint<Handler = never> {
  url?: string
  params: Record<string, string>
  request?: Handler
  conform?: ResponseConform
}

/** An OAuth or OIDC provider after resolution: merged, validated and ready for the flow. */
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

/** Any provider after resolution. */
export type ResolvedProvider =
  | ResolvedOAuthProvider<any>
  | (EmailConfig & AppProvider)
  | (CredentialsConfig & AppProvider)
  | (WebAuthnConfig & AppProvider)
