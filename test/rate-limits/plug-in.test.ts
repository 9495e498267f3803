// The rateLimits() plug-in checks its options once, by name, and createAuth refuses options that
// did not come through it: no malformed rule is ever skipped silently.
import { describe, expect, it } from "vitest"
import { InvalidOptionError } from "../../src/errors.js"
import { rateLimits } from "../../src/rate-limits/plug-in.js"
import { DEFAULT_LIMITS } from "../../src/rate-limits/rules.js"
import { attempt, limitedApp } from "./support.js"

describe("rateLimits()", () => {
  it("merges a route's rules over the defaults, key by key", () => {
    const { limits, enabled } = rateLimits({ routes: { credentials: { identifier: { limit: 5, windowSeconds: 60 } }, all: { client: false } } })
    expect(enabled).toBe(true)
    expect(limits.credentials).toEqual({ client: DEFAULT_LIMITS.credentials.client, identifier: { limit: 5, windowSeconds: 60 } })
    expect(limits.all.client).toBe(false)
    expect(limits["email-send"]).toEqual(DEFAULT_LIMITS["email-send"])
  })

  it("refuses an unknown route, a malformed rule, a store without consume, a captcha without verify", () => {
    const refusals: [unknown, string][] = [
      [{ routes: { signup: {} } }, "rateLimits.routes.signup"],
      [{ routes: { credentials: { client: { limit: 0, windowSeconds: 60 } } } }, "rateLimits.routes.credentials.client"],
      [{ routes: { credentials: { identifier: { limit: 5 } } } }, "rateLimits.routes.credentials.identifier"],
      [{ store: { clear: async () => {} } }, "rateLimits.store"],
      [{ captcha: { routes: ["credentials"] } }, "rateLimits.captcha"],
      [{ captcha: { routes: ["all"], verify: async () => true } }, "rateLimits.captcha"],
      // A link and a script's GET carry no form field: a captcha there would refuse every attempt.
      [{ captcha: { routes: ["email-callback"], verify: async () => true } }, "rateLimits.captcha"],
      [{ captcha: { routes: ["passkey"], verify: async () => true } }, "rateLimits.captcha"],
    ]
    for (const [options, option] of refusals) {
      let thrown: unknown
      try {
        rateLimits(options as never)
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(InvalidOptionError)
      expect((thrown as InvalidOptionError).option).toBe(option)
    }
  })

  it("createAuth refuses options that did not come through rateLimits(), and enabled: false is off", async () => {
    expect(() => limitedApp({ rateLimits: { routes: {} } as never })).toThrow(/rateLimits\(/)
    const { auth, seen } = limitedApp({ limits: { enabled: false } })
    for (let index = 0; index < 12; index++) {
      await attempt(auth, { ip: "203.0.113.1" })
    }
    expect(seen.authorize).toBe(12)
  })
})
