// Database sessions: how a refresh's new tokens reach the account row when things go wrong. A
// rotating provider refuses a refresh token it has already exchanged (and revokes the grant), so
// the row must end up with the successor even when the first write-back fails, one write must be
// made however many reads and instances ask, and a row removed while its refresh was in flight
// must stay removed.
import { afterEach, describe, expect, it, vi } from "vitest"
import type { Adapter, AdapterAccount } from "../../src/adapters/adapter.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { memoryRefreshStore, providerTokens } from "../../src/provider-tokens/index.js"
import { secureApp } from "../security/support.js"
import { gatedFetch, refreshingProvider, requestFrom, signedIn } from "./support.js"

const idp = refreshingProvider()
const quietLogger = { error: () => {}, warn: () => {}, debug: () => {} }

/** A memory adapter whose `updateAccount` counts its calls and can be made to fail once. */
function flakyAdapter() {
  const base = memoryAdapter()
  const state = { writes: 0, failNext: false }
  const adapter: Adapter = {
    ...base,
    updateAccount(account) {
      state.writes++
      if (state.failNext) {
        state.failNext = false
        throw new Error("connection reset")
      }
      return base.updateAccount!(account)
    },
  }
  const row = () => [...base.accounts.values()].find((account) => account.provider === "corp") as AdapterAccount | undefined
  return { base, adapter, state, row }
}

const databaseSessions = { logger: quietLogger, session: { strategy: "database" as const } }

afterEach(() => {
  vi.restoreAllMocks()
})

describe("database sessions: a refresh's write-back", () => {
  it("after a failed write-back, many reads at once write the remembered tokens once and refresh nothing", async () => {
    const { adapter, state, row } = flakyAdapter()
    const { site, browser } = await signedIn(idp(), { ...databaseSessions, adapter, providerTokens: providerTokens({ refresh: true }) })
    const consumed = row()!.refresh_token
    state.failNext = true
    const token = await site.getAccessToken(requestFrom(browser), "corp")
    expect(row()!.refresh_token).toBe(consumed)
    const grants = idp().refreshGrants()
    const writes = state.writes
    const request = requestFrom(browser)
    const reads = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? site.getAccessToken(request.clone(), "corp") : site.auth(request.clone()))))
    expect(state.writes - writes).toBe(1)
    expect(idp().refreshGrants()).toBe(grants)
    expect(row()!.access_token).toBe(token)
    expect(row()!.refresh_token).not.toBe(consumed)
    for (const read of reads) if (typeof read === "string") expect(read).toBe(token)
    for (const read of reads) if (typeof read !== "string") expect((read as unknown as Record<string, unknown>).error).toBeUndefined()
  })

  it("auth() writes tokens its write-back failed to store within seconds, not at their expiry", async () => {
    const { adapter, state, row } = flakyAdapter()
    const { site, browser } = await signedIn(idp(), { ...databaseSessions, adapter, providerTokens: providerTokens({ refresh: true }) })
    const consumed = row()!.refresh_token
    state.failNext = true
    await site.auth(requestFrom(browser))
    await site.auth(requestFrom(browser))
    expect(row()!.refresh_token).toBe(consumed)
    const now = Date.now()
    vi.spyOn(Date, "now").mockReturnValue(now + 6_000)
    const grants = idp().refreshGrants()
    await site.auth(requestFrom(browser))
    expect(row()!.refresh_token).not.toBe(consumed)
    expect(idp().refreshGrants()).toBe(grants)
  })

  it("an instance that finds another's refresh in the shared store writes it when the other's write-back failed", async () => {
    const { adapter, state, row } = flakyAdapter()
    const config = { ...databaseSessions, adapter, providerTokens: providerTokens({ refresh: { store: memoryRefreshStore() } }) }
    const { site, browser } = await signedIn(idp(), config)
    const consumed = row()!.refresh_token
    state.failNext = true
    const token = await site.getAccessToken(requestFrom(browser), "corp")
    const other = secureApp({ providers: [idp().provider()], ...config })
    const grants = idp().refreshGrants()
    const refused = idp().refusedRefreshes().length
    const session = (await other.auth(requestFrom(browser))) as unknown as Record<string, unknown>
    expect(session.error).toBeUndefined()
    expect(row()!.refresh_token).not.toBe(consumed)
    expect(await other.getAccessToken(requestFrom(browser), "corp")).toBe(token)
    expect(idp().refreshGrants()).toBe(grants)
    expect(idp().refusedRefreshes().slice(refused)).toEqual([])
  })

  it("two instances sharing a store that read a due row at once make one refresh and one write", async () => {
    const { adapter, state, row } = flakyAdapter()
    const config = { ...databaseSessions, adapter, providerTokens: providerTokens({ refresh: { store: memoryRefreshStore() } }) }
    const { site, browser } = await signedIn(idp(), config)
    const other = secureApp({ providers: [idp().provider()], ...config })
    const consumed = row()!.refresh_token
    const grants = idp().refreshGrants()
    const writes = state.writes
    const [mine, theirs] = await Promise.all([site.getAccessToken(requestFrom(browser), "corp"), other.getAccessToken(requestFrom(browser), "corp")])
    expect(mine).toBe(theirs)
    expect(idp().refreshGrants() - grants).toBe(1)
    expect(state.writes - writes).toBe(1)
    expect(row()!.refresh_token).not.toBe(consumed)
  })

  it("a refresh in flight while the row is unlinked does not link it again (adapter with neither updateAccount nor getAccount)", async () => {
    const base = memoryAdapter()
    const { updateAccount: _update, getAccount: _get, ...authjsLike } = base
    const gate = gatedFetch()
    const { site, browser } = await signedIn(idp(), { ...databaseSessions, adapter: authjsLike, fetch: gate.fetch, providerTokens: providerTokens({ refresh: true }) })
    const { provider, providerAccountId } = [...base.accounts.values()].find((account) => account.provider === "corp")!
    gate.hold()
    const reading = site.getAccessToken(requestFrom(browser), "corp")
    await gate.arrived
    // Another instance (or the app, directly) removes the account meanwhile.
    await base.unlinkAccount({ provider, providerAccountId })
    gate.release()
    await reading
    expect([...base.accounts.values()].filter((account) => account.provider === "corp")).toEqual([])
  })
})
