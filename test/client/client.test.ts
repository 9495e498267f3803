// latchkey/client's logic against the real handler (through a fetch that calls it, no network):
// sign-in from a custom form with the refusal's code kept, email, update, sign-out, the CSRF token
// read again once on MissingCSRF, shared reads, reads overtaken by a change, network failures as
// values, and the in-page signal between clients. What needs a page (focus, other tabs, navigation)
// is driven in Chromium by test/e2e/client.browser.test.ts.
import { describe, expect, it, vi } from "vitest"
import { createAuthClient } from "../../src/client/client.js"
import { getSession as defaultGetSession } from "../../src/client/default-client.js"
import type { SessionState } from "../../src/client/types.js"
import { CredentialsSignin, InvalidOptionError, SessionRouteNotFoundError } from "../../src/errors.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import type { EmailConfig } from "../../src/providers/email/types.js"
import type { Session } from "../../src/types.js"
import { csrf, postForm } from "../handler/support.js"
import { APP, clientApp, freshBrowser } from "./support.js"

class Locked extends CredentialsSignin {
  override code = "locked"
}

const credentials = () =>
  Credentials({
    credentials: { username: {}, password: { type: "password" } },
    authorize: ({ username, password }) => {
      if (username === "locked") throw new Locked()
      return username === "ada" && password === "right" ? { id: "u-ada", name: "Ada", email: "ada@example.com" } : null
    },
  })

/** The callbacks the docs show for `update()`: the jwt callback takes what the client sent. */
const callbacks = {
  jwt: ({ token, trigger, session }: { token: Record<string, unknown>; trigger: string; session?: unknown }) => {
    if (trigger === "update" && typeof session === "object" && session !== null && "theme" in session) return { ...token, theme: String(session.theme) }
    return token
  },
  session: ({ session, token }: { session: Session; token: Record<string, unknown> }) => ({ ...session, theme: token.theme as string | undefined }),
}

/** The `localStorage` a page has, for the tabs' shared memory (Node has none). */
function memoryStorage(): Pick<Storage, "getItem" | "setItem" | "removeItem"> {
  const items = new Map<string, string>()
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, String(value)), removeItem: (key) => void items.delete(key) }
}

/** Resolves with the first state `listener`'s client reaches that `accept` takes. */
function stateWhere<S extends Session>(client: { subscribe: (listener: (state: SessionState<S>) => void) => () => void }, accept: (state: SessionState<S>) => boolean): Promise<SessionState<S>> {
  return new Promise((resolve) => {
    const stop = client.subscribe((state) => {
      if (!accept(state)) return
      stop()
      resolve(state)
    })
  })
}

describe("latchkey/client against the handler", () => {
  it("credentials from a custom form: a refusal is a value with its CredentialsSignin code, and the state stays signed out", async () => {
    const { client } = clientApp({ providers: [credentials()] })
    const wrong = await client.signIn("credentials", { username: "ada", password: "wrong", redirect: false })
    expect(wrong).toEqual({ ok: false, error: "CredentialsSignin", code: "credentials", url: null, status: 200 })
    const locked = await client.signIn("credentials", { username: "locked", password: "x", redirect: false })
    expect(locked).toMatchObject({ ok: false, error: "CredentialsSignin", code: "locked" })
    expect(await client.getSession()).toBeNull()
    expect(client.getState()).toEqual({ data: null, status: "unauthenticated" })
  })

  it("a refusal with redirect left at true still answers its code (a failure never navigates)", async () => {
    const { client } = clientApp({ providers: [credentials()] })
    expect(await client.signIn("credentials", { username: "locked", password: "x" })).toMatchObject({ ok: false, error: "CredentialsSignin", code: "locked" })
  })

  it("a credentials sign-in with redirect: false updates the state at once: no stale session", async () => {
    const { client } = clientApp({ providers: [credentials()] })
    const states: SessionState[] = []
    const stop = client.subscribe((state) => states.push(state))
    await stateWhere(client, (state) => state.status !== "loading")
    const result = await client.signIn("credentials", { username: "ada", password: "right", redirectTo: "/dashboard", redirect: false })
    stop()
    expect(result).toEqual({ ok: true, error: undefined, code: undefined, url: `${APP}/dashboard`, status: 200 })
    expect(client.getState()).toMatchObject({ status: "authenticated", data: { user: { name: "Ada", email: "ada@example.com" } } })
    expect(states.map((state) => state.status)).toEqual(["unauthenticated", "authenticated"])
  })

  it("a callbackUrl whose own query says error is a success, not a refusal", async () => {
    const { client } = clientApp({ providers: [credentials()] })
    const result = await client.signIn("credentials", { username: "ada", password: "right", redirectTo: "/report?error=none&code=7", redirect: false })
    expect(result).toMatchObject({ ok: true, error: undefined, code: undefined, url: `${APP}/report?error=none&code=7` })
  })

  it("fields are sent as the provider's form fields; the client's own options are not", async () => {
    const seen: Record<string, unknown>[] = []
    const provider = Credentials({ credentials: { username: {}, pin: {}, redirect: {}, callbackUrl: {} }, authorize: (fields) => (seen.push(fields), null) })
    const { client } = clientApp({ providers: [provider] })
    await client.signIn("credentials", { username: "ada", pin: 1234, redirect: false, redirectTo: "/x" })
    expect(seen).toEqual([{ username: "ada", pin: "1234", redirect: undefined, callbackUrl: "/x" }])
  })

  it("a callbackUrl option (next-auth's old name) is refused by name, not sent on as a form field", async () => {
    const { client, page } = clientApp({ providers: [credentials()] })
    const leftover = { callbackUrl: "/elsewhere", redirect: false } as never
    await expect(client.signIn("credentials", { username: "ada", password: "right", ...(leftover as object) })).rejects.toMatchObject({ code: "ERR_INVALID_OPTION", option: "callbackUrl", message: expect.stringContaining("redirectTo") })
    await expect(client.signOut(leftover)).rejects.toMatchObject({ code: "ERR_INVALID_OPTION", option: "callbackUrl" })
    expect(page.requests).toEqual([])
  })

  it("email: the link is sent and the result is the verify-request page; a malformed address is Verification", async () => {
    const outbox: string[] = []
    const email: EmailConfig = { id: "email", name: "Email", type: "email", from: "auth@example.com", sendVerificationRequest: ({ url }) => void outbox.push(url) }
    const { client } = clientApp({ providers: [email], adapter: memoryAdapter() })
    const sent = await client.signIn("email", { email: "Ada@Example.com", redirectTo: "/inbox", redirect: false })
    expect(sent).toMatchObject({ ok: true, error: undefined, url: `${APP}/auth/verify-request?provider=email&type=email` })
    expect(outbox).toHaveLength(1)
    expect(new URL(outbox[0]!).searchParams.get("email")).toBe("ada@example.com")
    const malformed = await client.signIn("email", { email: "ada@", redirect: false })
    expect(malformed).toMatchObject({ ok: false, error: "Verification", url: null })
    expect(outbox).toHaveLength(1)
  })

  it("no MissingCSRF after the CSRF cookie is gone: the token is read again once and the POST sent again", async () => {
    const { client, page, dispatch } = clientApp({ providers: [credentials()] })
    expect(await client.getCsrfToken()).toMatch(/^[\w-]{43}$/)
    page.browser = freshBrowser(dispatch) // the cookie the kept token belongs to is gone
    page.requests.length = 0
    const result = await client.signIn("credentials", { username: "ada", password: "right", redirect: false })
    expect(result.ok).toBe(true)
    expect(page.requests.slice(0, 3)).toEqual([
      { method: "POST", path: "/auth/signin/credentials" },
      { method: "GET", path: "/auth/csrf" },
      { method: "POST", path: "/auth/signin/credentials" },
    ])
  })

  it("update() after the CSRF cookie expired: the session route's MissingCSRF is retried once too", async () => {
    // A session bound to its browser ends with the CSRF cookie it is bound to; one shared across
    // subdomains (whose binding is not checked on reads) lives on, and its update needs a new token.
    const { client, page } = clientApp({ providers: [credentials()], callbacks, session: { sharedAcrossSubdomains: true } })
    await client.signIn("credentials", { username: "ada", password: "right", redirect: false })
    page.browser.acceptCookies(APP, ["authjs.csrf-token=; Path=/; Max-Age=0"]) // only the CSRF cookie is gone
    page.requests.length = 0
    expect(await client.update({ theme: "dark" })).toMatchObject({ user: { name: "Ada" }, theme: "dark" })
    expect(page.requests).toEqual([
      { method: "POST", path: "/auth/session" },
      { method: "GET", path: "/auth/csrf" },
      { method: "POST", path: "/auth/session" },
    ])
  })

  it("a CSRF refusal that persists is answered after one retry, as MissingCSRF", async () => {
    const { client, page, dispatch } = clientApp({ providers: [credentials()] })
    // A browser that keeps no cookie at all: every token is refused.
    const forgetful: typeof fetch = async (input, init) => (await freshBrowser(dispatch).open(String(input), init)).response
    page.browser = { open: async (url: URL | string, init?: RequestInit) => ({ response: await forgetful(String(url), init), url: new URL(String(url)) }) } as never
    page.requests.length = 0
    const result = await client.signOut({ redirect: false })
    expect(result).toMatchObject({ ok: false, error: "MissingCSRF", url: null })
    expect(page.requests.filter((request) => request.method === "POST")).toHaveLength(2)
  })

  it("update() re-reads through the jwt callback's update trigger, answers the new session and keeps it", async () => {
    const { client } = clientApp({ providers: [credentials()], callbacks })
    await client.signIn("credentials", { username: "ada", password: "right", redirect: false })
    const updated = await client.update({ theme: "dark" })
    expect(updated).toMatchObject({ user: { name: "Ada" }, theme: "dark" })
    expect(client.getState().data).toMatchObject({ theme: "dark" })
    // The cookie was rewritten: a fresh read sees it too.
    expect(await client.getSession()).toMatchObject({ theme: "dark" })
  })

  it("update() with database sessions re-reads the row (a changed user shows at once)", async () => {
    const adapter = memoryAdapter()
    const { client } = clientApp({ providers: [credentials()], adapter, session: { strategy: "database" } })
    await client.signIn("credentials", { username: "ada", password: "right", redirect: false })
    expect(client.getState().data?.user?.name).toBe("Ada")
    await adapter.updateUser!({ id: "u-ada", name: "Ada Lovelace" })
    expect(await client.update()).toMatchObject({ user: { name: "Ada Lovelace" } })
    expect(client.getState().data?.user?.name).toBe("Ada Lovelace")
  })

  it("getSession calls made together share one request", async () => {
    const { client, page } = clientApp({ providers: [credentials()] })
    const [first, second, third] = [client.getSession(), client.getSession(), client.getSession()]
    expect(second).toBe(first)
    expect(third).toBe(first)
    await first
    expect(page.requests.filter((request) => request.path === "/auth/session")).toHaveLength(1)
    await client.getSession()
    expect(page.requests.filter((request) => request.path === "/auth/session")).toHaveLength(2)
  })

  it("a read that started before a sign-out never brings the session back", async () => {
    const { client, pageFetch } = clientApp({ providers: [credentials()] })
    await client.signIn("credentials", { username: "ada", password: "right", redirect: false })
    // Hold the next session read's answer until the sign-out is done.
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const heldFetch: typeof fetch = async (input, init) => {
      const response = await pageFetch(input, init)
      if (new URL(String(input)).pathname === "/auth/session" && (init?.method ?? "GET") === "GET") await held
      return response
    }
    const racing = createAuthClient({ baseUrl: APP, fetch: heldFetch, broadcast: false })
    const read = racing.getSession()
    expect(await racing.signOut({ redirect: false })).toMatchObject({ ok: true })
    release()
    expect(await read).toMatchObject({ user: { name: "Ada" } }) // what that read saw...
    expect(racing.getState()).toEqual({ data: null, status: "unauthenticated" }) // ...is not what the state became
  })

  it("network failures are values with stable codes, and the known session is kept", async () => {
    let offline = false
    const { pageFetch } = clientApp({ providers: [credentials()] })
    const flaky = createAuthClient({ baseUrl: APP, broadcast: false, fetch: (input, init) => (offline ? Promise.reject(new TypeError("Failed to fetch")) : pageFetch(input, init)) })
    await flaky.signIn("credentials", { username: "ada", password: "right", redirect: false })
    offline = true
    expect(await flaky.signIn("credentials", { username: "ada", password: "right", redirect: false })).toEqual({ ok: false, error: "NetworkError", code: undefined, url: null, status: 0 })
    expect(await flaky.signOut({ redirect: false })).toEqual({ ok: false, error: "NetworkError", url: null, status: 0 })
    expect(await flaky.getSession()).toMatchObject({ user: { name: "Ada" } })
    expect(await flaky.update({ theme: "x" })).toMatchObject({ user: { name: "Ada" } })
    expect(await flaky.getProviders()).toBeNull()
    expect(flaky.getState().status).toBe("authenticated")
  })

  it("an answer that is not the handler's JSON is InvalidResponse", async () => {
    const html: typeof fetch = async () => new Response("<!doctype html><p>app page</p>", { headers: { "content-type": "text/html" } })
    const client = createAuthClient({ baseUrl: APP, broadcast: false, fetch: html })
    expect(await client.signIn("credentials", { redirect: false })).toMatchObject({ ok: false, error: "InvalidResponse" })
    expect(await client.getSession()).toBeNull()
    expect(client.getState().status).toBe("loading") // still unknown: the page was not the handler
  })

  it("signOut with redirect: false is signed out at once, and the cookie is gone", async () => {
    const { client, page } = clientApp({ providers: [credentials()] })
    await client.signIn("credentials", { username: "ada", password: "right", redirect: false })
    page.requests.length = 0
    expect(await client.signOut({ redirectTo: "/bye", redirect: false })).toEqual({ ok: true, error: undefined, url: `${APP}/bye`, status: 200 })
    expect(client.getState()).toEqual({ data: null, status: "unauthenticated" })
    expect(page.requests.map((request) => request.path)).toEqual(["/auth/signout"])
    expect(await client.getSession()).toBeNull()
  })

  it("an unknown provider is UnknownProvider; signIn() with none is the sign-in page", async () => {
    const { client } = clientApp({ providers: [credentials()] })
    expect(await client.signIn("nope", { redirect: false })).toMatchObject({ ok: false, error: "UnknownProvider", status: 404 })
    expect(await client.signIn(undefined, { redirectTo: "/here", redirect: false })).toMatchObject({ ok: true, url: `${APP}/auth/signin?callbackUrl=%2Fhere` })
  })

  it("getProviders answers them keyed by id, as Auth.js's client does", async () => {
    const { client } = clientApp({ providers: [credentials()], basePath: "/api/auth" }, { basePath: "/api/auth/" })
    expect(await client.getProviders()).toEqual({
      credentials: { id: "credentials", name: "Credentials", type: "credentials", signinUrl: `${APP}/api/auth/signin/credentials`, callbackUrl: `${APP}/api/auth/callback/credentials` },
    })
  })

  it("the session the server rendered is the first state, and nothing is read for it", async () => {
    const rendered = { user: { name: "Ada" }, expires: "2099-01-01T00:00:00.000Z" }
    const { page } = clientApp({ providers: [credentials()] })
    const client = createAuthClient({ baseUrl: APP, broadcast: false, session: rendered, fetch: () => Promise.reject(new Error("no request expected")) })
    expect(client.getState()).toEqual({ data: rendered, status: "authenticated" })
    const stop = client.subscribe(() => undefined)
    stop()
    expect(createAuthClient({ session: null }).getState()).toEqual({ data: null, status: "unauthenticated" })
    expect(page.requests).toEqual([])
  })

  it("another client in the page learns of a sign-in and a sign-out (the in-page signal)", async () => {
    const { pageFetch } = clientApp({ providers: [credentials()] })
    // Two clients of one app in one page, on the same channel (their baseUrl and basePath).
    const acting = createAuthClient({ baseUrl: APP, fetch: pageFetch })
    const watching = createAuthClient({ baseUrl: APP, fetch: pageFetch, refetchOnWindowFocus: false })
    await stateWhere(watching, (state) => state.status === "unauthenticated")
    const signedIn = stateWhere(watching, (state) => state.status === "authenticated")
    const stop = watching.subscribe(() => undefined) // keep listening between the two waits
    await acting.signIn("credentials", { username: "ada", password: "right", redirect: false })
    expect((await signedIn).data?.user?.name).toBe("Ada")
    const signedOut = stateWhere(watching, (state) => state.status === "unauthenticated")
    await acting.signOut({ redirect: false })
    expect((await signedOut).data).toBeNull()
    stop()
  })

  it("a page that lands signed in after a sign-in no client made (an OAuth sign-in through a server action) tells the other tabs", async () => {
    vi.stubGlobal("localStorage", memoryStorage())
    try {
      const { pageFetch, page, auth } = clientApp({ providers: [credentials()] })
      // Another tab, rendered signed out by the server, as the first page of this browser.
      const watching = createAuthClient({ baseUrl: APP, fetch: pageFetch, refetchOnWindowFocus: false, session: null })
      const stop = watching.subscribe(() => undefined)
      // The sign-in goes past every client (a form post, as a server action's), and a new page loads.
      await postForm(page.browser, "/auth/signin/credentials", { csrfToken: await csrf(page.browser), username: "ada", password: "right" })
      const cookie = [...page.browser.cookies(APP)].map(([name, value]) => `${name}=${value}`).join("; ")
      const rendered = await auth(new Request(`${APP}/`, { headers: { cookie } }))
      const signedIn = stateWhere(watching, (state) => state.status === "authenticated")
      const landed = createAuthClient({ baseUrl: APP, fetch: pageFetch, refetchOnWindowFocus: false, session: rendered })
      const stopLanded = landed.subscribe(() => undefined)
      expect((await signedIn).data?.user?.name).toBe("Ada")
      // Another page of the same user is no news: nobody reads again.
      page.requests.length = 0
      const stopNext = createAuthClient({ baseUrl: APP, fetch: pageFetch, refetchOnWindowFocus: false, session: rendered }).subscribe(() => undefined)
      await new Promise((resolve) => setTimeout(resolve, 0))
      expect(page.requests).toEqual([])
      stopNext()
      stopLanded()
      stop()
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it("a forged message on the channel only makes clients read again: it cannot set a session", async () => {
    const { pageFetch, page } = clientApp({ providers: [credentials()] })
    const watching = createAuthClient({ baseUrl: APP, fetch: pageFetch, refetchOnWindowFocus: false })
    await stateWhere(watching, (state) => state.status === "unauthenticated")
    const stop = watching.subscribe(() => undefined)
    page.requests.length = 0
    // Any script of the origin can post on the channel; a message carries no session that is believed.
    const name = `latchkey:${APP}/auth`
    // Made after the client's channel, so it is handed each message after the client was.
    const observer = new BroadcastChannel(name)
    const delivered = new Promise<void>((resolve) => {
      let seen = 0
      observer.onmessage = () => ++seen === 5 && resolve()
    })
    const forger = new BroadcastChannel(name)
    forger.postMessage({ latchkey: "session", trigger: "nonsense" })
    forger.postMessage("signin")
    // A trigger without latchkey's mark, or with another library's (broadcast.ts:triggerOf): not latchkey's to read.
    forger.postMessage({ trigger: "signin" })
    forger.postMessage({ latchkey: "other-library", trigger: "signout" })
    forger.postMessage({ latchkey: "session", trigger: "signin", data: { user: { name: "Mallory" }, expires: "2099-01-01T00:00:00.000Z" } })
    await delivered
    forger.close()
    observer.close()
    expect(page.requests).toEqual([{ method: "GET", path: "/auth/session" }]) // the four that are not latchkey's read nothing
    await watching.getSession()
    expect(watching.getState()).toEqual({ data: null, status: "unauthenticated" })
    stop()
  })

  it("refetchInterval reads again while signed in, and not while signed out", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] })
    try {
      const { pageFetch, page } = clientApp({ providers: [credentials()] })
      const polling = createAuthClient({ baseUrl: APP, fetch: pageFetch, broadcast: false, refetchOnWindowFocus: false, refetchInterval: 60 })
      const stop = polling.subscribe(() => undefined)
      await polling.getSession()
      const reads = () => page.requests.filter((request) => request.path === "/auth/session" && request.method === "GET").length
      const before = reads()
      vi.advanceTimersByTime(60_000)
      expect(reads()).toBe(before) // signed out: nothing to keep fresh
      await polling.signIn("credentials", { username: "ada", password: "right", redirect: false })
      const signedIn = reads()
      vi.advanceTimersByTime(59_000)
      expect(reads()).toBe(signedIn)
      vi.advanceTimersByTime(1_000)
      expect(reads()).toBe(signedIn + 1)
      stop()
      vi.advanceTimersByTime(120_000)
      expect(reads()).toBe(signedIn + 1) // no listener, no timer
    } finally {
      vi.useRealTimers()
    }
  })

  it("setSession takes a server-rendered session; only a change of user is told to the others", async () => {
    const { pageFetch, page } = clientApp({ providers: [credentials()] })
    const ada = { user: { name: "Ada" }, expires: "2099-01-01T00:00:00.000Z" }
    const first = createAuthClient({ baseUrl: APP, fetch: pageFetch, session: ada })
    const other = createAuthClient({ baseUrl: APP, fetch: pageFetch, session: ada, refetchOnWindowFocus: false })
    const stop = other.subscribe(() => undefined)
    first.setSession({ ...ada, expires: "2099-02-01T00:00:00.000Z" }) // a slid expiry: not news
    expect(page.requests).toEqual([])
    first.setSession(null) // signed out by a server action: the other clients read again
    expect(first.getState()).toEqual({ data: null, status: "unauthenticated" })
    await stateWhere(other, (state) => state.status === "unauthenticated")
    expect(page.requests).toEqual([{ method: "GET", path: "/auth/session" }])
    stop()
  })

  it("the top-level functions are bound to /auth, and fetch is looked up when called", async () => {
    const seen: string[] = []
    vi.stubGlobal("fetch", async (input: RequestInfo | URL) => (seen.push(String(input)), Response.json({ user: { name: "Ada" }, expires: "2099-01-01T00:00:00.000Z" })))
    try {
      expect(await defaultGetSession()).toMatchObject({ user: { name: "Ada" } })
      expect(seen).toEqual(["/auth/session"])
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it("options that cannot work are refused by name", () => {
    expect(() => createAuthClient({ basePath: "auth" })).toThrow(InvalidOptionError)
    expect(() => createAuthClient({ baseUrl: "https://app.example.com/path" })).toThrow(expect.objectContaining({ code: "ERR_INVALID_OPTION", option: "baseUrl" }))
    expect(() => createAuthClient({ refetchInterval: -1 })).toThrow(expect.objectContaining({ option: "refetchInterval" }))
  })
})

// Issue "Round three", item 16: the guide kept next-auth's /api/auth, the provider defaulted to
// /auth, and every focus asked GET /auth/session, got 404 and kept the stale session in silence.
describe("a client whose basePath is not where the handler is mounted", () => {
  /** A signed-in page of an app that mounted the handler at /api/auth only: other paths are the framework's 404 page. */
  const signedInApp = async (options: Parameters<typeof createAuthClient>[0]) => {
    const site = clientApp({ providers: [credentials()], basePath: "/api/auth" })
    const frameworkFetch: typeof fetch = async (input, init) =>
      new URL(String(input)).pathname.startsWith("/api/auth/") ? site.pageFetch(input, init) : new Response("<h1>404</h1>", { status: 404, headers: { "content-type": "text/html" } })
    const client = (basePath?: string) => createAuthClient({ baseUrl: APP, fetch: frameworkFetch, broadcast: false, basePath, ...options })
    expect((await client("/api/auth").signIn("credentials", { username: "ada", password: "right", redirect: false })).ok).toBe(true)
    return { client: client(options?.basePath), page: site.page }
  }

  it("the session route's 404 is a SessionRouteNotFoundError, reported once, that names the fix", async () => {
    const errors: unknown[] = []
    const { client } = await signedInApp({ onError: (error) => errors.push(error) })
    await client.getSession()
    await client.getSession()
    await client.update({ name: "Grace" })
    expect(errors).toHaveLength(1)
    expect(errors[0]).toBeInstanceOf(SessionRouteNotFoundError)
    expect(errors[0]).toMatchObject({ code: "ERR_SESSION_ROUTE_NOT_FOUND", url: `${APP}/auth/session` })
    expect((errors[0] as Error).message).toContain('basePath "/auth"')
    expect((errors[0] as Error).message).toContain("/api/auth")
  })

  it("without onError it goes to console.error, once", async () => {
    const printed = vi.spyOn(console, "error").mockImplementation(() => undefined)
    try {
      const { client } = await signedInApp({})
      await client.getSession()
      await client.getSession()
      expect(printed).toHaveBeenCalledTimes(1)
      expect(printed.mock.calls[0]![0]).toBeInstanceOf(SessionRouteNotFoundError)
    } finally {
      printed.mockRestore()
    }
  })

  it("with the basePath the guide gives, the same signed-in page reads its session and reports nothing", async () => {
    const errors: unknown[] = []
    const { client } = await signedInApp({ basePath: "/api/auth", onError: (error) => errors.push(error) })
    expect((await client.getSession())?.user.name).toBe("Ada")
    expect(errors).toEqual([])
  })
})
