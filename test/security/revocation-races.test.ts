// The third outside review: sessions that outlive the revocation or deletion that should end them.
// Each attack is a browser-like cookie jar (a stolen copy of the victim's cookies) against
// createAuth's handler; the races are made deterministic by an adapter that runs the revocation at
// the exact step where a concurrent request could land. Each test owns its app.
import { afterEach, describe, expect, it, vi } from "vitest"
import { encode } from "../../src/jwt/encode.js"
import type { Adapter } from "../../src/adapters/adapter.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { memorySessionVersions } from "../../src/adapters/session-versions.js"
import Credentials from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/handler/options.js"
import { APP, app, csrf, postForm, SECRET, session } from "../handler/support.js"
import { TestBrowser } from "../servers/browser.js"

const people = () => Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: `u-${String(username)}`, name: String(username), email: `${String(username)}@example.com` }) })
const COOKIE = "authjs.session-token"
const CACHE_COOKIE = "latchkey.session-cache"

type Site = ReturnType<typeof app>

afterEach(() => void vi.useRealTimers())

function site(config: Partial<AuthConfig> = {}): Site {
  return app({ providers: [people()], ...config })
}

async function signedIn(on: Site, username: string): Promise<TestBrowser> {
  const browser = new TestBrowser(undefined, on.dispatch)
  await postForm(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username })
  expect(browser.cookies(APP).has(COOKIE)).toBe(true)
  return browser
}

/** A second browser holding the victim's cookies, less `without` (a copy that has lapsed). */
function stolen(on: Site, victim: TestBrowser, without: string[] = []): TestBrowser {
  const thief = new TestBrowser(undefined, on.dispatch)
  thief.acceptCookies(APP, [...victim.cookies(APP)].filter(([name]) => !without.includes(name)).map(([name, value]) => `${name}=${value}; Path=/`))
  return thief
}

const cookieHeader = (browser: TestBrowser) => [...browser.cookies(APP)].map(([name, value]) => `${name}=${value}`).join("; ")
const page = (browser: TestBrowser) => new Request(`${APP}/dashboard`, { headers: { cookie: cookieHeader(browser) } })

describe("hybrid sessions: a copy made across a revocation", () => {
  it("a read that found the row just before revokeSessions deleted it mints no copy that outlives the revocation", async () => {
    const base = memoryAdapter()
    let duringRead: (() => Promise<void>) | undefined
    // The row is read, then (before this request goes on) another request revokes the user's sessions.
    const adapter: Adapter = {
      ...base,
      async getSessionAndUser(token) {
        const found = await base.getSessionAndUser!(token)
        const revoke = duringRead
        duringRead = undefined
        if (revoke) await revoke()
        return found
      },
    }
    const shop = site({ adapter, session: { strategy: "database", cache: { maxAge: 300 } } })
    const victim = await signedIn(shop, "ada")
    const thief = stolen(shop, victim, [CACHE_COOKIE])
    duringRead = () => shop.revokeSessions("u-ada")
    await session(thief)
    expect(duringRead).toBeUndefined()
    // The revocation has finished: no copy the thief holds may answer, on any read.
    expect(await shop.auth(page(thief))).toBeNull()
    expect(await shop.authFromCookies(page(thief))).not.toMatchObject({ session: { user: { name: "ada" } } })
    expect(await session(thief)).toBeNull()
  })

  it("a copy never answers past its row's expiry", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 10, 27, 12) })
    const shop = site({ adapter: memoryAdapter(), session: { strategy: "database", maxAge: 120, cache: { maxAge: 300 } } })
    const victim = await signedIn(shop, "ada")
    expect(victim.cookies(APP).has(CACHE_COOKIE)).toBe(true)
    expect(await shop.auth(page(victim))).toMatchObject({ user: { name: "ada" } })
    vi.setSystemTime(Date.now() + 150_000)
    expect(await shop.auth(page(victim))).toBeNull()
    expect(await shop.authFromCookies(page(victim))).not.toMatchObject({ session: { user: { name: "ada" } } })
  })
})

describe("deleteUser ends every session of the user it deletes", () => {
  it("JWT sessions: the deleted user's tokens stop answering at once", async () => {
    const adapter = memoryAdapter()
    await adapter.createUser!({ id: "u-ada", name: "ada", email: "ada@example.com", emailVerified: null })
    const shop = site({ adapter, session: { strategy: "jwt" } })
    const laptop = await signedIn(shop, "ada")
    const phone = stolen(shop, laptop)
    await shop.deleteUser("u-ada")
    expect(await adapter.getUser!("u-ada")).toBeNull()
    expect(await shop.auth(page(phone))).toBeNull()
    expect(await session(laptop)).toBeNull()
  })

  it("hybrid sessions: the copies stop answering at once", async () => {
    const shop = site({ adapter: memoryAdapter(), session: { strategy: "database", cache: { maxAge: 300 } } })
    const laptop = await signedIn(shop, "ada")
    expect(laptop.cookies(APP).has(CACHE_COOKIE)).toBe(true)
    await shop.deleteUser("u-ada")
    expect(await shop.auth(page(laptop))).toBeNull()
    expect(await shop.authFromCookies(page(laptop))).not.toMatchObject({ session: { user: { name: "ada" } } })
  })
})

describe("session.maxAge bounds a JWT from its issue, whatever exp it carries", () => {
  // An app that shortens maxAge (incident response: shorter sessions, then sign everyone out)
  // keeps a revocation for the new maxAge; a token issued under the old one must not outlive it.
  it("a token issued under a longer maxAge does not come back once its revocation has lapsed", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 10, 27, 12) })
    const versions = memorySessionVersions()
    const before = site({ session: { strategy: "jwt", revocationStore: versions } })
    const victim = await signedIn(before, "ada")
    const after = site({ session: { strategy: "jwt", maxAge: 3600, revocationStore: versions } })
    await after.revokeSessions("u-ada")
    expect(await after.auth(page(victim))).toBeNull()
    vi.setSystemTime(Date.now() + 4000_000)
    expect(await after.auth(page(victim))).toBeNull()
    expect(await session(stolen(after, victim))).toBeNull()
  })

  it("an Auth.js token older than maxAge is refused; one within it is read", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 10, 27, 12) })
    const shop = site({ session: { strategy: "jwt", maxAge: 3600 } })
    const now = Math.floor(Date.now() / 1000)
    const tokenIssued = async (secondsAgo: number) => {
      vi.setSystemTime((now - secondsAgo) * 1000)
      const token = await encode({ token: { sub: "u-ada", name: "ada", email: "ada@example.com" }, secret: SECRET, salt: COOKIE, maxAge: 30 * 24 * 3600 })
      vi.setSystemTime(now * 1000)
      return new Request(`${APP}/dashboard`, { headers: { cookie: `${COOKIE}=${token}` } })
    }
    expect(await shop.auth(await tokenIssued(1800))).toMatchObject({ user: { name: "ada" } })
    expect(await shop.auth(await tokenIssued(7200))).toBeNull()
  })
})
