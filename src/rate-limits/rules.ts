/**
 * The default limits, and an app's `routes` option merged over them. The numbers are argued in
 * docs/rate-limits.md against OWASP ASVS (no more than 100 failed attempts an hour on one account)
 * and NIST SP 800-63B (limit consecutive failures on an account): the identifier limits are the
 * account's protection, the client limits slow one machine spraying many accounts, and `all` is
 * only a ceiling no browser reaches.
 *
 * @module
 */
import { InvalidOptionError } from "../errors.js"
import type { RateLimitRoute, RateLimitRule, RouteLimits } from "./types.js"

const MINUTE = 60

/** Each route's limits when the app sets none. */
export const DEFAULT_LIMITS: Record<RateLimitRoute, { client: RateLimitRule | false; identifier: RateLimitRule | false }> = {
  // 10 wrong passwords per account per 15 minutes: 40 an hour at most, under ASVS's 100.
  credentials: { client: { limit: 30, windowSeconds: 5 * MINUTE }, identifier: { limit: 10, windowSeconds: 15 * MINUTE } },
  // Each send is a mail in someone's inbox: a few per address per hour, enough for a lost one.
  "email-send": { client: { limit: 10, windowSeconds: 15 * MINUTE }, identifier: { limit: 5, windowSeconds: 60 * MINUTE } },
  // Tokens are 256 bits, so this bounds load and scanners, not guessing.
  "email-callback": { client: { limit: 30, windowSeconds: 5 * MINUTE }, identifier: { limit: 10, windowSeconds: 15 * MINUTE } },
  // Options are a challenge each; the identifier is the address of a sign-up, when there is one.
  passkey: { client: { limit: 60, windowSeconds: 5 * MINUTE }, identifier: { limit: 20, windowSeconds: 15 * MINUTE } },
  // A page makes a few auth requests; 120 a minute per client is a ceiling only a script meets.
  all: { client: { limit: 120, windowSeconds: MINUTE }, identifier: false },
}

export const ROUTES = Object.keys(DEFAULT_LIMITS) as RateLimitRoute[]

function checkRule(rule: unknown, option: string): RateLimitRule | false {
  if (rule === false) return false
  const { limit, windowSeconds } = (rule ?? {}) as Partial<RateLimitRule>
  if (!Number.isSafeInteger(limit) || limit! < 1 || !Number.isSafeInteger(windowSeconds) || windowSeconds! < 1) {
    throw new InvalidOptionError(option, `${option} must be false or { limit, windowSeconds }, both whole numbers above 0.`)
  }
  return { limit: limit!, windowSeconds: windowSeconds! }
}

/** The defaults with the app's routes merged over them, key by key; an unknown route or a malformed rule is refused by name. */
export function settleLimits(routes: Partial<Record<RateLimitRoute, RouteLimits>> | undefined): typeof DEFAULT_LIMITS {
  const settled = { ...DEFAULT_LIMITS }
  for (const [route, limits] of Object.entries(routes ?? {})) {
    if (!Object.hasOwn(DEFAULT_LIMITS, route)) throw new InvalidOptionError(`rateLimits.routes.${route}`, `rateLimits.routes has no route "${route}"; the routes are ${ROUTES.join(", ")}.`)
    const name = route as RateLimitRoute
    const merged = { ...settled[name] }
    if (limits?.client !== undefined) merged.client = checkRule(limits.client, `rateLimits.routes.${route}.client`)
    if (limits?.identifier !== undefined) merged.identifier = checkRule(limits.identifier, `rateLimits.routes.${route}.identifier`)
    settled[name] = merged
  }
  return settled
}
