/**
 * The limiter: for one attempt, which keys are counted, against which rules, and what it answers.
 * An attempt on a limited route counts under up to three keys at once: the client on every auth
 * route (`all`), the client on this route, and the identifier on this route. The identifier key
 * (the account as the route's provider spells it) is what stops a spray from many IPs at one
 * account; a sign-in clears it. With no client resolvable,
 * only the identifier counts (and a warning is logged once): never one shared bucket that one
 * abuser could fill for everyone. Everything the handler does is reached through
 * {@link RateLimitHost}, so this file never imports the handler.
 *
 * @module
 */
import { LatchkeyError } from "../errors.js"
import { normalizeEmailAddress } from "../lib/email-address.js"
import type { LoggerInstance } from "../types.js"
import { keyedHash, normalizeIdentifier } from "./identifier.js"
import { memoryRateLimitStore } from "./memory-store.js"
import { DEFAULT_LIMITS, ROUTES } from "./rules.js"
import type { CaptchaRequest, LimitTable, RateLimitCount, RateLimitKey, RateLimitEvent, RateLimitPlugIn, RateLimitRoute, RateLimitRule, RateLimitStore } from "./types.js"

/** An app's own rule for spelling an address (a provider's `normalizeIdentifier`). */
export type IdentifierNormalizer = (identifier: string) => string

/**
 * What the handler lends the limiter for one request: the request, its client key (resolved under
 * the app's proxy setting, or undefined), lazy reads of the identifier and of form fields (a body
 * is parsed only for a route that needs it), the route's provider's `normalizeIdentifier` when it
 * has one, and the app's event.
 */
export interface RateLimitHost extends CaptchaRequest {
  identifier(): string | null | undefined
  readonly normalizeIdentifier?: IdentifierNormalizer | undefined
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
  /** Clears `identifier`'s counts on every route, as the default spells it and as each of `normalizers` (the providers') does. */
  clearLockout(identifier: string, normalizers?: readonly IdentifierNormalizer[]): Promise<void>
}

/** Whether `value` is a promise (a store's or a hook's), not an answer given at once. */
export function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === "function"
}

/**
 * The account an identifier names, spelled as the route that signs it in spells it: by the
 * provider's own `normalizeIdentifier` when it has one (an app that folds `ada+1@…` into `ada@…`
 * must see one count, or guesses spread over spellings never meet the account's limit), else by
 * the default rules. When the provider's rule answers no address, or throws, the route signs no
 * one in with it; the attempt still counts, under the default spelling.
 */
function accountOf(identifier: string | null | undefined, normalize: IdentifierNormalizer | undefined): string | undefined {
  if (normalize === undefined) return normalizeIdentifier(identifier)
  try {
    return normalizeEmailAddress(identifier, normalize) ?? normalizeIdentifier(identifier)
  } catch {
    return normalizeIdentifier(identifier)
  }
}

/** What a store that fails to clear a count after a sign-in is logged as. */
const NOT_CLEARED = "the account signed in, but its count was not cleared"

/** A pass with nothing to clear when it succeeds: no identifier counted, or a store that failed. */
const PASSED: RateLimitVerdict = { refused: false, succeeded: () => {} }

/** One key a route counts under: whose it is, its rule, and the text its key starts with. */
interface Slot {
  kind: "client" | "identifier"
  rule: RateLimitRule
  prefix: string
}

/** What one route counts: its keys, whether one of them is the identifier (so it must be read), and whether a captcha guards it. */
interface RoutePlan {
  slots: Slot[]
  identifier: boolean
  /** Behind a captcha: the slots counted before it (the client's) and after it (the account's). */
  captcha: { before: Slot[]; after: Slot[] } | undefined
}

/**
 * The keys each route counts under, worked out once from the limits: the client on every auth
 * route (`all`), the client on this route, and the identifier on this route, each where a rule is set.
 */
function plansOf(limits: LimitTable, captchaRoutes: readonly RateLimitRoute[]): Map<RateLimitRoute, RoutePlan> {
  const plans = new Map<RateLimitRoute, RoutePlan>()
  for (const route of ROUTES) {
    const { client, identifier } = limits[route]
    const slots: Slot[] = []
    if (limits.all.client) slots.push({ kind: "client", rule: limits.all.client, prefix: "all:c:" })
    if (client && route !== "all") slots.push({ kind: "client", rule: client, prefix: `${route}:c:` })
    if (identifier) slots.push({ kind: "identifier", rule: identifier, prefix: `${route}:i:` })
    const captcha = captchaRoutes.includes(route) ? { before: slots.filter(({ kind }) => kind === "client"), after: slots.filter(({ kind }) => kind === "identifier") } : undefined
    plans.set(route, { slots, identifier: identifier !== false, captcha })
  }
  return plans
}

/** The limiter of a plug-in (or of the defaults, when `plugIn` is undefined), bound to the app's secret. */
export function createRateLimiter(plugIn: RateLimitPlugIn | undefined, secret: string, production: boolean, logger: Required<LoggerInstance>): RateLimiter {
  const limits = plugIn?.limits ?? DEFAULT_LIMITS
  const captcha = plugIn?.captcha
  const plans = plansOf(limits, captcha?.routes ?? [])
  const store: RateLimitStore = plugIn?.store ?? memoryRateLimitStore()
  if (store.perInstance && production) logger.warn("ERR_RATE_LIMIT_PER_INSTANCE", { message: "counts are per instance: share them with redisRateLimitStore" })
  const hashOf = keyedHash(secret)
  let warnedNoClient = false

  /** Logs and reports a refusal with a short hash of the key: never the address nor the IP. */
  async function refuse(host: RateLimitHost, event: Omit<RateLimitEvent, "keyHash">, key: string): Promise<RateLimitVerdict> {
    const keyHash = (await hashOf(key)).slice(0, 12)
    logger.warn(event.key === "captcha" ? "ERR_CAPTCHA_FAILED" : "ERR_RATE_LIMITED", { message: `${event.route}: ${event.key} ${keyHash}` })
    await host.report({ ...event, keyHash })
    return { refused: event.key === "captcha" ? "CaptchaFailed" : "RateLimited", retryAfter: event.retryAfter }
  }

  /** A store that cannot answer (Redis down) must not take sign-in down with it: the attempt goes on unlimited, logged as an error, never silently. */
  function storeFailed(error: unknown, what = "this attempt was not limited"): RateLimitVerdict {
    logger.error(new LatchkeyError(`the rate-limit store failed; ${what}`, { cause: error }))
    return PASSED
  }

  /**
   * Counts the attempt under its route's keys, then judges it. With no client resolvable, only the
   * identifier counts. A store that counts several keys at once is asked once (one round trip).
   * Behind a captcha, the client's keys count first, then the captcha is checked, and only an
   * attempt that passed it counts against the account: a bot that solves none spends its own
   * budget, never the account's, so it cannot lock the owner out (two round trips to a shared store).
   */
  function count(host: RateLimitHost, route: RateLimitRoute, plan: RoutePlan, identifierHash: string | undefined): RateLimitVerdict | Promise<RateLimitVerdict> {
    if (host.clientKey === undefined && !warnedNoClient) {
      warnedNoClient = true
      logger.warn("ERR_NO_CLIENT_IP", { message: "no client IP (set trustedProxy): limits count per identifier only" })
    }
    const phases = plan.captcha
    if (phases === undefined) return countSlots(host, route, plan.slots, identifierHash)
    const clients = countSlots(host, route, phases.before, identifierHash)
    const afterClients = (verdict: RateLimitVerdict): Promise<RateLimitVerdict> | RateLimitVerdict => {
      if (verdict.refused) return verdict
      return captcha!.verify(host).then((passed) => (passed ? countSlots(host, route, phases.after, identifierHash) : refuse(host, { route, key: "captcha", retryAfter: 0 }, `${route}:${host.clientKey}`)))
    }
    return isPromise(clients) ? clients.then(afterClients) : afterClients(clients)
  }

  /** Counts `slots` under what they key on (the client, or the identifier's hash), and judges the counts. */
  function countSlots(host: RateLimitHost, route: RateLimitRoute, slots: Slot[], identifierHash: string | undefined): RateLimitVerdict | Promise<RateLimitVerdict> {
    const counted: Slot[] = []
    const keys: RateLimitKey[] = []
    for (const slot of slots) {
      const part = slot.kind === "client" ? host.clientKey : identifierHash
      if (part === undefined) continue
      counted.push(slot)
      keys.push({ key: slot.prefix + part, rule: slot.rule })
    }
    let answers: RateLimitCount[] | Promise<RateLimitCount[]>
    try {
      answers = consumeAll(keys)
    } catch (error) {
      return storeFailed(error)
    }
    if (isPromise(answers)) return answers.then((counts) => judgeCounts(host, route, counted, keys, counts), storeFailed)
    return judgeCounts(host, route, counted, keys, answers)
  }

  /** The counts of every key: one call to a store that counts several at once, else one consume per key. */
  function consumeAll(keys: RateLimitKey[]): RateLimitCount[] | Promise<RateLimitCount[]> {
    if (keys.length === 0) return []
    if (store.consumeMany) return store.consumeMany(keys)
    const answers = keys.map(({ key, rule }) => store.consume(key, rule))
    return answers.some(isPromise) ? Promise.all(answers) : (answers as RateLimitCount[])
  }

  /** A store's answer that is not one count per key is a store that failed, not a pass nor a refusal. */
  function judgeCounts(host: RateLimitHost, route: RateLimitRoute, counted: Slot[], keys: RateLimitKey[], counts: RateLimitCount[]): RateLimitVerdict | Promise<RateLimitVerdict> {
    if (!Array.isArray(counts) || counts.length !== keys.length) return storeFailed(new TypeError(`the rate-limit store answered ${Array.isArray(counts) ? counts.length : typeof counts} counts for ${keys.length} keys`))
    return judge(host, route, counted, keys, counts)
  }

  function judge(host: RateLimitHost, route: RateLimitRoute, counted: Slot[], keys: RateLimitKey[], counts: RateLimitCount[]): RateLimitVerdict | Promise<RateLimitVerdict> {
    // One pass: the first key over its limit names the refusal; the longest wait of every key over its limit is the answer.
    let over = -1
    let retryAfter = 1
    let identifierKey: string | undefined
    for (let index = 0; index < counted.length; index++) {
      const { count: attempts, resetInMs } = counts[index]!
      if (attempts > counted[index]!.rule.limit) {
        if (over === -1) over = index
        retryAfter = Math.max(retryAfter, Math.ceil(resetInMs / 1000))
      }
      if (counted[index]!.kind === "identifier") identifierKey = keys[index]!.key
    }
    if (over !== -1) return refuse(host, { route, key: counted[over]!.kind, retryAfter }, keys[over]!.key)
    return identifierKey === undefined ? PASSED : { refused: false, succeeded: () => clearAfterSignIn(identifierKey) }
  }

  /**
   * Clears an account's count once it signed in. The session is already issued: a store that
   * fails now (Redis gone between the count and the clear) is logged, never turned into a failed
   * sign-in, as a store that fails to count is.
   */
  function clearAfterSignIn(key: string): void | Promise<void> {
    try {
      const cleared = store.clear(key)
      if (isPromise(cleared)) return cleared.then(undefined, (error: unknown) => void storeFailed(error, NOT_CLEARED))
    } catch (error) {
      storeFailed(error, NOT_CLEARED)
    }
  }

  // Each step goes on at once with what is not a promise: on Node the identifier's hash is a
  // string and the memory store answers counts, so an attempt that passes takes no microtask turn
  // (the sign-in path's whole budget for counting is a few microseconds).
  return {
    check(host, route) {
      const plan = plans.get(route)!
      const raw = plan.identifier ? accountOf(host.identifier(), host.normalizeIdentifier) : undefined
      const hash = raw === undefined ? undefined : hashOf(raw)
      return typeof hash === "object" ? hash.then((value) => count(host, route, plan, value)) : count(host, route, plan, hash)
    },
    async clearLockout(identifier, normalizers = []) {
      // The credentials routes spell it by default, a provider's routes by its own rule: every spelling goes.
      const values = new Set([normalizeIdentifier(identifier), ...normalizers.map((normalize) => accountOf(identifier, normalize))])
      for (const value of values) {
        const hash = value && (await hashOf(value))
        if (hash) await Promise.all(ROUTES.map((route) => limits[route].identifier && store.clear(`${route}:i:${hash}`)))
      }
    },
  }
}
