/**
 * What every flow function needs from its arguments: the resolved provider (a factory's output is
 * resolved here, with the redirect URI's origin as the app URL), the authorization server, the
 * oauth4webapi client and its authentication, and the secret that seals check cookies.
 */
import * as oauth from "oauth4webapi"
import { InvalidOptionError, InvalidProviderError, type CheckName } from "../errors.js"
import { secretsOrEnv, type SecretInput } from "../jwt/secrets.js"
import { resolveProvider } from "../providers/core/resolve.js"
import type { OAuthConfig, ResolvedOAuthProvider } from "../providers/types.js"
import { checkCookieName } from "./checks.js"
import { authorizationServer } from "./discovery.js"
import type { HttpOptions } from "./http.js"

/**
 * A provider as a factory returns it, or as `resolveProviders` returns it.
 *
 * @example
 * ```ts
 * import { startSignIn, type FlowProvider } from "latchkey/oauth"
 * import GitHub from "latchkey/providers/github"
 * const github: FlowProvider = GitHub({ clientId: process.env.GITHUB_ID, clientSecret: process.env.GITHUB_SECRET })
 * const { url, cookies } = await startSignIn(github, { redirectUri: "https://app.example.com/auth/callback/github" })
 * ```
 */
export type FlowProvider = OAuthConfig<any> | ResolvedOAuthProvider<any>

/**
 * Options shared by `startSignIn` and `finishSignIn`.
 *
 * @example
 * ```ts
 * import { finishSignIn, startSignIn, type SignInOptions } from "latchkey/oauth"
 * const options: SignInOptions = { redirectUri: "https://app.example.com/auth/callback/github", secret: process.env.AUTH_SECRET, timeout: 5000 }
 * const { url, cookies } = await startSignIn(github, options)
 * // later, at the callback: await finishSignIn(github, request, options)
 * ```
 */
export interface SignInOptions extends HttpOptions {
  /** The callback URL registered with the provider, such as `https://app.example.com/auth/callback/github`. */
  redirectUri: string
  /** Seals the check cookies. Default: `AUTH_SECRET` (and its rotation variables). */
  secret?: SecretInput
  /** Use `__Host-` cookie names and the Secure attribute. Default: whether `redirectUri` is https. */
  secure?: boolean
  /**
   * Names for the check cookies instead of `authjs.pkce.code_verifier`, `authjs.state` and
   * `authjs.nonce` (`__Host-` over https). A name without `__Host-` can be set by a sibling
   * subdomain, which the default names prevent.
   */
  checkCookieNames?: Partial<Record<CheckName, string>>
}

function isResolved(provider: FlowProvider): provider is ResolvedOAuthProvider {
  return typeof (provider as ResolvedOAuthProvider).callbackUrl === "string" && "capabilities" in provider && "checks" in provider
}

/** The provider, resolved if it is not yet. */
export function resolvedProvider(provider: FlowProvider, redirectUri: string): ResolvedOAuthProvider {
  if (isResolved(provider)) return provider
  const resolved = resolveProvider(provider, { baseUrl: new URL(redirectUri).origin })
  if (resolved.type !== "oauth" && resolved.type !== "oidc") {
    throw new InvalidProviderError(resolved.id, "type", "the OAuth flow needs an oauth or oidc provider.")
  }
  return resolved
}

/** The oauth4webapi client metadata for a provider. */
export function clientFor(provider: ResolvedOAuthProvider): oauth.Client {
  return { ...provider.client, client_id: provider.clientId }
}

/** The client authentication method the provider is configured with; client_secret_basic by default. */
export function clientAuthFor(provider: ResolvedOAuthProvider): oauth.ClientAuth {
  const method = provider.client.token_endpoint_auth_method ?? "client_secret_basic"
  if (method === "none") return oauth.None()
  if (method === "private_key_jwt") {
    if (provider.clientPrivateKey === undefined) throw new InvalidProviderError(provider.id, "clientPrivateKey", "private_key_jwt needs clientPrivateKey.")
    return oauth.PrivateKeyJwt(provider.clientPrivateKey)
  }
  if (!provider.clientSecret) throw new InvalidProviderError(provider.id, "clientSecret", `${method} needs a client secret.`)
  if (method === "client_secret_post") return oauth.ClientSecretPost(provider.clientSecret)
  if (method === "client_secret_jwt") return oauth.ClientSecretJwt(provider.clientSecret)
  return oauth.ClientSecretBasic(provider.clientSecret)
}

/** Everything a sign-in step needs, prepared once. */
export interface FlowContext {
  provider: ResolvedOAuthProvider
  server: oauth.AuthorizationServer
  client: oauth.Client
  secret: string[]
  secure: boolean
  redirectUri: string
  /** The cookie name of each check. */
  cookieName: (check: CheckName) => string
}

/** Validates the options and prepares the context of a sign-in step. */
export async function flowContext(provider: FlowProvider, options: SignInOptions): Promise<FlowContext> {
  if (typeof options?.redirectUri !== "string") throw new InvalidOptionError("redirectUri", "redirectUri is required: the callback URL registered with the provider.")
  let redirect: URL
  try {
    redirect = new URL(options.redirectUri)
  } catch {
    throw new InvalidOptionError("redirectUri", "redirectUri must be an absolute URL.")
  }
  const resolved = resolvedProvider(provider, options.redirectUri)
  const secure = options.secure ?? redirect.protocol === "https:"
  return {
    provider: resolved,
    server: await authorizationServer(resolved, options),
    client: clientFor(resolved),
    secret: secretsOrEnv(options.secret),
    secure,
    redirectUri: options.redirectUri,
    cookieName: (check) => options.checkCookieNames?.[check] ?? checkCookieName(check, secure),
  }
}
