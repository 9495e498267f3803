// The limiter on its own, with a host as the handler lends it: the identifier is counted as the
// route's provider spells it when the provider has its own `normalizeIdentifier`, a rule that
// throws or answers no address still counts (under the default spelling) instead of failing the
// request, and clearLockout, given the same rule, lifts the count the route made.
import { describe, expect, it } from "vitest"
import { createRateLimiter, type IdentifierNormalizer, type RateLimitHost, type RateLimitVerdict } from "../../src/rate-limits/limiter.js"
import { rateLimits } from "../../src/rate-limits/plug-in.js"

const stripTag: IdentifierNormalizer = (address) => address.trim().toLowerCase().replace(/\+[^@]*@/, "@")
const logger = { error: () => {}, warn: () => {}, debug: () => {} }
const ONE_GUESS = rateLimits({ routes: { "password-sign-in": { client: false, identifier: { limit: 1, windowSeconds: 600 } }, all: { client: false } } })

function limiter() {
  return createRateLimiter(ONE_GUESS, "latchkey-limiter-test-secret-0123456789", false, logger)
}

/** One request's host: no client, the identifier given, and the provider's rule when there is one. */
function host(identifier: string, normalizeIdentifier?: IdentifierNormalizer): RateLimitHost {
  return { request: new Request("https://app.example.com/auth/callback/password"), clientKey: undefined, identifier: () => identifier, field: () => undefined, normalizeIdentifier, report: async () => {} }
}

async function refused(verdict: RateLimitVerdict | Promise<RateLimitVerdict>): Promise<RateLimitVerdict["refused"]> {
  return (await verdict).refused
}

describe("the limiter's identifier under a provider's normalizeIdentifier", () => {
  it("counts the spellings the provider folds together as one account", async () => {
    const limits = limiter()
    expect(await refused(limits.check(host("ada+1@example.com", stripTag), "password-sign-in"))).toBe(false)
    expect(await refused(limits.check(host("ada+2@example.com", stripTag), "password-sign-in"))).toBe("RateLimited")
    // Without the provider's rule, a +tag is another address.
    expect(await refused(limits.check(host("bob+1@example.com"), "password-sign-in"))).toBe(false)
    expect(await refused(limits.check(host("bob+2@example.com"), "password-sign-in"))).toBe(false)
  })

  it("a rule that throws or answers no address counts under the default spelling, and never throws", async () => {
    const limits = limiter()
    const throws: IdentifierNormalizer = () => {
      throw new Error("the app's rule failed")
    }
    expect(await refused(limits.check(host("Ada@example.com", throws), "password-sign-in"))).toBe(false)
    expect(await refused(limits.check(host("ada@example.com", () => "not an address"), "password-sign-in"))).toBe("RateLimited")
  })

  it("clearLockout with the provider's rule lifts the count its spellings made, from any spelling", async () => {
    const limits = limiter()
    await limits.check(host("ada+1@example.com", stripTag), "password-sign-in")
    await limits.clearLockout("Ada+support@example.com", [stripTag])
    expect(await refused(limits.check(host("ada+2@example.com", stripTag), "password-sign-in"))).toBe(false)
  })
})
