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
export type RateLimitVerdict = { refused: false; succeeded(): void | Promise<void> } | { refused: "RateLimited" | "CaptchaFailed"; retryAfter: number }

/**
 * The settled limiter: what the handler calls. `check` answers the verdict itself when nothing it
 * needs is a promise (the memory store on Node), so an attempt that passes costs the handler no
 * microtask turns; a promise otherwise.
 */
export interface RateLimiter {
  check(host: RateLimitHost, route: RateLimitRoute): RateLimitVerdict | Promise<RateLimitVerdict>
  clearLockout(identifier: string): Promise<void>
}

/** Whether `value` is a promise (a store's or a hook's), not an answer given at once. */
export function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
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

  /** A store that cannot answer (Redis down) must not take sign-in down with it: the attempt goes on unlimited, logged as an error, never silently. */
  function storeFailed(error: unknown): RateLimitVerdict {
    logger.error(new LatchkeyError("the rate-limit store failed; this attempt was not limited", { cause: error }))
    return { refused: false, succeeded: () => {} }
  }

  /** Counts the attempt under its keys, then judges it. */
  function count(host: RateLimitHost, route: RateLimitRoute, identifierHash: string | undefined): RateLimitVerdict | Promise<RateLimitVerdict> {
    const keys = keysOf(host, route, identifierHash)
    let answers: (RateLimitCount | Promise<RateLimitCount>)[]
    try {
      answers = keys.map(({ key, rule }) => store.consume(key, rule))
    } catch (error) {
      return storeFailed(error)
    }
    if (answers.some(isPromise)) return Promise.all(answers).then((counts) => judge(host, route, keys, counts), storeFailed)
    return judge(host, route, keys, answers as RateLimitCount[])
  }

  function judge(host: RateLimitHost, route: RateLimitRoute, keys: CountedKey[], counts: RateLimitCount[]): RateLimitVerdict | Promise<RateLimitVerdict> {
    const over = keys.find((key, index) => counts[index]!.count > key.rule.limit)
    if (over) {
      const retryAfter = Math.max(1, ...counts.filter((count, index) => count.count > keys[index]!.rule.limit).map((count) => Math.ceil(count.resetInMs / 1000)))
      return refuse(host, { route, key: over.kind, retryAfter }, over.key)
    }
    const identifierKey = keys.find((key) => key.kind === "identifier")?.key
    const passed: RateLimitVerdict = { refused: false, succeeded: () => (identifierKey === undefined ? undefined : store.clear(identifierKey)) }
    const captcha = plugIn?.captcha?.(host, route)
    if (captcha === undefined) return passed
    return captcha.then((ok) => (ok === false ? refuse(host, { route, key: "captcha", retryAfter: 0 }, `${route}:${host.clientKey}`) : passed))
  }

  // Each step goes on at once with what is not a promise: on Node the identifier's hash is a
  // string and the memory store answers counts, so an attempt that passes takes no microtask turn
  // (the sign-in path's whole budget for counting is a few microseconds).
  return {
    check(host, route) {
      const raw = limits[route].identifier ? normalizeIdentifier(host.identifier()) : undefined
      const hash = raw === undefined ? undefined : hashOf(raw)
      return typeof hash === "object" ? hash.then((value) => count(host, route, value)) : count(host, route, hash)
    },
    async clearLockout(identifier) {
      const value = normalizeIdentifier(identifier)
      const hash = value && (await hashOf(value))
      if (hash) await Promise.all(ROUTES.map((route) => limits[route].identifier && store.clear(`${route}:i:${hash}`)))
    },
  }
}
