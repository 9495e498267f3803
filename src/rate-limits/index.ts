/**
 * `latchkey/rate-limits`: the rate-limit plug-in an app passes to change the defaults
 * (`createAuth({ rateLimits: rateLimits({ ... }) })`), its memory store (to size it), the types of
 * a store of the app's own, and the captcha recipes. `createAuth` already limits attempts by
 * default in production with the defaults and a memory store; the Redis store is in
 * `latchkey/redis`. See docs/rate-limits.md.
 *
 * @module
 */
export { rateLimits } from "./plug-in.js"
export { memoryRateLimitStore, type MemoryRateLimitStore } from "./memory-store.js"
export { hcaptcha, recaptcha, turnstile, type SiteverifyOptions } from "./captcha.js"
export { DEFAULT_LIMITS } from "./rules.js"
// RateLimitPlugIn and RateLimitEvent are exported from the root, with createAuth's config.
export type { CaptchaOptions, CaptchaVerifier, RateLimitCount, RateLimitKey, RateLimitOptions, RateLimitRoute, RateLimitRule, RateLimitStore, RouteLimits } from "./types.js"
