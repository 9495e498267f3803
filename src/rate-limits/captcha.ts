/**
 * Captcha recipes for the rate-limit plug-in's captcha hook: Cloudflare Turnstile, hCaptcha and
 * Google reCAPTCHA all speak one "siteverify" protocol (POST a form of `secret`, `response` and
 * optionally `remoteip`; read `{ success }` back), so one function speaks it and each recipe only
 * names its service's URL. A service that cannot be reached, or answers anything but
 * `success: true`, fails the check: a captcha that fails open is no captcha.
 *
 * @module
 */
import { InvalidOptionError } from "../errors.js"
import type { CaptchaVerifier } from "./types.js"

/**
 * Options of a captcha recipe: `url` replaces the service's siteverify URL (a test server, a
 * regional endpoint), `fetch` the global fetch, `timeout` the milliseconds before giving up
 * (default 5000). reCAPTCHA v3 also reads `minScore` (default 0.5) and `action`.
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import { hcaptcha, type SiteverifyOptions } from "latchkey/rate-limits"
 * const options: SiteverifyOptions = { timeout: 3000 }
 * const verify = hcaptcha(process.env.HCAPTCHA_SECRET!, options)
 * ```
 */
export interface SiteverifyOptions {
  url?: string
  fetch?: typeof fetch
  timeout?: number
  minScore?: number
  action?: string
}

/** One siteverify exchange; true only for `{ success: true }` (and, for scored answers, a score and action that pass). */
async function siteverify(url: string, secret: string, token: string, clientIp: string | undefined, options: SiteverifyOptions): Promise<boolean> {
  const form = new URLSearchParams({ secret, response: token })
  // A grouped IPv6 client (`2001:db8::/64`) is not an address the service can use.
  if (clientIp !== undefined && !clientIp.includes("/")) form.set("remoteip", clientIp)
  const response = await (options.fetch ?? fetch)(url, { method: "POST", body: form, signal: AbortSignal.timeout(options.timeout ?? 5000) })
  if (!response.ok) return false
  const body: unknown = await response.json().catch(() => null)
  if (typeof body !== "object" || body === null || !("success" in body) || body.success !== true) return false
  if ("score" in body && typeof body.score === "number" && body.score < (options.minScore ?? 0.5)) return false
  return options.action === undefined || ("action" in body && body.action === options.action)
}

function recipe(defaultUrl: string, secret: string, options: SiteverifyOptions): CaptchaVerifier {
  if (typeof secret !== "string" || secret === "") throw new InvalidOptionError("secret", "a captcha recipe needs the service's secret key.")
  const url = options.url ?? defaultUrl
  return (token, { clientIp }) => siteverify(url, secret, token, clientIp, options)
}

/**
 * Cloudflare Turnstile's check, for `rateLimits.captcha.verify`. The widget posts its token as
 * `cf-turnstile-response`: set `field` to that.
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import { turnstile } from "latchkey/rate-limits"
 * const captcha = { routes: ["credentials" as const], verify: turnstile(process.env.TURNSTILE_SECRET!), field: "cf-turnstile-response" }
 * ```
 */
export function turnstile(secret: string, options: SiteverifyOptions = {}): CaptchaVerifier {
  return recipe("https://challenges.cloudflare.com/turnstile/v0/siteverify", secret, options)
}

/**
 * hCaptcha's check, for `rateLimits.captcha.verify`. The widget posts `h-captcha-response`.
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import { hcaptcha } from "latchkey/rate-limits"
 * const captcha = { routes: ["email-send" as const], verify: hcaptcha(process.env.HCAPTCHA_SECRET!), field: "h-captcha-response" }
 * ```
 */
export function hcaptcha(secret: string, options: SiteverifyOptions = {}): CaptchaVerifier {
  return recipe("https://api.hcaptcha.com/siteverify", secret, options)
}

/**
 * Google reCAPTCHA's check (v2, or v3 with `minScore` and `action`), for `rateLimits.captcha.verify`.
 * The v2 widget posts `g-recaptcha-response`.
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import { recaptcha } from "latchkey/rate-limits"
 * const captcha = { routes: ["credentials" as const], verify: recaptcha(process.env.RECAPTCHA_SECRET!, { minScore: 0.7, action: "login" }), field: "g-recaptcha-response" }
 * ```
 */
export function recaptcha(secret: string, options: SiteverifyOptions = {}): CaptchaVerifier {
  return recipe("https://www.google.com/recaptcha/api/siteverify", secret, options)
}
