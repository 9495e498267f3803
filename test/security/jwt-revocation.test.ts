// Issue 28: revoking JWT sessions. The attack: a user signs in in two browsers (or an attacker
// holds a copy of their session cookie), then signs out everywhere or resets their password; the
// other browser's JWT must be signed out at its next read, through /session, auth() and a session
// update, while other users and a sign-in made afterwards are untouched. Each test owns its app.
import { encode as authjsEncode } from "@auth/core/jwt"
import { describe, expect, it } from "vitest"
import { jwtSessions } from "../../src/adapters/jwt-sessions.js"
import { isRevokedToken, memorySessionVersions, SESSION_VERSION_CLAIM, type SessionVersionStore } from "../../src/adapters/session-versions.js"
import { getToken } from "../../src/jwt/get-token.js"
import Credentials from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/handler/options.js"
import { APP, app, csrf, postForm, SECRET, session } from "../handler/support.js"
import { TestBrowser } from "../servers/browser.js"

const people = () => Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: `u-${String(username)}`, name: String(username), email: `${String(username)}@example.com` }) })
const COOKIE = "authjs.session-token"

type Site = ReturnType<typeof app>

function site(config: Partial<AuthConfig> = {}): Site {
  return app({ providers: [people()], session: { strategy: "jwt" }, ...config })
}

/** A new browser on `site`, signed in as `username`. */
async function signedIn(on: Site, username: string): Promise<TestBrowser> {
  const browser = new TestBrowser(undefined, on.dispatch)
  await postForm(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username })
  expect(browser.cookies(APP).has(COOKIE)).toBe(true)
  return browser
}

const cookieHeader = (browser: TestBrowser) => [...browser.cookies(APP)].map(([name, value]) => `${name}=${value}`).join("; ")
const authOf = (on: Site, browser: TestBrowser) => on.auth(new Request(`${APP}/dashboard`, { headers: { cookie: cookieHeader(browser) } }))

/** Logs an app's logger receives, by level. */
function recording() {
  const lines: { level: string; code: unknown; text: string }[] = []
  const at = (level: string) => (first: unknown, second?: unknown) =>
    lines.push({ level, code: (first as { code?: unknown })?.code ?? first, text: `${String((first as Error)?.message ?? first)} ${JSON.stringify(second ?? "")}` })
  return { lines, logger: { error: at("error"), warn: at("warn"), debug: at("debug") } }
}

describe("revoking JWT sessions (the default memory store)", () => {
  it("signs out every browser of the user at its next read, and no one else's", async () => {
    const shop = site()
    const laptop = await signedIn(shop, "ada")
    const phone = await signedIn(shop, "ada")
    const other = await signedIn(shop, "eve")
    expect(await session(phone)).toMatchObject({ user: { name: "ada" } })

    await shop.revokeSessions("u-ada")

    // GET /session answers signed out and clears the cookie.
    expect(await session(laptop)).toBeNull()
    expect(laptop.cookies(APP).has(COOKIE)).toBe(false)
    // auth() answers signed out, on the cookie the phone still holds.
    expect(await authOf(shop, phone)).toBeNull()
    // An update re-issues nothing for it.
    const updated = await phone.open(`${APP}/auth/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ csrfToken: await csrf(phone), data: { theme: "dark" } }) })
    expect(await updated.response.json()).toBeNull()
    expect(await session(phone)).toBeNull()
    // Someone else is untouched.
    expect(await session(other)).toMatchObject({ user: { name: "eve" } })
    expect(await authOf(shop, other)).toMatchObject({ user: { name: "eve" } })
  })

  it("a sign-in after the revocation is a live session, and later revocations reach it too", async () => {
    const shop = site()
    const old = await signedIn(shop, "ada")
    await shop.revokeSessions("u-ada")
    const fresh = await signedIn(shop, "ada")
    expect(await session(fresh)).toMatchObject({ user: { name: "ada" } })
    expect(await session(old)).toBeNull()
    await shop.revokeSessions("u-ada")
    expect(await session(fresh)).toBeNull()
  })

  it("revokeSessions(request) signs out the request's user, confirmed against the store", async () => {
    const shop = site()
    const laptop = await signedIn(shop, "ada")
    const phone = await signedIn(shop, "ada")
    await shop.revokeSessions(new Request(`${APP}/account`, { headers: { cookie: cookieHeader(laptop) } }))
    expect(await session(phone)).toBeNull()
    // The revoked cookie no longer proves a user: a second call is refused.
    await expect(shop.revokeSessions(new Request(`${APP}/account`, { headers: { cookie: cookieHeader(phone) } }))).rejects.toMatchObject({ code: "ERR_SESSION_REQUIRED" })
  })

  it("a sliding re-issue keeps the version it was read at, so it cannot outlive a revocation", async () => {
    const shop = site({ session: { strategy: "jwt", updateAge: 0 } })
    const laptop = await signedIn(shop, "ada")
    const before = laptop.cookies(APP).get(COOKIE)
    expect(await session(laptop)).not.toBeNull()
    expect(laptop.cookies(APP).get(COOKIE)).not.toBe(before) // re-issued
    const claims = await getToken({ req: new Request(APP, { headers: { cookie: cookieHeader(laptop) } }), secret: SECRET })
    expect(claims?.[SESSION_VERSION_CLAIM]).toBe(0)
    await shop.revokeSessions("u-ada")
    expect(await session(laptop)).toBeNull()
  })

  it("an Auth.js session token (no version claim) reads as before until the user's first revocation, then is dead", async () => {
    const shop = site()
    const token = await authjsEncode({ token: { sub: "u-ada", name: "ada", email: "ada@example.com" }, secret: SECRET, salt: COOKIE })
    const request = () => new Request(`${APP}/dashboard`, { headers: { cookie: `${COOKIE}=${token}` } })
    expect(await shop.auth(request())).toMatchObject({ user: { name: "ada" } })
    await shop.revokeSessions("u-eve")
    expect(await shop.auth(request())).toMatchObject({ user: { name: "ada" } })
    await shop.revokeSessions("u-ada")
    expect(await shop.auth(request())).toBeNull()
  })

  it("the password-reset call shape: sessions.revokeUser(settings, () => userId), then a fresh session for this browser", async () => {
    const versions = memorySessionVersions()
    const shop = site({ session: { strategy: "jwt", revocationStore: versions } })
    const attacker = await signedIn(shop, "ada")
    const { logger } = recording()
    const settings = { sessionVersions: versions, sessionMaxAge: 3600, diagnostics: { development: true, warnOnce: () => {} }, logger } as unknown as Parameters<typeof jwtSessions.revokeUser>[0]
    await jwtSessions.revokeUser(settings, () => "u-ada")
    const victim = await signedIn(shop, "ada")
    expect(await session(attacker)).toBeNull()
    expect(await session(victim)).toMatchObject({ user: { name: "ada" } })
  })

  it("getToken has no store, so it still decodes a revoked token; isRevokedToken says it is revoked", async () => {
    const versions = memorySessionVersions()
    const shop = site({ session: { strategy: "jwt", revocationStore: versions } })
    const laptop = await signedIn(shop, "ada")
    const read = () => getToken({ req: new Request(APP, { headers: { cookie: cookieHeader(laptop) } }), secret: SECRET })
    expect(await isRevokedToken(versions, (await read())!)).toBe(false)
    await shop.revokeSessions("u-ada")
    const token = await read()
    expect(token).toMatchObject({ sub: "u-ada" })
    expect(await isRevokedToken(versions, token!)).toBe(true)
  })

  it("warns once in production that the memory store is this instance's alone", async () => {
    const { lines, logger } = recording()
    const shop = site({ env: { NODE_ENV: "production" }, logger })
    await shop.revokeSessions("u-ada")
    await shop.revokeSessions("u-eve")
    expect(lines.filter((line) => line.code === "ERR_SESSION_VERSIONS_PER_INSTANCE")).toHaveLength(1)
    const quiet = recording()
    await site({ logger: quiet.logger }).revokeSessions("u-ada")
    expect(quiet.lines.filter((line) => line.code === "ERR_SESSION_VERSIONS_PER_INSTANCE")).toHaveLength(0)
  })

  it("revocationStore: false turns revocation off: tokens carry no version, and revokeSessions says why it cannot", async () => {
    const shop = site({ session: { strategy: "jwt", revocationStore: false } })
    const laptop = await signedIn(shop, "ada")
    const claims = await getToken({ req: new Request(APP, { headers: { cookie: cookieHeader(laptop) } }), secret: SECRET })
    expect(claims).not.toHaveProperty(SESSION_VERSION_CLAIM)
    await expect(shop.revokeSessions("u-ada")).rejects.toMatchObject({ code: "ERR_INVALID_OPTION", option: "session.revocationStore" })
    // One JWT session still cannot be ended by itself, and says so.
    await expect(shop.revokeSession("anything")).rejects.toMatchObject({ code: "ERR_INVALID_OPTION", option: "session.strategy" })
  })

  it("refuses a revocationStore that is not a store, and one given for database sessions", async () => {
    expect(() => site({ session: { strategy: "jwt", revocationStore: {} as SessionVersionStore } })).toThrow(expect.objectContaining({ option: "session.revocationStore" }))
    const { memoryAdapter } = await import("../../src/adapters/memory-adapter.js")
    expect(() => site({ adapter: memoryAdapter(), session: { strategy: "database", revocationStore: memorySessionVersions() } })).toThrow(expect.objectContaining({ option: "session.revocationStore" }))
  })
})

describe("a version store that fails", () => {
  /** A store that answers until `down` is set, then throws on everything. */
  function flaky() {
    const inner = memorySessionVersions()
    const state = { down: false }
    const store: SessionVersionStore = {
      get: (userId, fresh) => {
        if (state.down) throw new Error("connection refused")
        return inner.get(userId, fresh)
      },
      bump: async (userId, ttl) => {
        if (state.down) throw new Error("connection refused")
        return inner.bump(userId, ttl)
      },
    }
    return { store, state }
  }

  it("reads fail open (logged once, not per request); a lasting change and a revocation fail closed; sign-in goes on", async () => {
    const { store, state } = flaky()
    const { lines, logger } = recording()
    const shop = site({ session: { strategy: "jwt", revocationStore: store }, logger })
    const laptop = await signedIn(shop, "ada")
    state.down = true
    expect(await session(laptop)).toMatchObject({ user: { name: "ada" } })
    expect(await authOf(shop, laptop)).toMatchObject({ user: { name: "ada" } })
    expect(lines.filter((line) => line.level === "error" && /session version store failed/.test(line.text))).toHaveLength(1)
    await expect(shop.revokeSessions("u-ada")).rejects.toThrow("connection refused")
    await expect(shop.revokeSessions(new Request(`${APP}/account`, { headers: { cookie: cookieHeader(laptop) } }))).rejects.toThrow("connection refused")
    const phone = await signedIn(shop, "ada")
    expect(await session(phone)).toMatchObject({ user: { name: "ada" } })
    expect(lines.some((line) => line.level === "error" && /carries version 0/.test(line.text))).toBe(true)
    // Back up: revocations work again.
    state.down = false
    await shop.revokeSessions("u-ada")
    expect(await session(laptop)).toBeNull()
    expect(await session(phone)).toBeNull()
  })
})

describe("hybrid sessions: revoking a user reaches the session.cache copies", () => {
  it("every browser's copy stops answering at once, on /session, auth() and authFromCookies; a new sign-in is cached again", async () => {
    const { memoryAdapter } = await import("../../src/adapters/memory-adapter.js")
    const shop = site({ adapter: memoryAdapter(), session: { strategy: "database", cache: { maxAge: 300 } } })
    const laptop = await signedIn(shop, "ada")
    const phone = await signedIn(shop, "ada")
    const other = await signedIn(shop, "eve")
    for (const browser of [laptop, phone, other]) expect(browser.cookies(APP).has("latchkey.session-cache")).toBe(true)
    const copyOnly = (browser: TestBrowser) => new Request(`${APP}/dashboard`, { headers: { cookie: cookieHeader(browser) } })
    expect(await shop.authFromCookies(copyOnly(phone))).toMatchObject({ session: { user: { name: "ada" } } })

    await shop.revokeSessions("u-ada")

    expect(await shop.authFromCookies(copyOnly(phone))).toEqual({ session: null, unverified: true }) // only the database can say now
    expect(await authOf(shop, phone)).toBeNull()
    expect(await session(laptop)).toBeNull()
    expect(await shop.authFromCookies(copyOnly(other))).toMatchObject({ session: { user: { name: "eve" } } })
    const again = await signedIn(shop, "ada")
    expect(await shop.authFromCookies(copyOnly(again))).toMatchObject({ session: { user: { name: "ada" } } })
  })

  it("revocationStore: false keeps Auth.js's hybrid behaviour: a copy answers reads until it expires", async () => {
    const { memoryAdapter } = await import("../../src/adapters/memory-adapter.js")
    const shop = site({ adapter: memoryAdapter(), session: { strategy: "database", cache: { maxAge: 300 }, revocationStore: false } })
    const phone = await signedIn(shop, "ada")
    await shop.revokeSessions("u-ada")
    expect(await shop.authFromCookies(new Request(`${APP}/dashboard`, { headers: { cookie: cookieHeader(phone) } }))).toMatchObject({ session: { user: { name: "ada" } } })
  })
})
