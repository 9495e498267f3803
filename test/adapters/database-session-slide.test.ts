// A database session's slide keeps the CSRF cookie its binding hashes (review 5, #1), and an update
// shows the session callback the client's data as Auth.js does (review 5, #2). The review's own
// tests are in test/security/review5-sessions.test.ts; these pin the edges around them.
import { afterEach, describe, expect, it, vi } from "vitest"
import type { Adapter } from "../../src/adapters/adapter.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import type { TestBrowser } from "../servers/browser.js"
import { csrfOf, jarOf, ORIGIN, post, secureApp } from "../security/support.js"

afterEach(() => void vi.useRealTimers())

const T0 = new Date("2026-03-01T00:00:00Z").getTime()
const SLIDING = { maxAge: 3600, updateAge: 600 }
const CSRF_COOKIE = "__Host-authjs.csrf-token"
const SESSION_COOKIE = "__Secure-authjs.session-token"
const ada = () => Credentials({ credentials: { email: {} }, authorize: () => ({ id: "u-ada", name: "Ada", email: "ada@example.com" }) })

/** A memory adapter that counts the row writes a slide makes. */
function countingAdapter(): { adapter: Adapter; slides: () => number } {
  const base = memoryAdapter()
  let slides = 0
  return { adapter: { ...base, updateSession: (row) => (slides++, base.updateSession!(row)) }, slides: () => slides }
}

/** A request from `browser`'s jar, with the session cookie replaced by `sessionToken` when given. */
function requestFrom(browser: TestBrowser, init: RequestInit = {}, sessionToken?: string): Request {
  const jar = { ...jarOf(browser), ...(sessionToken && { [SESSION_COOKIE]: sessionToken }) }
  const cookie = Object.entries(jar).map(([name, value]) => `${name}=${value}`).join("; ")
  return new Request(`${ORIGIN}/auth/session`, { ...init, headers: { ...init.headers, cookie } })
}

const csrfCookieOf = (response: Response) => response.headers.getSetCookie().find((line) => line.startsWith(`${CSRF_COOKIE}=`))

async function signedIn(config: Parameters<typeof secureApp>[0]) {
  vi.useFakeTimers({ toFake: ["Date"], now: T0 })
  const site = secureApp(config)
  const browser = site.browser()
  await post(browser, "/auth/callback/credentials", { csrfToken: await csrfOf(browser), email: "ada@example.com" })
  return { site, browser }
}

describe("a database session's slide and the CSRF cookie its binding hashes", () => {
  it("a slide re-sets it for session.maxAge with the same token, so forms already open still post; a read that does not slide leaves it", async () => {
    const { site, browser } = await signedIn({ providers: [ada()], adapter: memoryAdapter(), session: SLIDING })
    const token = decodeURIComponent(jarOf(browser)[CSRF_COOKIE]!).split("|")[0]
    vi.setSystemTime(T0 + 5 * 60_000)
    expect(csrfCookieOf(await site.handler(requestFrom(browser)))).toBeUndefined()
    vi.setSystemTime(T0 + 11 * 60_000)
    const slid = csrfCookieOf(await site.handler(requestFrom(browser)))
    expect(slid).toMatch(/Max-Age=3600/i)
    expect(decodeURIComponent(slid!.split(";")[0]!.slice(CSRF_COOKIE.length + 1)).split("|")[0]).toBe(token)
  })

  it("a session bound to another browser, read where sessions are shared across subdomains, slides without setting this browser's", async () => {
    const { site, browser: owner } = await signedIn({ providers: [ada()], adapter: memoryAdapter(), session: { ...SLIDING, sharedAcrossSubdomains: true } })
    const sibling = site.browser()
    await csrfOf(sibling)
    vi.setSystemTime(T0 + 11 * 60_000)
    const response = await site.handler(requestFrom(sibling, {}, jarOf(owner)[SESSION_COOKIE]))
    expect(((await response.json()) as { user?: { email?: string } }).user?.email).toBe("ada@example.com")
    expect(response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))).toBe(true)
    expect(csrfCookieOf(response)).toBeUndefined()
  })
})

describe("update() with database sessions", () => {
  it("answers malformed data 400, as with JWT sessions, before the row slides", async () => {
    const { adapter, slides } = countingAdapter()
    const { site, browser } = await signedIn({ providers: [ada()], adapter, session: SLIDING })
    vi.setSystemTime(T0 + 11 * 60_000)
    const body = JSON.stringify({ csrfToken: await csrfOf(browser), data: "{" })
    const response = await site.handler(requestFrom(browser, { method: "POST", headers: { "content-type": "application/json" }, body }))
    expect([response.status, await response.json(), slides()]).toEqual([400, { error: "InvalidData" }, 0])
  })

  it.each([
    ["database", {}],
    ["hybrid", { cache: { maxAge: 60 } }],
  ])("%s: the session callback gets the data on an update only; reads keep { session, token, user }", async (_, cache) => {
    const seen: string[][] = []
    const session = (params: { session: object }) => (seen.push(Object.keys(params).sort()), params.session)
    const { site, browser } = await signedIn({ providers: [ada()], adapter: memoryAdapter(), session: { ...SLIDING, ...cache }, callbacks: { session: session as never } })
    seen.length = 0
    await site.handler(requestFrom(browser))
    await site.auth(requestFrom(browser))
    const body = JSON.stringify({ csrfToken: await csrfOf(browser), data: { theme: "dark" } })
    await site.handler(requestFrom(browser, { method: "POST", headers: { "content-type": "application/json" }, body }))
    const read = ["session", "token", "user"]
    expect(seen).toEqual([read, read, ["newSession", "session", "token", "trigger", "user"]])
  })
})
