// Round three's mutation survivor on provider-token refresh: single flight inside one process.
// "One refresh at the provider" also holds when each concurrent caller goes to the shared store
// and all but one wait on its lock, so it did not notice the in-process flight being gone. Here the
// store is the real memory store with every call recorded: N concurrent reads of a due session in
// one process must take its lock once, and read its result no more than the one refresher does.
import { describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { memoryRefreshStore, type RefreshStore } from "../../src/provider-tokens/refresh-store.js"
import { providerTokens } from "../../src/provider-tokens/index.js"
import { refreshingProvider, requestFrom, sessionRead, signedIn } from "./support.js"

const idp = refreshingProvider()
const READERS = 20

/** The real memory store, with each call recorded by method. */
function recordingStore(): { store: RefreshStore; calls: Record<keyof RefreshStore, number> } {
  const real = memoryRefreshStore()
  const calls = { acquire: 0, release: 0, put: 0, get: 0 }
  const store: RefreshStore = {
    acquire: (...args) => (calls.acquire++, real.acquire(...args)),
    release: (...args) => (calls.release++, real.release(...args)),
    put: (...args) => (calls.put++, real.put(...args)),
    get: (...args) => (calls.get++, real.get(...args)),
  }
  return { store, calls }
}

describe("single flight for provider-token refresh, in one process", () => {
  it.each(["jwt", "database"] as const)(`${READERS} concurrent reads of a due %s session take the store's lock once`, async (strategy) => {
    const { store, calls } = recordingStore()
    const config = { providerTokens: providerTokens({ refresh: { store } }), session: { strategy }, ...(strategy === "database" ? { adapter: memoryAdapter() } : {}) }
    const { site, browser } = await signedIn(idp(), config)
    const grants = idp().refreshGrants()
    const request = requestFrom(browser)
    const reads = await Promise.all(Array.from({ length: READERS }, (_, i) => (i % 2 ? site.getAccessToken(request.clone(), "corp") : sessionRead(site, request.clone()))))
    expect(reads).toHaveLength(READERS)
    expect(idp().refreshGrants() - grants).toBe(1)
    // One refresher: one lock taken and released, one result stored, and its two reads (before and after the lock).
    expect(calls).toEqual({ acquire: 1, release: 1, put: 1, get: 2 })
    const tokens = reads.filter((read): read is string => typeof read === "string")
    expect(new Set(tokens).size).toBe(1)
  })
})
