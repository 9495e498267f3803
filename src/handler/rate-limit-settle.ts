/**
 * The rate-limit plug-in and the client-IP setting, settled once with the rest of the config. One
 * setting, `trustedProxy`, says which proxy the app runs behind: it names the header the client's
 * address is read from, and it also trusts that proxy's Host headers (as `trustHost` does), so host
 * trust and client trust cannot disagree. Limits are on by default in production
 * (`NODE_ENV=production`), on wherever the app passes options, and off with `rateLimits: false`.
 */
import { readEnv, type EnvRecord } from "../env.js"
import { InvalidOptionError } from "../errors.js"
import { isTrustedProxy, type TrustedProxy } from "../rate-limits/client-ip.js"
import { settleRateLimiter, type RateLimiter } from "../rate-limits/limiter.js"
import type { RateLimitOptions } from "../rate-limits/types.js"
import type { LoggerInstance } from "../types.js"

/** What the handler keeps of the plug-in: the limiter (none when off) and the proxy whose headers name the client. */
export interface SettledRateLimits {
  rateLimiter: RateLimiter | undefined
  trustedProxy: TrustedProxy | undefined
}

/** The options the settling reads, as `AuthConfig` spells them. */
export interface RateLimitConfig {
  rateLimits?: RateLimitOptions | false
  trustedProxy?: TrustedProxy
}

/** The limiter and proxy setting; a malformed `trustedProxy` is refused by name. */
export function settleRateLimits(config: RateLimitConfig, settings: { env: EnvRecord; secret: string[]; logger: Required<LoggerInstance> }): SettledRateLimits {
  const { trustedProxy } = config
  if (trustedProxy !== undefined && !isTrustedProxy(trustedProxy)) {
    throw new InvalidOptionError("trustedProxy", 'trustedProxy must be "vercel", "cloudflare", "fly", "nginx", { header, hops } or a function of the request.')
  }
  const production = readEnv("NODE_ENV", settings.env) === "production"
  const rateLimiter = settleRateLimiter(config.rateLimits, { secret: settings.secret[0]!, production, logger: settings.logger })
  return { rateLimiter, trustedProxy }
}
