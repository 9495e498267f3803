// Round three, item 2: session injection by a sibling subdomain. The session cookie keeps Auth.js's
// `__Secure-` name, so a sibling can plant the attacker's own session in a signed-out browser. A
// session is bound to the browser it was signed in in (a hash of its `__Host-` CSRF token), and
// every read path honours it only there: elsewhere it is signed out, and the session route clears
// it. Sessions with no binding (Auth.js's, from before the move) keep working, and are bound when
// re-issued. `session.sharedAcrossSubdomains` is the documented opt-out.
import { describe, expect, it } from "vitest"
import { decode, encode } from "../../src/jwt/index.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import type { AuthConfig } from "../../src/handler/index.js"
import { MAX_REMEMBERED_BINDINGS, rememberedBindings } from "../../src/adapters/browser-binding.js"
import { requestFrom } from "../tokens/support.js"
import { corpProvider, csrfOf, jarOf, ORIGIN, plantFromSibling, post, secureApp, SECRET, sessionOf } from "./support.js"

const ATTACKER = { sub: "attacker-sub", email: "attacker@evil.example", name: "Attacker" }
const idp = corpProvider([ATTACKER])
const SESSION_COOKIE = "__Secure-authjs.session-token"

let attackerBrowser: ReturnType<ReturnType<typeof secureApp>["browser"]> | undefined

/** The attacker signs in in their own browser; answers their session cookies, as a sibling would plant them. */
async function attackersSession(site: ReturnType<typeof secureApp>): Promise<Record<string, string>> {
  const attacker = (attackerBrowser = site.browser())
  idp.signInAs(ATTACKER.sub)
  await post(attacker, "/auth/signin/corp", { csrfToken: await csrfOf(attacker) })
  expect((await sessionOf(attacker))?.user.email).toBe(ATTACKER.email)
  return Object.fromEntries(Object.entries(jarOf(attacker)).filter(([name]) => name.includes("session")))
}

describe.each([
  ["JWT", {}],
  ["database", { adapter: memoryAdapter() }],
  ["database with the cache", { adapter: memoryAdapter(), session: { cache: { maxAge: 300 } } }],
] as [string, Partial<AuthConfig>][])("a session planted by a sibling, %s sessions (round three, item 2)", (_, config) => {
  it("reads as signed out on every read path, and the session route clears it", async () => {
    const site = secureApp({ providers: [idp.provider()], ...config })
    const planted = await attackersSession(site)
    const victim = site.browser()
    await csrfOf(victim) // the victim's own browser, with its own CSRF cookie
    plantFromSibling(victim, planted)
    expect(await site.auth(requestFrom(victim))).toBeNull()
    expect(await site.authFromCookies(requestFrom(victim))).toEqual({ session: null, unverified: false })
    const response = await site.handler(new Request(`${ORIGIN}/auth/session`, { headers: requestFrom(victim).headers }))
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=;`))).toBe(true)
  })

  it("in the attacker's own browser, the same session still reads", async () => {
    const site = secureApp({ providers: [idp.provider()], ...config })
    const attacker = site.browser()
    idp.signInAs(ATTACKER.sub)
    await post(attacker, "/auth/signin/corp", { csrfToken: await csrfOf(attacker) })
    expect((await site.auth(requestFrom(attacker)))?.user?.email).toBe(ATTACKER.email)
    expect((await site.authFromCookies(requestFrom(attacker))).unverified || (await site.authFromCookies(requestFrom(attacker))).session !== null).toBe(true)
  })
})

describe("sessions with no binding (Auth.js's, from before the move)", () => {
  it("a JWT keeps working, and is bound to this browser when it is re-issued", async () => {
    const site = secureApp({ providers: [idp.provider()], session: { updateAge: 0 } })
    const browser = site.browser()
    await csrfOf(browser)
    const token = await encode({ token: { sub: "u1", email: "old@example.com", name: "Old" }, secret: SECRET, salt: SESSION_COOKIE })
    browser.acceptCookies(ORIGIN, [`${SESSION_COOKIE}=${token}; Path=/; Secure`])
    expect((await site.auth(requestFrom(browser)))?.user?.email).toBe("old@example.com")
    expect((await sessionOf(browser))?.user.email).toBe("old@example.com") // re-issued (updateAge 0)
    const reissued = await decode({ token: jarOf(browser)[SESSION_COOKIE]!, secret: SECRET, salt: SESSION_COOKIE })
    expect(typeof reissued?.["latchkey.browser"]).toBe("string")
    // Now bound: planted in another browser, it reads as signed out.
    const other = site.browser()
    await csrfOf(other)
    plantFromSibling(other, { [SESSION_COOKIE]: jarOf(browser)[SESSION_COOKIE]! })
    expect(await sessionOf(other)).toBeNull()
  })

  it("a database token (a UUID) keeps working, and is replaced by a bound one when its row slides", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [idp.provider()], adapter, session: { updateAge: 0 } })
    const user = await adapter.createUser({ email: "old@example.com", emailVerified: null })
    const uuid = crypto.randomUUID()
    await adapter.createSession({ sessionToken: uuid, userId: user.id, expires: new Date(Date.now() + 3600_000) })
    const browser = site.browser()
    await csrfOf(browser)
    browser.acceptCookies(ORIGIN, [`${SESSION_COOKIE}=${uuid}; Path=/; Secure`])
    expect((await site.auth(requestFrom(browser)))?.user?.email).toBe("old@example.com")
    expect((await sessionOf(browser))?.user.email).toBe("old@example.com") // slid (updateAge 0)
    const rebound = jarOf(browser)[SESSION_COOKIE]!
    expect(rebound).not.toBe(uuid)
    expect(rebound).toMatch(/^[0-9a-f]{64}\.[A-Za-z0-9_-]+$/)
    // The old row answers for a minute more (requests in flight with its cookie), then ends.
    expect((await adapter.getSessionAndUser(uuid))!.session.expires.getTime()).toBeLessThanOrEqual(Date.now() + 60_000)
    expect((await sessionOf(browser))?.user.email).toBe("old@example.com")
    const other = site.browser()
    await csrfOf(other)
    plantFromSibling(other, { [SESSION_COOKIE]: rebound })
    expect(await sessionOf(other)).toBeNull()
  })
})

describe("the remembered bindings", () => {
  it("stay bounded however many CSRF cookies an attacker sends, and never answer for another cookie", async () => {
    const site = secureApp({ providers: [idp.provider()] })
    const planted = await attackersSession(site)
    const session = `${SESSION_COOKIE}=${planted[SESSION_COOKIE]}`
    for (let i = 0; i < MAX_REMEMBERED_BINDINGS + 50; i++) {
      const forged = `${crypto.randomUUID()}|${"0".repeat(64)}`
      expect(await site.auth(new Request(`${ORIGIN}/page`, { headers: { cookie: `${session}; __Host-authjs.csrf-token=${encodeURIComponent(forged)}` } }))).toBeNull()
    }
    expect(rememberedBindings()).toBe(MAX_REMEMBERED_BINDINGS)
    // The attacker's own browser still reads its session: its cookie's answer is its own.
    expect(await site.auth(requestFrom(attackerBrowser!))).not.toBeNull()
  }, 60_000)
})

describe("session.sharedAcrossSubdomains", () => {
  it("honours a session on a host that never saw its browser's CSRF cookie", async () => {
    const site = secureApp({ providers: [idp.provider()], session: { sharedAcrossSubdomains: true } })
    const planted = await attackersSession(site)
    const sibling = site.browser()
    await csrfOf(sibling)
    plantFromSibling(sibling, planted)
    expect((await sessionOf(sibling))?.user.email).toBe(ATTACKER.email)
    expect((await site.auth(requestFrom(sibling)))?.user?.email).toBe(ATTACKER.email)
  })
})
