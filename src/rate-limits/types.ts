/**
 * The vocabulary of the rate-limit plug-in: a rule (so many attempts in so many seconds), the store
 * that counts attempts against a rule, the routes that can be limited, and what the app may
 * configure. The store is the one seam an app fills to share counts across instances: memory is
 * built in, Redis comes from `latchkey/redis`, and anything else (Upstash, a database table)
 * implements {@link RateLimitStore}. Types only, so every floor above may name them.
 *
 * @module
 */

/**
 * At most `limit` attempts per `windowSeconds`; the window starts at a key's first attempt and the
 * key is locked out until it ends once the limit is passed.
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import type { RateLimitRule } from "latchkey/rate-limits"
 * const tenPerQuarterHour: RateLimitRule = { limit: 10, windowSeconds: 15 * 60 }
 * ```
 */
export interface RateLimitRule {
  limit: number
  windowSeconds: number
}

/**
 * One key an attempt counts under, and the rule it is counted against.
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import type { RateLimitKey } from "latchkey/rate-limits"
 * const client: RateLimitKey = { key: "credentials:c:198.51.100.7", rule: { limit: 30, windowSeconds: 300 } }
 * ```
 */
export interface RateLimitKey {
  key: string
  rule: RateLimitRule
}

/**
 * What one consume counted: this attempt's number within the key's window (1 for the first), and
 * the milliseconds until the window ends.
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import type { RateLimitCount } from "latchkey/rate-limits"
 * const third: RateLimitCount = { count: 3, resetInMs: 42_000 }
 * ```
 */
export interface RateLimitCount {
  count: number
  resetInMs: number
}

/**
 * Where attempts are counted. `consume` counts one attempt and answers the count in one atomic
 * step: two instances consuming the same key at once must get two different counts, or a burst
 * slips through. `clear` forgets a key (the app lifting a lockout, or a successful sign-in).
 * Keys are already hashed or grouped by the time they get here: a store never sees an address.
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import type { RateLimitStore } from "latchkey/rate-limits"
 * // A store on a database table: one UPSERT ... RETURNING per consume keeps it atomic.
 * declare const sql: (text: string, values: unknown[]) => Promise<{ count: number; reset_at: Date }[]>
 * const tableStore: RateLimitStore = {
 *   async consume(key, rule) {
 *     const [row] = await sql(
 *       "insert into rate_limits (key, count, reset_at) values ($1, 1, now() + make_interval(secs => $2)) on conflict (key) do update set count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end, reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end returning count, reset_at",
 *       [key, rule.windowSeconds],
 *     )
 *     return { count: row!.count, resetInMs: row!.reset_at.getTime() - Date.now() }
 *   },
 *   async clear(key) {
 *     await sql("delete from rate_limits where key = $1", [key])
 *   },
 * }
 * ```
 */
export interface RateLimitStore {
  /** Counts one attempt; a store in this process may answer the count itself instead of a promise. */
  consume(key: string, rule: RateLimitRule): RateLimitCount | Promise<RateLimitCount>
  /**
   * Counts one attempt under several keys at once (an attempt counts under up to three: the
   * client on every route, the client on this route, the identifier), answering the counts in
   * the keys' order, each counted as `consume` counts it. Optional: a store that has it is asked
   * once per attempt (one round trip for a shared store); without it, `consume` is asked per key.
   */
  consumeMany?(keys: readonly RateLimitKey[]): RateLimitCount[] | Promise<RateLimitCount[]>
  clear(key: string): void | Promise<void>
  /** True for a store whose counts are this instance's alone (memory): production warns once. */
  readonly perInstance?: boolean
}

/**
 * The limited routes. `credentials`: a credentials sign-in (`POST /signin/:id` or `/callback/:id`);
 * `email-send`: asking for a magic link; `email-callback`: following one; `passkey`: the passkey
 * options and callback; `password-sign-in`, `-sign-up`, `-forgot`, `-reset` and `-change`: the
 * password routes' POSTs (`-change` covers a change of address too); `all`: every auth route but
 * the session, per client.
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import type { RateLimitRoute } from "latchkey/rate-limits"
 * const captchaOn: RateLimitRoute[] = ["credentials", "email-send"]
 * ```
 */
export type RateLimitRoute =
  | "credentials"
  | "email-send"
  | "email-callback"
  | "passkey"
  | "password-sign-in"
  | "password-sign-up"
  | "password-forgot"
  | "password-reset"
  | "password-change"
  | "password-change-email"
  | "all"

/**
 * The two keys of one route's limit: per client (IP address, IPv6 by /64) and per identifier (the
 * address or username, hashed). `false` turns one off.
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import type { RouteLimits } from "latchkey/rate-limits"
 * const strict: RouteLimits = { client: { limit: 20, windowSeconds: 300 }, identifier: { limit: 5, windowSeconds: 900 } }
 * ```
 */
export interface RouteLimits {
  client?: RateLimitRule | false
  identifier?: RateLimitRule | false
}

/**
 * Checks a captcha answer with its service: true when the service accepted `token`. The recipes
 * `turnstile`, `hcaptcha` and `recaptcha` make one; see docs/rate-limits.md.
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import type { CaptchaVerifier } from "latchkey/rate-limits"
 * // A service of the app's own that answers { ok: boolean } for a token.
 * const ownService: CaptchaVerifier = async (token) => {
 *   const answer = await fetch("https://captcha.internal/check", { method: "POST", body: token })
 *   return answer.ok && ((await answer.json()) as { ok?: unknown }).ok === true
 * }
 * ```
 */
export type CaptchaVerifier = (token: string, context: { clientIp: string | undefined; request: Request }) => Promise<boolean>

/**
 * The captcha hook: on each chosen route, the form field `field` (default `captchaToken`) must hold
 * a token that `verify` accepts, or the attempt is refused with `CaptchaFailed`.
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import { turnstile, type CaptchaOptions } from "latchkey/rate-limits"
 * const captcha: CaptchaOptions = { routes: ["credentials", "email-send"], verify: turnstile(process.env.TURNSTILE_SECRET!), field: "cf-turnstile-response" }
 * ```
 */
export interface CaptchaOptions {
  /** Routes whose attempt is a form post: not `all`, nor `email-callback` (a link) nor `passkey` (its options are a GET the page's script makes). */
  routes: Exclude<RateLimitRoute, "all" | "email-callback" | "passkey">[]
  verify: CaptchaVerifier
  field?: string
}

/**
 * The options of the `rateLimits` plug-in factory: each route's limits replace the default for
 * that route key by key; `store` defaults to a bounded memory store; `captcha` adds the captcha
 * hook; `enabled: false` turns every limit off (as `rateLimits: false` does).
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import { rateLimits, type RateLimitOptions } from "latchkey/rate-limits"
 * const options: RateLimitOptions = { routes: { credentials: { identifier: { limit: 5, windowSeconds: 900 } } } }
 * const plugIn = rateLimits(options) // createAuth({ ..., rateLimits: plugIn })
 * ```
 */
export interface RateLimitOptions {
  enabled?: boolean
  store?: RateLimitStore
  routes?: Partial<Record<RateLimitRoute, RouteLimits>>
  captcha?: CaptchaOptions
}

/** Each route's two rules, settled: a rule, or false for none. */
export type LimitTable = Record<RateLimitRoute, { client: RateLimitRule | false; identifier: RateLimitRule | false }>

/**
 * What one captcha check may read of a request: the request, its client key, and a form field.
 * The handler lends it; the captcha hook reads it.
 */
export interface CaptchaRequest {
  readonly request: Request
  readonly clientKey: string | undefined
  field(name: string): string | null | undefined
}

/**
 * The settled plug-in `rateLimits(options)` makes (from `latchkey/rate-limits`), for `createAuth`'s
 * `rateLimits` option: the limits, the store, and the captcha hook, checked once. Without the
 * option, production uses the defaults with a memory store; `false` turns limits off.
 *
 * Exported from `latchkey`.
 *
 * @example
 * ```ts
 * import { createAuth, type RateLimitPlugIn } from "latchkey"
 * import { rateLimits } from "latchkey/rate-limits"
 * import GitHub from "latchkey/providers/github"
 * const limits: RateLimitPlugIn = rateLimits({ routes: { all: { client: { limit: 300, windowSeconds: 60 } } } })
 * export const { handler, auth } = createAuth({ providers: [GitHub], rateLimits: limits })
 * ```
 */
export interface RateLimitPlugIn {
  readonly enabled: boolean
  readonly limits: LimitTable
  readonly store: RateLimitStore | undefined
  /** The captcha hook: the routes it is on for, and whether `request` answered it. */
  readonly captcha: { readonly routes: readonly RateLimitRoute[]; verify(request: CaptchaRequest): Promise<boolean> } | undefined
}

/**
 * What the `rateLimited` event and the `ERR_RATE_LIMITED` log line carry: the route, which key
 * refused, a short hash of that key (never the address, nor the IP in clear) and the seconds
 * until a retry may pass.
 *
 * Exported from `latchkey`.
 *
 * @example
 * ```ts
 * import type { RateLimitEvent } from "latchkey"
 * const report = (event: RateLimitEvent) => metrics.increment(`auth.limited.${event.route}.${event.key}`)
 * ```
 */
export interface RateLimitEvent {
  route: RateLimitRoute
  key: "client" | "identifier" | "captcha"
  keyHash: string
  retryAfter: number
}
