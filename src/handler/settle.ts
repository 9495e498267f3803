/**
 * Settling `createAuth`'s options, once: each is checked (a mistake throws a typed error naming the
 * option, before any request), defaults are filled from the environment (`AUTH_URL`,
 * `AUTH_SECRET`, `AUTH_TRUST_HOST`, with next-auth v4's names as a logged fallback), and the
 * result is cut into the named parts routes read (`SettledConfig`, context.ts): the session store
 * and its settings, cookies, pages, callbacks, events, HTTP options, the redirect proxy and the
 * plug-ins. Host headers are trusted only when `trustHost` (or `AUTH_TRUST_HOST`) says so.
 */
import type { AuthCallbacks } from "../adapters/callbacks.js"
import { settleSessionStore, wholeSeconds } from "../adapters/settle-sessions.js"
import { InvalidOptionError } from "../errors.js"
import { processEnv, readEnv, secretsFromEnv, type EnvRecord } from "../env.js"
import { secretsOrEnv } from "../jwt/secrets.js"
import { checkCookiesOption } from "../jwt/cookie-names.js"
import { trimTrailingSlashes } from "../lib/trim-slashes.js"
import type { LoggerInstance } from "../types.js"
import type { SettledConfig } from "./context.js"
import { settleDiagnostics } from "../adapters/diagnostics.js"
import { hidePasswordField } from "../adapters/hide-password.js"
import { settleLogger } from "./logger.js"
import { checkSecretStrength } from "./secret-strength.js"
import type { AuthConfig, AuthPages } from "./options.js"
import { settleRedirectProxy } from "./redirect-proxy.js"
import { settleProviderTokens } from "./settle-provider-tokens.js"
import { settleRateLimits } from "./rate-limit-settle.js"
import { pageColor } from "./pages/layout.js"

const DAY = 24 * 60 * 60

/** Validates and settles the configuration once. */
export function settleConfig(config: AuthConfig): SettledConfig {
  if (typeof config !== "object" || config === null || !Array.isArray(config.providers)) {
    throw new InvalidOptionError("providers", "createAuth needs a providers array.")
  }
  const env = config.env ?? processEnv()
  const logger = settleLogger(config.logger, config.debug)
  const pinnedUrl = authUrlOf(legacyFallback(env, "AUTH_URL", "NEXTAUTH_URL", logger))
  const basePath = trimTrailingSlashes(config.basePath ?? pinnedUrl?.pathname ?? "/auth") || "/auth"
  if (!basePath.startsWith("/")) throw new InvalidOptionError("basePath", "basePath must start with /.")
  checkCookiesOption(config.cookies)
  checkPages(config.pages, pinnedUrl)
  checkThemeColors(config.theme, logger)
  const redirectProxyUrl = config.redirectProxyUrl ?? readEnv("AUTH_REDIRECT_PROXY_URL", env)
  const sessionMaxAge = wholeSeconds(config.session?.maxAge ?? config.jwt?.maxAge, "session.maxAge", 30 * DAY)
  if (sessionMaxAge === 0) throw new InvalidOptionError("session.maxAge", "session.maxAge must be more than 0 seconds.")
  const secret = secretsOrEnv(config.secret ?? envSecrets(env, logger))
  // Users never carry a `password` column (an adapter that selects * reads it): see hide-password.ts.
  const adapter = hidePasswordField(config.adapter)
  checkSecretStrength(config.secret, secret, env, logger)
  return {
    secret,
    basePath,
    sessionMaxAge,
    updateAge: slidingInterval(config.session?.updateAge, sessionMaxAge, logger),
    ...settleSessionStore(config.session, adapter),
    sessionsBoundToBrowser: config.session?.sharedAcrossSubdomains !== true,
    trustHost: config.trustHost ?? (config.trustedProxy !== undefined || ["true", "1"].includes(readEnv("AUTH_TRUST_HOST", env) ?? "")),
    pinnedUrl,
    useSecureCookies: config.useSecureCookies,
    env,
    logger,
    diagnostics: settleDiagnostics(env, config.debug, logger),
    appProviders: config.providers,
    cookies: config.cookies,
    pages: config.pages ?? {},
    theme: config.theme,
    callbacks: (config.callbacks ?? {}) as AuthCallbacks,
    events: config.events ?? {},
    codec: withWrittenSecret(config.jwt, config.secret),
    http: { fetch: config.fetch, timeout: config.timeout },
    adapter,
    webauthn: config.webauthn,
    passwords: config.passwords,
    redirectProxyUrl,
    redirectProxy: settleRedirectProxy(redirectProxyUrl, config.redirectProxyOrigins ?? readEnv("AUTH_REDIRECT_PROXY_ORIGINS", env)?.split(",")),
    ...settleProviderTokens(config, secret, logger),
    // Rate limits (issue 27): handler/rate-limit-settle.ts.
    ...settleRateLimits(config, env, secret[0]!, logger),
    instance: config,
  }
}

/**
 * The built-in pages take hex colours (they work out a readable text colour from one): any other
 * is named at start-up, so a theme that does not show is never a mystery. The pages use their
 * default; an email's message gets the theme as written, as Auth.js's does.
 */
function checkThemeColors(theme: AuthConfig["theme"], logger: Required<LoggerInstance>): void {
  const unusable = (["brandColor", "buttonText"] as const).filter((name) => theme?.[name] !== undefined && pageColor(theme[name]) === undefined)
  if (unusable.length === 0) return
  const named = unusable.map((name) => `theme.${name} ${JSON.stringify(String(theme![name])).slice(0, 80)}`).join(" and ")
  logger.warn("THEME_COLOR", { message: `${named}: the pages take #rgb or #rrggbb, and use their default` })
}

/**
 * How often a session slides: `updateAge`, by default a tenth of a short maxAge (at most a day), so an
 * active user's session slides before it ends and maxAge is an idle timeout (to within a tenth), as
 * Auth.js's JWT sessions, re-sealed on every read, make it. One not below maxAge would never slide and
 * sign active users out at maxAge (Auth.js's sample 24 h beside a 1 h maxAge): the default is used, with a warning.
 */
function slidingInterval(updateAge: number | undefined, maxAge: number, logger: Required<LoggerInstance>): number {
  const fallback = Math.min(DAY, Math.ceil(maxAge / 10))
  const chosen = wholeSeconds(updateAge, "session.updateAge", fallback)
  if (chosen < maxAge || chosen === fallback) return chosen
  logger.warn("SESSION_UPDATE_AGE", { message: `session.updateAge (${chosen} s) is not below session.maxAge (${maxAge} s), so sessions would never slide: ${fallback} s is used` })
  return fallback
}

/**
 * `name` from the environment, else next-auth v4's `legacy` name for it, with a warning, so a v4
 * app's `.env` keeps working while it is renamed.
 */
function legacyFallback(env: EnvRecord, name: string, legacy: string, logger: Required<LoggerInstance>): string | undefined {
  const value = readEnv(name, env)
  if (value !== undefined) return value
  const old = readEnv(legacy, env)
  if (old !== undefined) logger.warn("LEGACY_ENV", { message: `${legacy} is read as ${name}; rename it` })
  return old
}

/** The secrets from `AUTH_SECRET` and its rotation variables, else next-auth v4's `NEXTAUTH_SECRET`. */
function envSecrets(env: EnvRecord, logger: Required<LoggerInstance>): string[] | undefined {
  const secrets = secretsFromEnv(env)
  if (secrets.length === 0) {
    const legacy = legacyFallback(env, "AUTH_SECRET", "NEXTAUTH_SECRET", logger)
    if (legacy !== undefined) secrets.push(legacy)
  }
  return nonEmpty(secrets)
}

/** A page on another origin would take the user off the app: refused when the origin is known. */
function checkPages(pages: AuthPages | undefined, pinnedUrl: URL | undefined): void {
  for (const [name, value] of Object.entries(pages ?? {})) {
    if (typeof value !== "string" || value === "") throw new InvalidOptionError(`pages.${name}`, `pages.${name} must be a path or a URL on the app's origin.`)
    const absolute = URL.canParse(value) ? new URL(value) : undefined
    if (absolute && pinnedUrl && absolute.origin !== pinnedUrl.origin) {
      throw new InvalidOptionError(`pages.${name}`, `pages.${name} is on another origin than AUTH_URL (${pinnedUrl.origin}).`)
    }
  }
}

/** `AUTH_URL` parsed, or undefined when unset; a value that is not an http(s) URL is refused by name. */
function authUrlOf(value: string | undefined): URL | undefined {
  if (!value) return undefined
  const parsed = URL.canParse(value) ? new URL(value) : undefined
  if (parsed?.protocol !== "https:" && parsed?.protocol !== "http:") {
    throw new InvalidOptionError("AUTH_URL", "AUTH_URL must be the app's absolute http(s) URL, such as https://app.example.com/auth.")
  }
  return parsed
}

function nonEmpty(list: string[]): string[] | undefined {
  return list.length > 0 ? list : undefined
}

/**
 * A custom `jwt.encode`/`decode` is handed the secret as the app wrote it, as Auth.js hands it: a
 * string stays a string (a codec written for Auth.js may key an HMAC with it), a list stays a list.
 */
function withWrittenSecret(codec: AuthConfig["jwt"], secret: AuthConfig["secret"]): NonNullable<AuthConfig["jwt"]> {
  if (typeof secret !== "string" || (!codec?.encode && !codec?.decode)) return codec ?? {}
  const { encode, decode } = codec
  return {
    ...codec,
    encode: encode && ((params) => encode({ ...params, secret })),
    decode: decode && ((params) => decode({ ...params, secret })),
  }
}
