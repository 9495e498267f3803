/**
 * The rate-limit plug-in and the client-IP setting, settled once with the rest of the config. One
 * setting, `trustedProxy`, says which proxy the app runs behind: it names the header the client's
 * address is read from, and it also trusts that proxy's Host headers (as `trustHost` does), so host
 * trust and client trust cannot disagree. Limits are on by default in production
 * (`NODE_ENV=production`) with the default numbers, on wherever the app passes the plug-in, and
 * off with `rateLimits: false`.
 */
import { readEnv, type EnvRecord } from "../env.js"
import { InvalidOptionError } from "../errors.js"
import { isTrustedProxy, type TrustedProxy } from "../rate-limits/client-ip.js"
import { createRateLimiter, type RateLimiter } from "../rate-limits/limiter.js"
import type { RateLimitPlugIn } from "../rate-limits/types.js"
import type { LoggerInstance } from "../types.js"

/** What the handler keeps of the plug-in: the limiter (none when off) and the proxy whose headers name the client. */
export interface SettledRateLimits {
  rateLimiter: RateLimiter | undefined
  trustedProxy: TrustedProxy | undefined
}

/** The limiter and proxy setting; a malformed `trustedProxy`, or options not made by `rateLimits()`, are refused by name. */
export function settleRateLimits(config: { rateLimits?: RateLimitPlugIn | false; trustedProxy?: TrustedProxy }, env: EnvRecord, secret: string, logger: Required<LoggerInstance>): SettledRateLimits {
  const { trustedProxy, rateLimits: plugIn } = config
  if (trustedProxy !== undefined && !isTrustedProxy(trustedProxy)) throw new InvalidOptionError("trustedProxy", 'trustedProxy must be "vercel", "cloudflare", "fly", "nginx", { header, hops } or a function.')
  if (plugIn !== undefined && plugIn !== false && typeof plugIn?.limits !== "object") {
    throw new InvalidOptionError("rateLimits", 'rateLimits must be false or the plug-in rateLimits({ ... }) makes, with `import { rateLimits } from "latchkey/rate-limits"`.')
  }
  const production = readEnv("NODE_ENV", env) === "production"
  const on = plugIn === undefined ? production : plugIn !== false && plugIn.enabled
  return { rateLimiter: on ? createRateLimiter(plugIn || undefined, secret, production, logger) : undefined, trustedProxy }
}
