/**
 * The limiter: for one attempt, which keys are counted, against which rules, and what it answers.
 * An attempt on a limited route counts under up to three keys at once: the client on every auth
 * route (`all`), the client on this route, and the identifier on this route. The identifier key is
 * what stops a spray from many IPs at one account; it is cleared when that account signs in. With
 * no client resolvable, only the identifier counts (and a warning is logged once): never one
 * shared bucket that one abuser could fill for everyone. Everything the handler does is reached
 * through {@link RateLimitHost}, so this file never imports the handler.
 *
 * @module
 */
import { InvalidOptionError } from "../errors.js"
import type { LoggerInstance } from "../types.js"
import { keyedHash, normalizeIdentifier } from "./identifier.js"
import { memoryRateLimitStore } from "./memory-store.js"
import { ROUTES, settleLimits } from "./rules.js"
import type { CaptchaOptions, RateLimitEvent, RateLimitOptions, RateLimitRoute, RateLimitRule, RateLimitStore } from "./types.js"

/**
 * What the handler lends the limiter for one request: the request, its client key (already
 * resolved under the app's proxy setting, or undefined), lazy reads of the identifier and captcha
 * fields (a body is parsed only for a route that needs it), and the app's event.
 */
export interface RateLimitHost {
  readonly request: Request
  readonly clientKey: string | undefined
  identifier(): string | null | undefined
  field(name: string): string | null | undefined
  report(event: RateLimitEvent): Promise<void>
}

/** The limiter's answer: go on (and call `succeeded` when the attempt signed someone in), or refuse. */
export type RateLimitVerdict =
  | { refused: false; succeeded(): Promise<void> }
  | { refused: "RateLimited" | "CaptchaFailed"; retryAfter: number }

/** The settled plug-in: what the handler calls. */
export interface RateLimiter {
  readonly store: RateLimitStore
  check(host: RateLimitHost, route: RateLimitRoute): Promise<RateLimitVerdict>
  clearLockout(identifier: string): Promise<void>
}

interface CountedKey {
  kind: "client" | "identifier"
  key: string
  rule: RateLimitRule
}

const GO_ON: RateLimitVerdict = { refused: false, succeeded: async () => {} }

function settleCaptcha(captcha: CaptchaOptions | undefined): CaptchaOptions | undefined {
  if (captcha === undefined) return undefined
  if (typeof captcha?.verify !== "function" || !Array.isArray(captcha.routes) || captcha.routes.some((route) => !ROUTES.includes(route) || (route as RateLimitRoute) === "all")) {
    throw new InvalidOptionError("rateLimits.captcha", "rateLimits.captcha needs verify (a function) and routes (limited routes other than all).")
  }
  return captcha
}

/**
 * The limiter for `options` bound to the app's secret, or undefined when limits are off: `false`,
 * `enabled: false`, or no option outside production. An options object turns them on anywhere.
 */
export function settleRateLimiter(options: RateLimitOptions | false | undefined, settings: { secret: string; production: boolean; logger: Required<LoggerInstance> }): RateLimiter | undefined {
  if (options === false || (options?.enabled ?? (options !== undefined || settings.production)) === false) return undefined
  const { secret, logger } = settings
  const limits = settleLimits(options?.routes)
  const captcha = settleCaptcha(options?.captcha)
  const store = options?.store ?? memoryRateLimitStore()
  if (typeof store.consume !== "function" || typeof store.clear !== "function") throw new InvalidOptionError("rateLimits.store", "rateLimits.store must have consume(key, rule) and clear(key).")
  if (store.perInstance && settings.production) logger.warn("ERR_RATE_LIMIT_PER_INSTANCE", { message: "rate limits count in this instance's memory: with several instances, pass rateLimits.store from latchkey/redis" })
  let warnedNoClient = false

  async function keysOf(host: RateLimitHost, route: RateLimitRoute): Promise<CountedKey[]> {
    const keys: CountedKey[] = []
    const { client, identifier } = limits[route]
    if (host.clientKey !== undefined) {
      const ceiling = limits.all.client
      if (ceiling) keys.push({ kind: "client", key: `all:c:${host.clientKey}`, rule: ceiling })
      if (client && route !== "all") keys.push({ kind: "client", key: `${route}:c:${host.clientKey}`, rule: client })
    } else if (!warnedNoClient) {
      warnedNoClient = true
      logger.warn("ERR_NO_CLIENT_IP", { message: "no client IP could be resolved (set trustedProxy): limits count per identifier only" })
    }
    const raw = identifier ? normalizeIdentifier(host.identifier()) : undefined
    if (identifier && raw !== undefined) keys.push({ kind: "identifier", key: `${route}:i:${await keyedHash(secret, raw)}`, rule: identifier })
    return keys
  }

  /** A short hash of a refused key for the log line and the event: never the address nor the IP. */
  async function refuse(route: RateLimitRoute, over: CountedKey, retryAfter: number, host: RateLimitHost): Promise<RateLimitVerdict> {
    const keyHash = (await keyedHash(secret, over.key)).slice(0, 12)
    logger.warn("ERR_RATE_LIMITED", { message: `rate limit hit on ${route} (${over.kind} key ${keyHash}); retry after ${retryAfter} s` })
    await host.report({ route, key: over.kind, keyHash, retryAfter })
    return { refused: "RateLimited", retryAfter }
  }

  async function checkCaptcha(host: RateLimitHost, route: RateLimitRoute): Promise<RateLimitVerdict | undefined> {
    if (!captcha || !captcha.routes.includes(route as CaptchaOptions["routes"][number])) return undefined
    const token = host.field(captcha.field ?? "captchaToken")
    let passed = false
    try {
      passed = typeof token === "string" && token !== "" && (await captcha.verify(token, { clientIp: host.clientKey, request: host.request }))
    } catch (error) {
      logger.error(error as Error)
    }
    if (passed) return undefined
    logger.warn("ERR_CAPTCHA_FAILED", { message: `captcha missing or refused on ${route}` })
    await host.report({ route, key: "captcha", keyHash: "", retryAfter: 0 })
    return { refused: "CaptchaFailed", retryAfter: 0 }
  }

  return {
    store,
    async check(host, route) {
      const keys = await keysOf(host, route)
      const counts = await Promise.all(keys.map(({ key, rule }) => store.consume(key, rule)))
      let over: CountedKey | undefined
      let retryAfter = 0
      counts.forEach(({ count, resetInMs }, index) => {
        if (count <= keys[index]!.rule.limit) return
        over ??= keys[index]
        retryAfter = Math.max(retryAfter, Math.ceil(resetInMs / 1000))
      })
      if (over) return refuse(route, over, Math.max(1, retryAfter), host)
      const failed = await checkCaptcha(host, route)
      if (failed) return failed
      const identifierKey = keys.find((key) => key.kind === "identifier")?.key
      return identifierKey === undefined ? GO_ON : { refused: false, succeeded: () => store.clear(identifierKey) }
    },
    async clearLockout(identifier) {
      const value = normalizeIdentifier(identifier)
      if (value === undefined) return
      const hash = await keyedHash(secret, value)
      await Promise.all(ROUTES.filter((route) => limits[route].identifier).map((route) => store.clear(`${route}:i:${hash}`)))
    },
  }
}
