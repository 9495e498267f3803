// Attacks written for the guards of src/handler/ that a mutation probe could delete with every test
// still passing. Each describe names its guard; each test drives the handler as an attacker would
// and fails when that guard is gone.
import { describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import type { EmailConfig } from "../../src/providers/types.js"
import { providerTokens } from "../../src/provider-tokens/index.js"
import { TestBrowser } from "../servers/browser.js"
import { refreshingProvider, signedIn } from "../tokens/support.js"
import { corpProvider, csrfOf, ORIGIN, post, secureApp, sessionOf } from "./support.js"

const ADA = { sub: "ada-sub", email: "ada@example.com", name: "Ada" }
const idp = corpProvider([ADA])

const SESSION = "__Secure-authjs.session-token"
const cookieOf = (browser: TestBrowser) => [...browser.cookies(ORIGIN)].map(([name, value]) => `${name}=${value}`).join("; ")
const requestOf = (browser: TestBrowser) => new Request(`${ORIGIN}/account`, { headers: { cookie: cookieOf(browser) } })

function mailbox() {
  const sent: string[] = []
  const provider: EmailConfig = { id: "email", name: "Email", type: "email", from: "auth@example.com", sendVerificationRequest: ({ url }) => void sent.push(url) }
  return { sent, provider }
}

/** The Set-Cookie values of a response that carry a session token. */
const sessionCookies = (response: Response) => response.headers.getSetCookie().filter((line) => line.startsWith(`${SESSION}=`) && !line.startsWith(`${SESSION}=;`))

describe("response.ts BASE_HEADERS: every answer that sets a session is no-store", () => {
  // Guard: src/handler/response.ts:redirect (BASE_HEADERS "cache-control: no-store"). A shared cache (a CDN in front of
  // the app) that keeps the sign-in redirect would hand the next visitor its Set-Cookie: the signed-in user's session.
  it("the credentials sign-in redirect that carries the session cookie says cache-control: no-store", async () => {
    const provider = Credentials({ credentials: { username: {} }, authorize: ({ username }) => (username === "ada" ? { id: "ada", name: "Ada" } : null) })
    const site = secureApp({ providers: [provider] })
    const browser = site.browser()
    const csrfToken = await csrfOf(browser)
    const response = await site.dispatch(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieOf(browser) },
      body: new URLSearchParams({ csrfToken, username: "ada" }).toString(),
    })
    expect(response.status).toBe(302)
    expect(sessionCookies(response)).toHaveLength(1)
    expect(response.headers.get("cache-control") ?? "").toContain("no-store")
  })

  // Guard: src/handler/response.ts:redirect (BASE_HEADERS). The followed magic link's answer carries the session: a
  // cache keyed on the URL would also replay it to anyone who opens the same (already used) link.
  it("the followed magic link's redirect that carries the session cookie says cache-control: no-store", async () => {
    const { sent, provider } = mailbox()
    const site = secureApp({ providers: [provider], adapter: memoryAdapter() })
    const browser = site.browser()
    await post(browser, "/auth/signin/email", { csrfToken: await csrfOf(browser), email: ADA.email })
    expect(sent).toHaveLength(1)
    const response = await site.dispatch(sent[0]!, { headers: { cookie: cookieOf(browser) } })
    expect(response.status).toBe(302)
    expect(sessionCookies(response)).toHaveLength(1)
    expect(response.headers.get("cache-control") ?? "").toContain("no-store")
  })

  // Guard: src/handler/response.ts:html (BASE_HEADERS). The sign-in page carries this browser's CSRF token and sets its cookie.
  it("the built-in sign-in page, which carries the CSRF token and its cookie, says cache-control: no-store", async () => {
    const { provider } = mailbox()
    const site = secureApp({ providers: [provider], adapter: memoryAdapter() })
    const response = await site.dispatch(`${ORIGIN}/auth/signin`)
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('name="csrfToken"')
    expect(response.headers.get("cache-control") ?? "").toContain("no-store")
  })
})

describe("pages/signin.ts oauthButton: a provider's own logo URL is escaped", () => {
  // Guard: src/handler/pages/signin.ts:oauthButton (escapeHtml(logo)). A logo URL taken from a tenant's settings or an
  // admin form must not break out of the src attribute into markup of its own.
  it("a style.logo with a quote and a tag stays inside the src attribute of the sign-in page", async () => {
    const logo = `https://cdn.example/x.svg"><img src=x onerror="alert(1)`
    const site = secureApp({ providers: [{ ...idp.provider(), style: { logo } }] })
    const page = await (await site.dispatch(`${ORIGIN}/auth/signin`)).text()
    expect(page).not.toContain('"><img src=x')
    expect(page).not.toContain('onerror="alert(1)')
    expect(page).toContain("https://cdn.example/x.svg&quot;&gt;&lt;img src=x onerror=&quot;alert(1)")
  })
})

describe("accounts.ts deleteUser: the user's session rows go first", () => {
  // Guard: src/handler/accounts.ts:deleteUser (adapter.deleteSessionsByUserId before deleteUser). An adapter that does not
  // cascade (no foreign key, or a key-value store) keeps the deleted user's session rows; a store that reuses the id
  // (SQLite's INTEGER PRIMARY KEY hands the highest freed id out again) then signs the old browser in as the next user.
  it("a deleted user's browser is not signed in as the next user given the same id by a store that does not cascade", async () => {
    const base = memoryAdapter()
    const adapter = {
      ...base,
      // No cascade: the user and accounts go, the session rows stay.
      deleteUser(id: string) {
        for (const [key, row] of base.accounts) if (row.userId === id) base.accounts.delete(key)
        const user = base.users.get(id) ?? null
        base.users.delete(id)
        return user
      },
    }
    const site = secureApp({ providers: [idp.provider()], adapter })
    const old = site.browser()
    idp.signInAs(ADA.sub)
    await post(old, "/auth/signin/corp", { csrfToken: await csrfOf(old) })
    const userId = (await site.auth(requestOf(old)))?.user?.id
    expect(userId).toBeDefined()
    // The deleted user's cookie, as another of their devices (or whoever copied it) still holds it.
    const kept = new Request(`${ORIGIN}/auth/session`, { headers: { cookie: cookieOf(old) } })
    expect(kept.headers.get("cookie")).toContain(`${SESSION}=`)
    await site.deleteUser(requestOf(old))
    // The store hands the freed id to a new sign-up.
    await base.createUser({ id: userId!, email: "newcomer@example.com", emailVerified: null })
    const answer = (await (await site.dispatch(kept.url, { headers: kept.headers })).json()) as { user?: { email?: string } } | null
    expect(answer?.user?.email, "the deleted user's cookie opens the newcomer's account").toBeUndefined()
    expect(await site.auth(new Request(`${ORIGIN}/account`, { headers: kept.headers }))).toBeNull()
  })
})

describe("pages/signin.ts providerForm: a provider id from the config is escaped in the email field's id", () => {
  // Guard: src/handler/pages/signin.ts:providerForm (escapeHtml(provider.id) in `email-<id>`). Provider ids are not
  // restricted to a character set (ids from a tenant table, a plug-in), and the email form writes one into attributes.
  it("an email provider whose id holds a quote and an event handler adds no attribute to the sign-in page", async () => {
    const id = `mail"onfocus="alert(1)"autofocus="`
    const site = secureApp({ providers: [{ ...mailbox().provider, id }], adapter: memoryAdapter() })
    const response = await site.dispatch(`${ORIGIN}/auth/signin`)
    expect(response.status).toBe(200)
    const page = await response.text()
    expect(page).toContain('id="email-mail&quot;onfocus=&quot;alert(1)&quot;autofocus=&quot;"')
    expect(page).not.toContain('"onfocus="')
  })
})

describe("signout.ts isFederated: the form cannot ask for provider sign-out the app did not configure", () => {
  const refreshing = refreshingProvider()

  // Guard: src/handler/signout.ts:isFederated (`configured === undefined` → false). An app keeps provider tokens only to
  // refresh them (no `signOut` option): a sign-out form carrying federated=true must sign out here only, never send the
  // browser (with the id_token's client) to the provider's end-session endpoint, ending the user's other apps there.
  it("federated=true on the sign-out form of an app without providerTokens({ signOut }) redirects on the app's origin", async () => {
    const { site, browser } = await signedIn(refreshing(), { providerTokens: providerTokens({ refresh: true }) })
    const csrfToken = await csrfOf(browser)
    const response = await site.handler(
      new Request(`${ORIGIN}/auth/signout`, {
        method: "POST",
        headers: { cookie: cookieOf(browser), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, federated: "true" }),
      })
    )
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).origin).toBe(ORIGIN)
    // Signed out here all the same: the session cookie is cleared.
    expect(response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION}=;`) || /^__Secure-authjs\.session-token=[^;]*;.*Max-Age=0/i.test(line))).toBe(true)
  })
})

describe("index.ts handler: methods other than GET, HEAD and POST are refused", () => {
  // Guard: src/handler/index.ts:handler (`else answer = json({ error: "MethodNotAllowed" }, [], 405)`). PUT, PATCH and
  // DELETE never reach a route: a route written for POST must not run for a method whose body the handler never read
  // and bounded, and an OAuth callback must not be finished by a method no provider sends.
  it("PUT, PATCH and DELETE to the sign-out, session and callback routes answer 405 and leave the session alone", async () => {
    const site = secureApp({ providers: [idp.provider()], adapter: memoryAdapter() })
    const browser = site.browser()
    idp.signInAs(ADA.sub)
    await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
    expect((await sessionOf(browser))?.user.email).toBe(ADA.email)
    const csrfToken = await csrfOf(browser)
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      for (const path of ["/auth/signout", "/auth/session", "/auth/callback/corp?code=x&state=y", "/auth/signin/corp"]) {
        const headers = { cookie: cookieOf(browser), "content-type": "application/json" }
        const response = await site.dispatch(`${ORIGIN}${path}`, { method, headers, body: JSON.stringify({ csrfToken }) })
        expect([method, path, response.status]).toEqual([method, path, 405])
      }
    }
    expect((await sessionOf(browser))?.user.email).toBe(ADA.email)
  })
})

describe("body.ts nestsWithin: an escaped quote does not end the string it is in", () => {
  // Guard: src/handler/body.ts:nestsWithin (a backslash skips the next character). Were `\"` read as the string's end,
  // the quote after it would open a "string" that hides every bracket behind it: a 30 000-deep body would pass the depth
  // bound and reach the code that walks it (the 500 and logged error the bound exists to prevent).
  it("a 30 000-deep body behind an escaped quote is refused 400 before anything walks it, with no error logged", async () => {
    const errors: unknown[] = []
    const site = secureApp({ providers: [idp.provider()], logger: { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} } })
    const body = `{"hide":"\\"","data":${"[".repeat(30_000)}${"]".repeat(30_000)}}`
    expect(() => JSON.parse(body)).not.toThrow()
    const response = await site.handler(new Request(`${ORIGIN}/auth/session`, { method: "POST", headers: { "content-type": "application/json" }, body }))
    expect([response.status, await response.json()]).toEqual([400, { error: "InvalidRequest" }])
    expect(errors).toEqual([])
  })
})

describe("complete-sign-in.ts linkUser: credentials sign in as authorize's user and are not stored", () => {
  // Guard: src/handler/complete-sign-in.ts:linkUser (`outcome.provider.type === "credentials"` returns authorize's user).
  // With an adapter and JWT sessions a credentials sign-in must not go through account linking: that would write a user
  // and a "credentials" account row, and the session would carry a fresh id the app's authorize never chose, so the
  // app's own user (and every check it makes on that id) would no longer be the one signed in.
  it("with an adapter and JWT sessions, the session's user id is authorize's and no user or account row is written", async () => {
    const adapter = memoryAdapter()
    const ada = { id: "app-user-7", name: "Ada", email: "ada@example.com" }
    const provider = Credentials({ credentials: { username: {} }, authorize: ({ username }) => (username === "ada" ? ada : null) })
    const site = secureApp({ providers: [provider], adapter, session: { strategy: "jwt" } })
    const browser = site.browser()
    await post(browser, "/auth/callback/credentials", { csrfToken: await csrfOf(browser), username: "ada" })
    expect((await site.auth(requestOf(browser)))?.user?.id).toBe("app-user-7")
    expect(adapter.users.size).toBe(0)
    expect(adapter.accounts.size).toBe(0)
  })
})
