// Review 5 #3: a hybrid session's cache copy sealed past 4 KB (a user row with a data-URL avatar)
// is written in chunks. Every read must join them (the cookie-only read a proxy makes included),
// a copy that shrinks back to one cookie must leave no chunk behind, and sign-out must clear them.
import { describe, expect, it } from "vitest"
import type { Adapter } from "../../src/adapters/adapter.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import { csrfOf, jarOf, ORIGIN, post, secureApp, sessionOf } from "../security/support.js"

const CACHE_COOKIE = "__Secure-latchkey.session-cache"
const AVATAR = `data:image/png;base64,${"A".repeat(5000)}`
const ada = () => Credentials({ credentials: { email: {} }, authorize: () => ({ id: "u-ada", name: "Ada", email: "ada@example.com" }) })

/** A hybrid app whose user has a 5 KB avatar, its session reads counted, and a browser signed in. */
async function signedInWithLargeCopy() {
  const base = memoryAdapter()
  let reads = 0
  const adapter: Adapter = { ...base, getSessionAndUser: (token) => (reads++, base.getSessionAndUser!(token)) }
  await base.createUser!({ id: "u-ada", email: "ada@example.com", emailVerified: null, name: "Ada", image: AVATAR })
  const site = secureApp({ providers: [ada()], adapter, session: { cache: { maxAge: 300 } } })
  const browser = site.browser()
  await post(browser, "/auth/callback/credentials", { csrfToken: await csrfOf(browser), email: "ada@example.com" })
  return { site, base, browser, reads: () => reads, resetReads: () => void (reads = 0) }
}

const cacheNames = (jar: Record<string, string>) => Object.keys(jar).filter((name) => name.startsWith(CACHE_COOKIE)).sort()
const cookieHeader = (jar: Record<string, string>) => Object.entries(jar).map(([name, value]) => `${name}=${value}`).join("; ")

describe("a session cache copy over 4 KB", () => {
  it("is written in chunks and answers /session without the database", async () => {
    const { browser, reads, resetReads } = await signedInWithLargeCopy()
    expect(cacheNames(jarOf(browser))).toEqual([`${CACHE_COOKIE}.0`, `${CACHE_COOKIE}.1`])
    resetReads()
    expect((await sessionOf(browser))?.user?.image).toBe(AVATAR)
    expect(reads()).toBe(0)
  })

  it("is read by the cookie-only read a proxy makes", async () => {
    const { site, browser, reads, resetReads } = await signedInWithLargeCopy()
    resetReads()
    const read = await site.authFromCookies(new Request(`${ORIGIN}/home`, { headers: { cookie: cookieHeader(jarOf(browser)) } }))
    expect(read).toMatchObject({ session: { user: { email: "ada@example.com" } }, unverified: false })
    expect(reads()).toBe(0)
  })

  it("is not read with a chunk missing: the database answers", async () => {
    const { site, browser, reads, resetReads } = await signedInWithLargeCopy()
    const { [`${CACHE_COOKIE}.1`]: _dropped, ...jar } = jarOf(browser)
    resetReads()
    expect(await site.auth(new Request(`${ORIGIN}/home`, { headers: { cookie: cookieHeader(jar) } }))).toMatchObject({ user: { email: "ada@example.com" } })
    expect(reads()).toBe(1)
  })

  it("leaves no chunk behind when a later copy fits one cookie", async () => {
    const { base, browser, reads, resetReads } = await signedInWithLargeCopy()
    await base.updateUser!({ id: "u-ada", image: null })
    // Signing in again seals a new copy, small enough now for one cookie, over the chunked one.
    await post(browser, "/auth/callback/credentials", { csrfToken: await csrfOf(browser), email: "ada@example.com" })
    expect(cacheNames(jarOf(browser))).toEqual([CACHE_COOKIE])
    resetReads()
    expect((await sessionOf(browser))?.user?.image).toBeNull()
    expect(reads()).toBe(0)
  })

  it("is removed, every chunk of it, at sign-out", async () => {
    const { browser } = await signedInWithLargeCopy()
    await post(browser, "/auth/signout", { csrfToken: await csrfOf(browser) })
    expect(cacheNames(jarOf(browser))).toEqual([])
  })
})
