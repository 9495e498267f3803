/**
 * `rateLimits(options)`: the plug-in an app passes as `createAuth`'s `rateLimits` to change the
 * defaults. It checks every option once (a malformed rule, an unknown route, a store without
 * `consume` are refused by name) and settles the captcha hook. It lives in `latchkey/rate-limits`,
 * so `createAuth`'s own default (the numbers and a memory store) carries none of this checking.
 *
 * @module
 */
import { InvalidOptionError } from "../errors.js"
import { DEFAULT_LIMITS, ROUTES } from "./rules.js"
import type { CaptchaOptions, CaptchaRequest, LimitTable, RateLimitOptions, RateLimitPlugIn, RateLimitRoute, RateLimitRule, RouteLimits } from "./types.js"

function checkRule(rule: unknown, option: string): RateLimitRule | false {
  if (rule === false) return false
  const { limit, windowSeconds } = (rule ?? {}) as Partial<RateLimitRule>
  if (!Number.isSafeInteger(limit) || limit! < 1 || !Number.isSafeInteger(windowSeconds) || windowSeconds! < 1) {
    throw new InvalidOptionError(option, `${option} must be false or { limit, windowSeconds }, both whole numbers above 0.`)
  }
  return { limit: limit!, windowSeconds: windowSeconds! }
}

/** The defaults with the app's routes merged over them, key by key. */
function settleLimits(routes: Partial<Record<RateLimitRoute, RouteLimits>> | undefined): LimitTable {
  const settled = { ...DEFAULT_LIMITS }
  for (const [route, limits] of Object.entries(routes ?? {})) {
    if (!Object.hasOwn(DEFAULT_LIMITS, route)) throw new InvalidOptionError(`rateLimits.routes.${route}`, `rateLimits has no route "${route}"; the routes are ${ROUTES.join(", ")}.`)
    const merged = { ...settled[route as RateLimitRoute] }
    if (limits?.client !== undefined) merged.client = checkRule(limits.client, `rateLimits.routes.${route}.client`)
    if (limits?.identifier !== undefined) merged.identifier = checkRule(limits.identifier, `rateLimits.routes.${route}.identifier`)
    settled[route as RateLimitRoute] = merged
  }
  return settled
}

/** Routes no form posts to, so no captcha token can come with them: a captcha there would refuse every attempt. */
const NO_CAPTCHA = new Set<RateLimitRoute>(["all", "email-callback", "passkey"])

/**
 * The captcha hook: on its routes, the form field must hold a token the service accepts. A
 * verifier that throws (a service that cannot be reached) fails the check: no captcha fails open.
 */
function settleCaptcha(captcha: CaptchaOptions | undefined): RateLimitPlugIn["captcha"] {
  if (captcha === undefined) return undefined
  if (typeof captcha?.verify !== "function" || !Array.isArray(captcha.routes) || captcha.routes.some((route) => !ROUTES.includes(route) || NO_CAPTCHA.has(route))) {
    throw new InvalidOptionError("rateLimits.captcha", "rateLimits.captcha needs verify (a function) and routes (limited routes a form posts to: not all, email-callback nor passkey).")
  }
  const { verify, routes, field = "captchaToken" } = captcha
  // One answer per request: a change of address counts under two routes, and the services accept a
  // token once, so asking again would refuse the person who solved it.
  const answers = new WeakMap<Request, Promise<boolean>>()
  const check = (request: CaptchaRequest): Promise<boolean> => {
    const token = request.field(field)
    if (typeof token !== "string" || token === "") return Promise.resolve(false)
    // A verifier that throws before its promise (not an async function) fails the check too.
    return new Promise<unknown>((resolve) => resolve(verify(token, { clientIp: request.clientKey, request: request.request }))).then((passed) => passed === true, () => false)
  }
  return {
    routes: [...routes],
    verify(request: CaptchaRequest) {
      let answer = answers.get(request.request)
      if (answer === undefined) answers.set(request.request, (answer = check(request)))
      return answer
    },
  }
}

/**
 * The rate-limit plug-in for `createAuth`'s `rateLimits`: the default limits with `routes` merged
 * over them, `store` (default: a bounded memory store; `redisRateLimitStore` from
 * `latchkey/redis` to share counts across instances), and the `captcha` hook. Passing it turns
 * limits on outside production too; `enabled: false` turns them off.
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @throws {@link index!InvalidOptionError} for an unknown route, a malformed rule, a store without `consume` and `clear`, or a captcha hook without `verify`.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * import { rateLimits, turnstile } from "latchkey/rate-limits"
 * import Credentials from "latchkey/providers/credentials"
 * export const { handler, auth } = createAuth({
 *   providers: [Credentials({ credentials: { email: {}, password: {} }, authorize: async () => null })],
 *   trustedProxy: "vercel",
 *   rateLimits: rateLimits({
 *     routes: { credentials: { identifier: { limit: 5, windowSeconds: 900 } } },
 *     captcha: { routes: ["credentials"], verify: turnstile(process.env.TURNSTILE_SECRET!), field: "cf-turnstile-response" },
 *   }),
 * })
 * ```
 */
export function rateLimits(options: RateLimitOptions = {}): RateLimitPlugIn {
  const { store } = options
  if (store !== undefined && (typeof store?.consume !== "function" || typeof store.clear !== "function" || (store.consumeMany !== undefined && typeof store.consumeMany !== "function"))) {
    throw new InvalidOptionError("rateLimits.store", "rateLimits.store must have consume(key, rule) and clear(key), and consumeMany(keys), when it has one, must be a function.")
  }
  return { enabled: options.enabled !== false, limits: settleLimits(options.routes), store, captcha: settleCaptcha(options.captcha) }
}
