/**
 * `latchkey/rate-limits`: abuse protection's parts an app may pick. `createAuth` already limits
 * attempts by default in production with a memory store; from here come that store (to size it),
 * the types of a store of the app's own, and the captcha recipes. The Redis store is in
 * `latchkey/redis`. See docs/rate-limits.md.
 *
 * @module
 */
export { memoryRateLimitStore } from "./memory-store.js"
export { hcaptcha, recaptcha, turnstile, type SiteverifyOptions } from "./captcha.js"
export { DEFAULT_LIMITS } from "./rules.js"
export type { CaptchaOptions, CaptchaVerifier, RateLimitCount, RateLimitEvent, RateLimitOptions, RateLimitRoute, RateLimitRule, RateLimitStore, RouteLimits } from "./types.js"
