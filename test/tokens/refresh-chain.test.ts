// A stale cookie several refreshes behind: the provider's first refresh issues a token that is due
// again at once. The first read refreshes RT0 (and uses the short-lived result as it is, rather
// than loop); the next read with the same stale cookie follows RT0 to its remembered successor,
// finds it due, and refreshes RT1 (not RT0 again); every read after that follows the chain
// RT0 → RT1 → RT2 and asks the provider nothing. A replay of RT0 or RT1 would be refused, and
// would revoke the grant.
import { describe, expect, it } from "vitest"
import { refreshingProvider, requestFrom, signedIn } from "./support.js"
import { providerTokens } from "../../src/provider-tokens/index.js"

const idp = refreshingProvider({ shortRefreshes: 1 })

describe("a stale cookie two refreshes behind", () => {
  it("follows the chain of remembered refreshes, refreshing only its last link, and never replays a rotated refresh token", async () => {
    const { site, browser } = await signedIn(idp(), { providerTokens: providerTokens({ refresh: true }) })
    const stale = requestFrom(browser)
    const first = await site.getAccessToken(stale.clone(), "corp")
    expect(idp().refreshGrants()).toBe(1)
    const second = await site.getAccessToken(stale.clone(), "corp")
    expect(idp().refreshGrants()).toBe(2)
    expect(typeof second).toBe("string")
    expect(second).not.toBe(first)
    for (let i = 0; i < 3; i++) {
      expect((await site.auth(stale.clone()))?.user?.email).toBe("ada@example.com")
      expect(await site.getAccessToken(stale.clone(), "corp")).toBe(second)
    }
    expect(idp().refreshGrants()).toBe(2)
    expect(idp().refusedRefreshes()).toEqual([])
  })
})
