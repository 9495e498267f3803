// Database sessions through createAuth().handler, on the embedded memory adapter (the real
// databases run the same flows in test/adapters/). Each test owns its adapter and browsers.
import { afterEach, describe, expect, it, vi } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import type { LoggerInstance } from "../../src/types.js"
import { corpProvider, csrfOf, jarOf, ORIGIN, plantFromSibling, post, secureApp, sessionOf } from "../security/support.js"

const ADA = { sub: "ada-sub", email: "ada@example.com", name: "Ada" }
const EVE = { sub: "eve-sub", email: "eve@example.com", name: "Eve" }
const idp = corpProvider([ADA, EVE])
afterEach(() => void vi.useRealTimers())

const corp = idp.provider

/** The memory adapter with every session call counted. */
function countingAdapter() {
  const base = memoryAdapter()
  const calls = { createSession: 0, getSessionAndUser: 0, updateSession: 0, deleteSession: 0 }
  const adapter = {
    ...base,
    createSession: (session: Parameters<typeof base.createSession>[0]) => (calls.createSession++, base.createSession(session)),
    getSessionAndUser: (token: string) => (calls.getSessionAndUser++, base.getSessionAndUser(token)),
    updateSession: (session: Parameters<typeof base.updateSession>[0]) => (calls.updateSession++, base.updateSession(session)),
    deleteSession: (token: string) => (calls.deleteSession++, base.deleteSession(token)),
  }
  return { adapter, base, calls }
}

async function signedIn(site: ReturnType<typeof secureApp>, as = ADA) {
  const browser = site.browser()
  idp.signInAs(as.sub)
  await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
  return browser
}

const tokenOf = (browser: ReturnType<ReturnType<typeof secureApp>["browser"]>) => jarOf(browser)["__Secure-authjs.session-token"]

describe("database sessions", () => {
  it("with an adapter they are the default: the cookie holds an opaque token, the row holds the session", async () => {
    const { adapter, calls } = countingAdapter()
    const site = secureApp({ providers: [corp()], adapter })
    const browser = await signedIn(site)
    const token = tokenOf(browser)
    expect(token).toMatch(/^[0-9a-f]{64}\.[A-Za-z0-9_-]{43}$/)
    expect(calls.createSession).toBe(1)
    expect(await sessionOf(browser)).toMatchObject({ user: { email: ADA.email } })
    expect(await adapter.getSessionAndUser(token!)).toMatchObject({ user: { email: ADA.email } })
    const viaAuth = await site.auth(new Request(`${ORIGIN}/page`, { headers: { cookie: `__Secure-authjs.session-token=${token}; __Host-authjs.csrf-token=${jarOf(browser)["__Host-authjs.csrf-token"]}` } }))
    expect(viaAuth?.user?.email).toBe(ADA.email)
  })

  it("the row slides once updateAge has passed, with one write, and not before", async () => {
    const { adapter, calls } = countingAdapter()
    const site = secureApp({ providers: [corp()], adapter, session: { maxAge: 3600, updateAge: 600 } })
    const browser = await signedIn(site)
    const start = Date.now()
    await sessionOf(browser)
    expect(calls.updateSession).toBe(0)
    vi.useFakeTimers({ toFake: ["Date"], now: start + 601_000 })
    const before = (await adapter.getSessionAndUser(tokenOf(browser)!))!.session.expires.getTime()
    await sessionOf(browser)
    await sessionOf(browser)
    expect(calls.updateSession).toBe(1)
    const after = (await adapter.getSessionAndUser(tokenOf(browser)!))!.session.expires.getTime()
    expect(after).toBeGreaterThan(before)
  })

  it("an expired row is deleted when it is read, and the browser is signed out", async () => {
    const { adapter, calls } = countingAdapter()
    const site = secureApp({ providers: [corp()], adapter, session: { maxAge: 3600 } })
    const browser = await signedIn(site)
    const token = tokenOf(browser)!
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 3601_000 })
    expect(await sessionOf(browser)).toBeNull()
    expect(calls.deleteSession).toBe(1)
    vi.useRealTimers()
    expect(await adapter.getSessionAndUser(token)).toBeNull()
  })

  it("sign-out deletes the row, so a copy of the cookie replayed afterwards is signed out too", async () => {
    const { adapter } = countingAdapter()
    const site = secureApp({ providers: [corp()], adapter })
    const browser = await signedIn(site)
    const stolen = `__Secure-authjs.session-token=${tokenOf(browser)}`
    await post(browser, "/auth/signout", { csrfToken: await csrfOf(browser) })
    expect(await sessionOf(browser)).toBeNull()
    expect(await site.auth(new Request(`${ORIGIN}/`, { headers: { cookie: stolen } }))).toBeNull()
  })

  it("revoking a row takes effect on the next request", async () => {
    const { adapter } = countingAdapter()
    const site = secureApp({ providers: [corp()], adapter })
    const browser = await signedIn(site)
    expect(await sessionOf(browser)).not.toBeNull()
    await adapter.deleteSession(tokenOf(browser)!)
    expect(await sessionOf(browser)).toBeNull()
  })

  it("credentials work with database sessions: the user row is found or created, and the session is a row", async () => {
    const { adapter, base } = countingAdapter()
    await base.createUser({ id: "u-alice", email: "alice@example.com", emailVerified: null, name: "Alice" })
    const provider = Credentials({ credentials: { username: {} }, authorize: ({ username }) => (username === "alice" ? { id: "u-alice", name: "Alice", email: "alice@example.com" } : { id: `u-${String(username)}`, name: String(username), email: `${String(username)}@example.com` }) })
    const site = secureApp({ providers: [provider], adapter })
    const browser = site.browser()
    await post(browser, "/auth/signin/credentials", { csrfToken: await csrfOf(browser), username: "alice" })
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "Alice" } })
    expect(base.users.size).toBe(1)
    await post(browser, "/auth/signin/credentials", { csrfToken: await csrfOf(browser), username: "bob" })
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "bob" } })
    expect(base.users.get("u-bob")?.email).toBe("bob@example.com")
    expect(base.accounts.size).toBe(0)
  })

  it("the session callback receives the adapter's user, as in Auth.js", async () => {
    const { adapter } = countingAdapter()
    const site = secureApp({ providers: [corp()], adapter, callbacks: { session: ({ session, user, token }) => ({ ...session, user: { ...session.user, id: user?.id, sub: token.sub } }) as never } })
    const browser = await signedIn(site)
    const session = await sessionOf(browser)
    expect(session?.user.id).toBeTypeOf("string")
    expect(session?.user.sub).toBe(session?.user.id)
  })

  it("a session token planted by a sibling is not linked into (the token carries its browser)", async () => {
    const { adapter, base } = countingAdapter()
    const site = secureApp({ providers: [corp()], adapter })
    const attacker = await signedIn(site, EVE)
    const eveId = [...base.accounts.values()].find((account) => account.providerAccountId === EVE.sub)!.userId
    const victim = site.browser()
    plantFromSibling(victim, { "__Secure-authjs.session-token": tokenOf(attacker)! })
    idp.signInAs(ADA.sub)
    await post(victim, "/auth/signin/corp", { csrfToken: await csrfOf(victim) })
    const adaOwner = [...base.accounts.values()].find((account) => account.providerAccountId === ADA.sub)!.userId
    expect(adaOwner).not.toBe(eveId)
    expect(await sessionOf(victim)).toMatchObject({ user: { email: ADA.email } })
  })
})

describe("the hybrid cache", () => {
  it("most reads skip the database, and a revoked session ends within cache.maxAge", async () => {
    const { adapter, calls } = countingAdapter()
    const site = secureApp({ providers: [corp()], adapter, session: { cache: { maxAge: 30 } } })
    const browser = await signedIn(site)
    await sessionOf(browser)
    const reads = calls.getSessionAndUser
    for (let i = 0; i < 5; i++) expect(await sessionOf(browser)).toMatchObject({ user: { email: ADA.email } })
    expect(calls.getSessionAndUser).toBe(reads)
    await adapter.deleteSession(tokenOf(browser)!)
    expect(await sessionOf(browser)).not.toBeNull()
    // The browser drops the cookie after 30 s; a kept copy opens for the codec's 15 s of clock skew more.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 46_000 })
    expect(await sessionOf(browser)).toBeNull()
  })

  it("a cache cookie sealed for another session token is not used", async () => {
    const { adapter } = countingAdapter()
    const site = secureApp({ providers: [corp()], adapter, session: { cache: { maxAge: 30 } } })
    const ada = await signedIn(site)
    await sessionOf(ada)
    const eve = await signedIn(site, EVE)
    await sessionOf(eve)
    const cookie = `__Secure-authjs.session-token=${tokenOf(eve)}; __Host-authjs.csrf-token=${jarOf(eve)["__Host-authjs.csrf-token"]}; __Secure-latchkey.session-cache=${jarOf(ada)["__Secure-latchkey.session-cache"]}`
    const response = await site.handler(new Request(`${ORIGIN}/auth/session`, { headers: { cookie } }))
    expect(await response.json()).toMatchObject({ user: { email: EVE.email } })
  })
})

describe("a database that fails", () => {
  it("reads answer signed out and log a coded error; a failing sign-in write ends on the error page", async () => {
    const { adapter } = countingAdapter()
    const errors: unknown[] = []
    const logger: LoggerInstance = { error: (error) => void errors.push(error), warn: () => {} }
    const site = secureApp({ providers: [corp()], adapter, logger })
    const browser = await signedIn(site)
    adapter.getSessionAndUser = () => {
      throw Object.assign(new Error(`connection refused while reading ${tokenOf(browser)}`), { code: "ECONNREFUSED" })
    }
    const response = await site.handler(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `__Secure-authjs.session-token=${tokenOf(browser)}; __Host-authjs.csrf-token=${jarOf(browser)["__Host-authjs.csrf-token"]}` } }))
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ code: "ERR_ADAPTER", method: "getSessionAndUser" })
    expect(JSON.stringify(errors)).not.toContain(tokenOf(browser)!.slice(0, 20))
    adapter.createSession = () => {
      throw new Error("database down")
    }
    const again = site.browser()
    idp.signInAs(ADA.sub)
    const { url } = await post(again, "/auth/signin/corp", { csrfToken: await csrfOf(again) })
    expect(url.searchParams.get("error")).toBe("Configuration")
    expect(jarOf(again)["__Secure-authjs.session-token"]).toBeUndefined()
  })

  it("database sessions without an adapter, or a cache with JWT sessions, throw at createAuth", () => {
    expect(() => secureApp({ providers: [corp()], session: { strategy: "database" } })).toThrow(expect.objectContaining({ option: "session.strategy" }))
    expect(() => secureApp({ providers: [corp()], session: { cache: { maxAge: 30 } } })).toThrow(expect.objectContaining({ option: "session.cache" }))
  })
})

describe("nothing half-written", () => {
  it("a sign-in whose linkAccount fails after createUser leaves no user behind, and the retry signs in", async () => {
    const { adapter, base } = countingAdapter()
    let failures = 1
    const flaky = {
      ...adapter,
      linkAccount: (account: Parameters<typeof base.linkAccount>[0]) => {
        if (failures-- > 0) throw new Error("connection reset")
        return base.linkAccount(account)
      },
    }
    const site = secureApp({ providers: [corp()], adapter: flaky, logger: { error: () => {} } })
    const browser = site.browser()
    idp.signInAs(ADA.sub)
    const { url } = await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
    expect(url.searchParams.get("error")).not.toBeNull()
    expect(base.users.size).toBe(0)
    expect(base.accounts.size).toBe(0)
    await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
    expect(await sessionOf(browser)).toMatchObject({ user: { email: ADA.email } })
    expect(base.users.size).toBe(1)
  })
})

describe("a database that fails on sign-out and on a session update", () => {
  it("sign-out ends on the error page, and a session update answers signed out; never a 500", async () => {
    const { adapter } = countingAdapter()
    const site = secureApp({ providers: [corp()], adapter, logger: { error: () => {}, warn: () => {} } })
    const browser = await signedIn(site)
    adapter.getSessionAndUser = () => {
      throw new Error("database down")
    }
    adapter.deleteSession = () => {
      throw new Error("database down")
    }
    const cookie = Object.entries(jarOf(browser)).map(([name, value]) => `${name}=${value}`).join("; ")
    const response = await site.handler(new Request(`${ORIGIN}/auth/signout`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ csrfToken: await csrfOf(browser) }) }))
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("Configuration")
    const update = await site.handler(new Request(`${ORIGIN}/auth/session`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ csrfToken: await csrfOf(browser) }) }))
    expect(update.status).toBe(200)
    expect(await update.json()).toBeNull()
  })
})
