/**
 * The limiter: for one attempt, which keys are counted, against which rules, and what it answers.
 * An attempt on a limited route counts under up to three keys at once: the client on every auth
 * route (`all`), the client on this route, and the identifier on this route. The identifier key is
 * what stops a spray from many IPs at one account; a sign-in clears it. With no client resolvable,
 * only the identifier counts (and a warning is logged once): never one shared bucket that one
 * abuser could fill for everyone. Everything the handler does is reached through
 * {@link RateLimitHost}, so this file never imports the handler.
 *
 * @module
 */
import { LatchkeyError } from "../errors.js"
import type { LoggerInstance } from "../types.js"
import { keyedHash, normalizeIdentifier } from "./identifier.js"
import { memoryRateLimitStore } from "./memory-store.js"
import { DEFAULT_LIMITS, ROUTES } from "./rules.js"
import type { CaptchaRequest, RateLimitCount, RateLimitEvent, RateLimitPlugIn, RateLimitRoute, RateLimitRule, RateLimitStore } from "./types.js"

/**
 * What the handler lends the limiter for one request: the request, its client key (resolved under
 * the app's proxy setting, or undefined), lazy reads of the identifier and of form fields (a body
 * is parsed only for a route that needs it), and the app's event.
 */
export interface RateLimitHost extends CaptchaRequest {
  identifier(): string | null | undefined
  report(event: RateLimitEvent): Promise<void>
}

/** The limiter's answer: go on (and call `succeeded` when the attempt signed someone in), or refuse. */
export type RateLimitVerdict = { refused: false; succeeded(): Promise<void> } | { refused: "RateLimited" | "CaptchaFailed"; retryAfter: number }

/** The settled limiter: what the handler calls. */
export interface RateLimiter {
  check(host: RateLimitHost, route: RateLimitRoute): Promise<RateLimitVerdict>
  clearLockout(identifier: string): Promise<void>
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === "function"
}

interface CountedKey {
  kind: "client" | "identifier"
  key: string
  rule: RateLimitRule
}

/** The limiter of a plug-in (or of the defaults, when `plugIn` is undefined), bound to the app's secret. */
export function createRateLimiter(plugIn: RateLimitPlugIn | undefined, secret: string, production: boolean, logger: Required<LoggerInstance>): RateLimiter {
  const limits = plugIn?.limits ?? DEFAULT_LIMITS
  const store: RateLimitStore = plugIn?.store ?? memoryRateLimitStore()
  if (store.perInstance && production) logger.warn("ERR_RATE_LIMIT_PER_INSTANCE", { message: "counts are per instance: share them with redisRateLimitStore" })
  const hashOf = keyedHash(secret)
  let warnedNoClient = false

  /** The keys an attempt counts under; `identifierHash` is its identifier's keyed hash, when the route counts one. */
  function keysOf(host: RateLimitHost, route: RateLimitRoute, identifierHash: string | undefined): CountedKey[] {
    const keys: CountedKey[] = []
    const { client, identifier } = limits[route]
    if (host.clientKey !== undefined) {
      if (limits.all.client) keys.push({ kind: "client", key: `all:c:${host.clientKey}`, rule: limits.all.client })
      if (client && route !== "all") keys.push({ kind: "client", key: `${route}:c:${host.clientKey}`, rule: client })
    } else if (!warnedNoClient) {
      warnedNoClient = true
      logger.warn("ERR_NO_CLIENT_IP", { message: "no client IP (set trustedProxy): limits count per identifier only" })
    }
    if (identifier && identifierHash !== undefined) keys.push({ kind: "identifier", key: `${route}:i:${identifierHash}`, rule: identifier })
    return keys
  }

  /** Logs and reports a refusal with a short hash of the key: never the address nor the IP. */
  async function refuse(host: RateLimitHost, event: Omit<RateLimitEvent, "keyHash">, key: string): Promise<RateLimitVerdict> {
    const keyHash = (await hashOf(key)).slice(0, 12)
    logger.warn(event.key === "captcha" ? "ERR_CAPTCHA_FAILED" : "ERR_RATE_LIMITED", { message: `${event.route}: ${event.key} ${keyHash}` })
    await host.report({ ...event, keyHash })
    return { refused: event.key === "captcha" ? "CaptchaFailed" : "RateLimited", retryAfter: event.retryAfter }
  }

  // Every step below awaits only what is really a promise: on Node the identifier's hash is a
  // string, and the memory store answers counts, not promises, so an attempt passes without a
  // microtask turn per key (the sign-in path's budget for all of this is a few microseconds).
  return {
    async check(host, route) {
      const raw = limits[route].identifier ? normalizeIdentifier(host.identifier()) : undefined
      const hash = raw === undefined ? undefined : hashOf(raw)
      const keys = keysOf(host, route, typeof hash === "object" ? await hash : hash)
      let counts: RateLimitCount[]
      try {
        const answers = keys.map(({ key, rule }) => store.consume(key, rule))
        counts = answers.some(isPromise) ? await Promise.all(answers) : (answers as RateLimitCount[])
      } catch (error) {
        // A store that cannot answer (Redis down) must not take sign-in down with it: the attempt
        // goes on unlimited, and every such attempt is logged as an error, never silently.
        logger.error(new LatchkeyError("the rate-limit store failed; this attempt was not limited", { cause: error }))
        return { refused: false, succeeded: async () => {} }
      }
      const over = keys.find((key, index) => counts[index]!.count > key.rule.limit)
      if (over) {
        const retryAfter = Math.max(1, ...counts.filter((count, index) => count.count > keys[index]!.rule.limit).map((count) => Math.ceil(count.resetInMs / 1000)))
        return refuse(host, { route, key: over.kind, retryAfter }, over.key)
      }
      if (plugIn?.captcha && (await plugIn.captcha(host, route)) === false) return refuse(host, { route, key: "captcha", retryAfter: 0 }, `${route}:${host.clientKey}`)
      const identifierKey = keys.find((key) => key.kind === "identifier")?.key
      return { refused: false, succeeded: async () => void (identifierKey && (await store.clear(identifierKey))) }
    },
    async clearLockout(identifier) {
      const value = normalizeIdentifier(identifier)
      const hash = value && (await hashOf(value))
      if (hash) await Promise.all(ROUTES.map((route) => limits[route].identifier && store.clear(`${route}:i:${hash}`)))
    },
  }
}
