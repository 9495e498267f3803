/**
 * The redirect proxy for preview deployments, as in Auth.js: a provider only knows one redirect
 * URI (the stable deployment's), so a preview deployment sends that URI and carries its own origin
 * in `state`, sealed with the shared secret. The stable deployment, receiving the callback, opens
 * the state and forwards the callback, unchanged, to the preview, which finishes the sign-in with
 * its own check cookies.
 *
 * Forwarding an authorization code is sending it away, so the origin in the state must be on the
 * `redirectProxyOrigins` allowlist, at both ends, and the code is only ever forwarded to the same
 * callback path on that origin. Without an allowlist a spoofed Host header at a preview could have
 * the proxy deliver codes anywhere.
 */
import { InvalidOptionError } from "../errors.js"
import { decode } from "../jwt/decode.js"
import { encode } from "../jwt/encode.js"
import { CHECK_MAX_AGE } from "../oauth/checks.js"
import type { ResolvedOAuthProvider } from "../providers/types.js"
import type { LoggerInstance } from "../types.js"

/** The salt of a sealed proxy state: it opens as nothing else, and nothing else opens as it. */
const STATE_SALT = "authjs.redirect-proxy-state"

/** The settled redirect proxy: where the stable deployment's handler lives, and who may use it. */
export interface RedirectProxy {
  /** The stable deployment's handler URL, such as `https://auth.example.com/auth`. */
  url: string
  origin: string
  allowed: RegExp[]
}

/** What the proxy's request-time steps read: the settled proxy, this deployment's origin, the secret and the logger. */
interface ProxyContext {
  redirectProxy: RedirectProxy | undefined
  origin: string
  secret: string[]
  logger: Required<LoggerInstance>
}

const PATTERN = /^(https?):\/\/([a-z0-9*.-]+)(:[0-9]{1,5})?$/

/**
 * An allowlist entry as a pattern: an origin whose host may contain `*`, matching one run of
 * letters, digits and hyphens within a label (`https://*.preview.example.com`).
 */
function originPattern(entry: string): RegExp {
  const match = PATTERN.exec(entry.trim().toLowerCase())
  if (!match) throw new InvalidOptionError("redirectProxyOrigins", `"${entry.slice(0, 100)}" is not an origin such as https://*.preview.example.com.`)
  const escaped = match[0].replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[a-z0-9-]*")
  return new RegExp(`^${escaped}$`)
}

/** Settles `redirectProxyUrl` and its allowlist; refuses a proxy without one. */
export function settleRedirectProxy(url: string | undefined, origins: string[] | undefined): RedirectProxy | undefined {
  if (url === undefined) return undefined
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  if (parsed?.protocol !== "https:" && parsed?.protocol !== "http:") throw new InvalidOptionError("redirectProxyUrl", "redirectProxyUrl must be the stable deployment's absolute handler URL.")
  if (!origins || origins.length === 0) {
    throw new InvalidOptionError("redirectProxyOrigins", "a redirect proxy needs redirectProxyOrigins (or AUTH_REDIRECT_PROXY_ORIGINS): the origins of the deployments it may forward sign-ins to.")
  }
  const trimmed = parsed.href.endsWith("/") ? parsed.href.slice(0, -1) : parsed.href
  return { url: trimmed, origin: parsed.origin, allowed: origins.map(originPattern) }
}

function isAllowed(proxy: RedirectProxy, origin: string): boolean {
  return proxy.allowed.some((pattern) => pattern.test(origin))
}

/**
 * How a sign-in with `provider` from this deployment goes through the proxy: the redirect URI to
 * send and the sealed state; undefined when it does not (no proxy, or this is the proxy).
 */
export async function proxiedSignIn(context: ProxyContext, provider: ResolvedOAuthProvider): Promise<{ redirectUri: string; state: string } | undefined | "refused"> {
  const proxy = context.redirectProxy
  if (!proxy || context.origin === proxy.origin) return undefined
  if (!isAllowed(proxy, context.origin)) {
    context.logger.error(new InvalidOptionError("redirectProxyOrigins", `this deployment's origin ${context.origin} is not in redirectProxyOrigins, so the proxy would not forward its sign-ins.`))
    return "refused"
  }
  const state = await encode({ token: { origin: context.origin }, secret: context.secret, salt: STATE_SALT, maxAge: CHECK_MAX_AGE })
  return { redirectUri: `${proxy.url}/callback/${encodeURIComponent(provider.id)}`, state }
}

/** The redirect URI a sign-in with `provider` used from this deployment: the proxy's, or its own. */
export function redirectUriFor(context: ProxyContext, provider: ResolvedOAuthProvider): string {
  const proxy = context.redirectProxy
  if (!proxy || context.origin === proxy.origin || !isAllowed(proxy, context.origin)) return provider.callbackUrl
  return `${proxy.url}/callback/${encodeURIComponent(provider.id)}`
}

/**
 * On the proxy: where to forward a callback whose state was sealed by another (allowed) deployment,
 * or undefined when the callback is this deployment's own. `"refused"` for an origin off the list.
 */
export async function forwardedCallback(context: ProxyContext, provider: ResolvedOAuthProvider, params: URLSearchParams): Promise<string | undefined | "refused"> {
  const proxy = context.redirectProxy
  const state = params.get("state")
  if (!proxy || context.origin !== proxy.origin || !state) return undefined
  const opened = await decode<{ origin?: unknown }>({ token: state, secret: context.secret, salt: STATE_SALT }).catch(() => null)
  if (typeof opened?.origin !== "string" || opened.origin === context.origin) return undefined
  if (!isAllowed(proxy, opened.origin)) {
    context.logger.error(new InvalidOptionError("redirectProxyOrigins", `a sign-in asked to be forwarded to ${opened.origin.slice(0, 100)}, which is not in redirectProxyOrigins.`))
    return "refused"
  }
  // The same callback path on the preview's origin, with every parameter the provider sent.
  const target = new URL(new URL(provider.callbackUrl).pathname, opened.origin)
  params.forEach((value, key) => target.searchParams.append(key, value))
  return target.href
}
