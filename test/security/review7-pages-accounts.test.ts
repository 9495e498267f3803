// Outside review 7: the handler's built-in pages, the session update route (POST /session) and the
// account API (revokeSession, revokeSessions, unlinkAccount, deleteUser), attacked through the handler.
import { describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { decode } from "../../src/jwt/index.js"
import type { JWT } from "../../src/types.js"
import { TestBrowser } from "../servers/browser.js"
import { corpProvider, csrfOf, jarOf, ORIGIN, post, SECRET, secureApp, sessionOf } from "./support.js"

const ADA = { sub: "ada-sub", email: "ada@example.com", name: "Ada" }
const EVE = { sub: "eve-sub", email: "eve@example.com", name: "Eve" }
const idp = corpProvider([ADA, EVE])
const SESSION = "__Secure-authjs.session-token"
const XSS = `"><script>alert(1)</script><img src=x onerror=alert(1)>`

async function signedIn(site: ReturnType<typeof secureApp>, as: typeof ADA) {
  const browser = site.browser()
  idp.signInAs(as.sub)
  await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
  expect(await sessionOf(browser)).toMatchObject({ user: { email: as.email } })
  return browser
}

const userIdOf = (adapter: ReturnType<typeof memoryAdapter>, sub: string) => [...adapter.accounts.values()].find((account) => account.providerAccountId === sub)!.userId

/** The browser's request, as an account page would get it. */
const requestOf = (browser: TestBrowser) =>
  new Request(`${ORIGIN}/account`, { headers: { cookie: [...browser.cookies(ORIGIN)].map(([name, value]) => `${name}=${value}`).join("; ") } })

/** A second browser holding a copy of `victim`'s session cookie only (a stolen cookie). */
function thiefWith(site: ReturnType<typeof secureApp>, victim: TestBrowser): TestBrowser {
  const thief = site.browser()
  thief.acceptCookies(ORIGIN, [`${SESSION}=${jarOf(victim)[SESSION]}; Path=/; Secure; HttpOnly`])
  return thief
}

/** POST /session as a script would send it. */
function update(browser: TestBrowser, body: string, type = "application/json") {
  return browser.open(`${ORIGIN}/auth/session`, { method: "POST", headers: { "content-type": type }, body })
}

const hostileProvider = {
  id: "acme",
  name: `Acme ${XSS}`,
  type: "oauth" as const,
  clientId: "c",
  clientSecret: "s",
  authorization: "https://acme.example/authorize",
  token: "https://acme.example/token",
  userinfo: "https://acme.example/userinfo",
  style: { brandColor: "red;}</style><script>alert(1)</script>" },
}

function assertSafePage(response: Response, body: string) {
  expect(response.headers.get("content-type")).toMatch(/^text\/html/)
  expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'/)
  expect(response.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/)
  expect(response.headers.get("x-frame-options")).toBe("DENY")
  expect(body).not.toMatch(/<script/i)
  expect(body).not.toMatch(/<img src=x/i)
  expect(body).not.toMatch(/javascript:/i)
}

describe("pages: injection through query parameters, provider names and the theme", () => {
  it("a hostile ?error= and ?callbackUrl= on the sign-in page are never reflected raw, and the page keeps CSP and X-Frame-Options", async () => {
    const site = secureApp({ providers: [hostileProvider] })
    for (const callbackUrl of ["javascript:alert(1)", `/x${XSS}`, `${ORIGIN}/x${XSS}`]) {
      const { response } = await site.browser().open(`${ORIGIN}/auth/signin?${new URLSearchParams({ error: XSS, callbackUrl })}`)
      const body = await response.text()
      assertSafePage(response, body)
      expect(body).toContain("Something went wrong while signing in.")
    }
  })

  it("a hostile ?error= on the error page (production and development) shows the default text, never the value", async () => {
    for (const development of [false, true]) {
      const site = secureApp({ providers: [hostileProvider], diagnostics: { development } } as never)
      const { response } = await site.browser().open(`${ORIGIN}/auth/error?${new URLSearchParams({ error: XSS })}`)
      const body = await response.text()
      expect(response.status).toBe(200)
      assertSafePage(response, body)
      expect(body).not.toContain("alert(1)")
    }
  })

  it("a provider name with markup and a brandColor that closes the <style> stay inert on the sign-in page", async () => {
    const site = secureApp({ providers: [hostileProvider] })
    const { response } = await site.browser().open(`${ORIGIN}/auth/signin`)
    const body = await response.text()
    assertSafePage(response, body)
    expect(body).not.toContain("</style><script")
    expect(body).toContain("Sign in with Acme &quot;&gt;&lt;script&gt;")
  })

  it("theme.brandColor breaking out of CSS, theme.logo breaking out of its attribute or set to javascript: never inject markup", async () => {
    for (const logo of [`https://cdn.example/l.png${XSS}`, "javascript:alert(1)"]) {
      const site = secureApp({ providers: [hostileProvider], theme: { brandColor: "red;}</style><script>alert(1)</script>", logo, buttonText: XSS } })
      for (const path of ["/auth/signin", "/auth/signout", "/auth/verify-request", "/auth/error?error=Configuration"]) {
        const { response } = await site.browser().open(`${ORIGIN}${path}`)
        const body = await response.text()
        expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'/)
        expect(response.headers.get("x-frame-options")).toBe("DENY")
        expect(body).not.toMatch(/<script/i)
        expect(body).not.toContain("</style><script")
        // A javascript: logo is an <img src>, which never runs script, and CSP's img-src admits only 'self' data: https:.
        expect(body).not.toMatch(/<img[^>]*src="[^"]*"[^>]*onerror/i)
        expect(body).toContain("--brand:#346df1")
      }
    }
  })

  it("credentials field names and labels with markup are escaped in the form", async () => {
    const site = secureApp({
      providers: [{ id: "pw", name: `Pw ${XSS}`, type: "credentials", credentials: { [`u${XSS}`]: { label: XSS, type: `text${XSS}`, onfocus: "alert(1)" } as never }, authorize: () => null }],
    })
    const { response } = await site.browser().open(`${ORIGIN}/auth/signin`)
    const body = await response.text()
    assertSafePage(response, body)
    expect(body).not.toMatch(/onfocus/i)
  })
})

describe("POST /session (session update)", () => {
  it("a cross-site update with no CSRF token (form, no-cors text/plain, JSON) is refused 403 and re-issues nothing", async () => {
    const seen: unknown[] = []
    const site = secureApp({ providers: [idp.provider()], callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" && seen.push(session), token) } })
    const victim = await signedIn(site, ADA)
    const cases: [string, string][] = [
      ['data={"name":"Mallory"}', "application/x-www-form-urlencoded"],
      ['{"data":{"name":"Mallory"}}', "text/plain"],
      ['{"data":{"name":"Mallory"},"csrfToken":"forged"}', "application/json"],
    ]
    for (const [body, type] of cases) {
      const { response } = await update(victim, body, type)
      expect(response.status).toBe(403)
      expect(await response.json()).toEqual({ error: "MissingCSRF" })
      expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith(SESSION))).toBe(false)
    }
    expect(seen).toEqual([])
  })

  it("a JSON body or a data field nested 10 000 deep (inside the 64 KiB body limit) is refused 400 before the jwt callback runs", async () => {
    let calls = 0
    const site = secureApp({ providers: [idp.provider()], callbacks: { jwt: ({ token, trigger }) => (trigger === "update" && calls++, token) } })
    const browser = await signedIn(site, ADA)
    const csrfToken = await csrfOf(browser)
    const deep = "[".repeat(10_000) + "]".repeat(10_000)
    const whole = await update(browser, `{"csrfToken":${JSON.stringify(csrfToken)},"data":${deep}}`)
    expect(whole.response.status).toBe(400)
    const field = await update(browser, new URLSearchParams({ csrfToken, data: deep }).toString(), "application/x-www-form-urlencoded")
    expect(field.response.status).toBe(400)
    expect(calls).toBe(0)
  })

  it("without a jwt callback, update data naming sub, email, exp, iat and latchkey.* claims changes nothing in the token", async () => {
    const site = secureApp({ providers: [idp.provider()], session: { strategy: "jwt" }, adapter: memoryAdapter() })
    const browser = await signedIn(site, ADA)
    const before = (await decode({ token: jarOf(browser)[SESSION]!, secret: SECRET, salt: SESSION })) as JWT
    const data = { sub: "eve", email: EVE.email, exp: 9_999_999_999, iat: 9_999_999_999, "latchkey.browser": "x", "latchkey.version": 99, user: { email: EVE.email } }
    const { response } = await update(browser, JSON.stringify({ csrfToken: await csrfOf(browser), data }))
    expect(response.status).toBe(200)
    const answered = (await response.json()) as { user: { email: string }; expires: string }
    expect(answered.user.email).toBe(ADA.email)
    expect(new Date(answered.expires).getTime()).toBeLessThan(Date.now() + 31 * 24 * 3600 * 1000)
    const after = (await decode({ token: jarOf(browser)[SESSION]!, secret: SECRET, salt: SESSION })) as JWT
    expect(after.sub).toBe(before.sub)
    expect(after.email).toBe(ADA.email)
    expect(after["latchkey.browser"]).toBe(before["latchkey.browser"])
    expect(after["latchkey.version"]).toBe(before["latchkey.version"])
    expect(after.exp!).toBeLessThan(9_999_999_999)
  })

  it("a jwt callback that spreads client data cannot let the client raise latchkey.version past a revocation, rebind the session, or set exp/iat", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [idp.provider()], adapter, session: { strategy: "jwt" }, callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, ...(session as object) } : token) } })
    const browser = await signedIn(site, ADA)
    const data = { "latchkey.version": 1_000_000, "latchkey.browser": "attacker", exp: 9_999_999_999, iat: 9_999_999_999 }
    expect((await update(browser, JSON.stringify({ csrfToken: await csrfOf(browser), data }))).response.status).toBe(200)
    const after = (await decode({ token: jarOf(browser)[SESSION]!, secret: SECRET, salt: SESSION })) as JWT
    expect(after["latchkey.browser"]).not.toBe("attacker")
    expect(after["latchkey.version"]).not.toBe(1_000_000)
    expect(after.exp!).toBeLessThan(9_999_999_999)
    expect(after.iat!).toBeLessThan(9_999_999_999)
    await site.revokeSessions(userIdOf(adapter, ADA.sub))
    expect(await sessionOf(browser)).toBeNull()
  })

  it("a stolen JWT cookie replayed from another browser (with its own CSRF token) gets no update and no re-issued cookie", async () => {
    let updates = 0
    const site = secureApp({ providers: [idp.provider()], session: { strategy: "jwt" }, callbacks: { jwt: ({ token, trigger }) => (trigger === "update" && updates++, token) } })
    const victim = await signedIn(site, ADA)
    const thief = thiefWith(site, victim)
    const { response } = await update(thief, JSON.stringify({ csrfToken: await csrfOf(thief), data: { name: "x" } }))
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith(`${SESSION}=`) && !cookie.startsWith(`${SESSION}=;`))).toBe(false)
    expect(updates).toBe(0)
  })

  it("an update after revokeSessions (JWT) neither answers the session nor re-issues a live token", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [idp.provider()], adapter, session: { strategy: "jwt" } })
    const browser = await signedIn(site, ADA)
    const csrfToken = await csrfOf(browser)
    await site.revokeSessions(userIdOf(adapter, ADA.sub))
    const { response } = await update(browser, JSON.stringify({ csrfToken, data: {} }))
    expect(await response.json()).toBeNull()
    expect(await sessionOf(browser)).toBeNull()
  })

  it("an update after revokeSession (database) answers null and the session stays ended", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [idp.provider()], adapter })
    const browser = await signedIn(site, ADA)
    const csrfToken = await csrfOf(browser)
    await site.revokeSession(jarOf(browser)[SESSION]!)
    const { response } = await update(browser, JSON.stringify({ csrfToken, data: {} }))
    expect(await response.json()).toBeNull()
    expect(await sessionOf(browser)).toBeNull()
  })
})

describe("account API", () => {
  it("deleteUser (database sessions) leaves no session, account or user, and the browser is signed out on every read path", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [idp.provider()], adapter })
    const laptop = await signedIn(site, ADA)
    const other = await signedIn(site, EVE)
    const ada = userIdOf(adapter, ADA.sub)
    const token = jarOf(laptop)[SESSION]!
    await site.deleteUser(requestOf(laptop))
    expect(adapter.users.has(ada)).toBe(false)
    expect([...adapter.accounts.values()].some((account) => account.userId === ada)).toBe(false)
    expect(await adapter.getSessionAndUser!(token)).toBeNull()
    expect(await site.auth(requestOf(laptop))).toBeNull()
    expect(await sessionOf(laptop)).toBeNull()
    expect(await sessionOf(other)).toMatchObject({ user: { email: EVE.email } })
  })

  it("deleteUser (JWT sessions) leaves no readable JWT: /session, auth() and a session update all answer null", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [idp.provider()], adapter, session: { strategy: "jwt" } })
    const laptop = await signedIn(site, ADA)
    const phone = await signedIn(site, ADA)
    const csrfToken = await csrfOf(phone)
    await site.deleteUser(userIdOf(adapter, ADA.sub))
    expect(await site.auth(requestOf(laptop))).toBeNull()
    expect(await sessionOf(laptop)).toBeNull()
    const { response } = await update(phone, JSON.stringify({ csrfToken, data: {} }))
    expect(await response.json()).toBeNull()
    expect(await sessionOf(phone)).toBeNull()
  })

  it("deleteUser, revokeSessions and unlinkAccount given a request carrying a stolen cookie (another browser) refuse with SessionRequiredError and change nothing", async () => {
    for (const strategy of ["database", "jwt"] as const) {
      const adapter = memoryAdapter()
      const site = secureApp({ providers: [idp.provider()], adapter, session: { strategy } })
      const victim = await signedIn(site, ADA)
      const thief = thiefWith(site, victim)
      await expect(site.deleteUser(requestOf(thief))).rejects.toMatchObject({ code: "ERR_SESSION_REQUIRED" })
      await expect(site.revokeSessions(requestOf(thief))).rejects.toMatchObject({ code: "ERR_SESSION_REQUIRED" })
      await expect(site.unlinkAccount(requestOf(thief), { provider: "corp", providerAccountId: ADA.sub })).rejects.toMatchObject({ code: "ERR_SESSION_REQUIRED" })
      expect(adapter.users.has(userIdOf(adapter, ADA.sub))).toBe(true)
      expect(await sessionOf(victim)).toMatchObject({ user: { email: ADA.email } })
    }
  })

  it("deleteUser(request) from a revoked session's hybrid cache copy is refused: the row decides", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [idp.provider()], adapter, session: { cache: { maxAge: 60 } } as never })
    const browser = await signedIn(site, ADA)
    await site.revokeSession(jarOf(browser)[SESSION]!)
    // The copy still answers reads (documented), so the refusal below is the row's doing.
    expect(await site.auth(requestOf(browser))).toMatchObject({ user: { email: ADA.email } })
    await expect(site.deleteUser(requestOf(browser))).rejects.toMatchObject({ code: "ERR_SESSION_REQUIRED" })
    expect(adapter.users.size).toBe(1)
  })

  it("deleteUser (hybrid sessions) leaves no cache copy answering: /session and auth() are signed out at once", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [idp.provider()], adapter, session: { cache: { maxAge: 60 } } as never })
    const browser = await signedIn(site, ADA)
    await site.deleteUser(userIdOf(adapter, ADA.sub))
    expect(await site.auth(requestOf(browser))).toBeNull()
    expect(await sessionOf(browser)).toBeNull()
  })

  it("unlinkAccount of another user's account, via the attacker's own confirmed request, is refused with a typed error", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [idp.provider()], adapter })
    await signedIn(site, ADA)
    const eve = await signedIn(site, EVE)
    await expect(site.unlinkAccount(requestOf(eve), { provider: "corp", providerAccountId: ADA.sub })).rejects.toMatchObject({ code: "ERR_OAUTH_ACCOUNT_NOT_LINKED" })
    expect(adapter.accounts.size).toBe(2)
  })

  it("typed errors of the account API carry a code and never the secret or the session token", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [idp.provider()], adapter, session: { strategy: "jwt" } })
    const browser = await signedIn(site, ADA)
    const token = jarOf(browser)[SESSION]!
    const error = (await site.revokeSession(token).catch((caught: unknown) => caught)) as Error & { code?: string }
    expect(error.code).toBe("ERR_INVALID_OPTION")
    expect(`${error.message} ${error.stack}`).not.toContain(token)
    expect(`${error.message} ${error.stack}`).not.toContain(SECRET)
  })
})
