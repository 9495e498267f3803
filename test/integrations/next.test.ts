// latchkey/next without a build: the server-action signIn/signOut run against a real handler with
// Next's own cookie classes (the RequestCookies/ResponseCookies pair Next's cookies() is built from,
// through the adapter Next uses in server actions), and the proxy decides from real sealed cookies:
// a JWT, and a database session's cache copy made by a real sign-in at a real OpenID provider.
// The built app (examples/next-app in Chromium) is test/e2e/next-app.test.ts.
import { RequestCookies } from "next/dist/compiled/@edge-runtime/cookies/index.js"
import { MutableRequestCookiesAdapter } from "next/dist/server/web/spec-extension/adapters/request-cookies.js"
import { afterEach, describe, expect, it, vi } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import { decode } from "../../src/jwt/decode.js"
import { serverActions } from "../../src/integrations/next/actions.js"
import { Latchkey } from "../../src/integrations/next/index.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import GitHub from "../../src/providers/github.js"
import { corpProvider, csrfOf, jarOf, ORIGIN, post, secureApp, sessionOf } from "../security/support.js"

const SECRET = "latchkey-next-test-secret-0123456789abcdef"
const APP = "https://app.example.com"

const users = Credentials({
  credentials: { username: {}, password: {} },
  authorize: ({ username, password }) => (username === "ada" && password === "lovelace" ? { id: "ada-1", name: "Ada Lovelace", email: "ada@example.com" } : null),
})
const github = { id: "github", name: "GitHub", type: "oauth" as const, clientId: "id", clientSecret: "secret", authorization: "https://github.example/login/oauth/authorize", token: "https://github.example/token", userinfo: "https://github.example/user" }

const config = { providers: [users, github], secret: SECRET, env: { AUTH_URL: APP } }

/**
 * One server-action request as Next runs it: the browser's headers, and cookies() as Next builds
 * it for actions (the request's cookies, wrapped so that writes are kept and read back).
 */
function actionScope(cookie = "", extra: Record<string, string> = {}) {
  const headers = new Headers({ host: "app.example.com", "x-forwarded-proto": "https", origin: APP, referer: `${APP}/account?tab=1`, ...extra })
  if (cookie) headers.set("cookie", cookie)
  let written: string[] = []
  const store = MutableRequestCookiesAdapter.wrap(new RequestCookies(headers), (cookies) => (written = cookies))
  return { io: { headers: async () => headers, cookies: async () => store }, store, written: () => written }
}

/** The `cookie` header a browser would send after the action: every cookie the store holds with a value. */
function cookieHeaderOf(store: { getAll(): { name: string; value: string }[] }): string {
  return store.getAll().filter(({ value }) => value !== "").map(({ name, value }) => `${name}=${encodeURIComponent(value)}`).join("; ")
}

async function signInAsAda(instance = createAuth(config)) {
  const scope = actionScope()
  const { signIn } = serverActions(instance, { basePath: instance.basePath }, scope.io)
  const result = await signIn("credentials", { username: "ada", password: "lovelace", redirectTo: "/dashboard" })
  return { instance, scope, result }
}

describe("latchkey/next server actions", () => {
  it("signIn with credentials answers the destination as a value and writes the session through Next's cookie store", async () => {
    const { instance, scope, result } = await signInAsAda()
    expect(result).toEqual({ ok: true, url: `${APP}/dashboard`, error: undefined, code: undefined })
    expect(scope.written().some((cookie) => cookie.startsWith("__Secure-authjs.session-token="))).toBe(true)
    // What the browser then sends reads back as Ada, through auth(request).
    const session = await instance.auth(new Request(`${APP}/dashboard`, { headers: { cookie: cookieHeaderOf(scope.store) } }))
    expect(session?.user).toEqual({ id: "ada-1", name: "Ada Lovelace", email: "ada@example.com", image: null })
  })

  it("a CSRF cookie's value survives the round trip through Next's store (its `|` is encoded once)", async () => {
    const { scope } = await signInAsAda()
    const csrf = scope.written().find((cookie) => cookie.startsWith("__Host-authjs.csrf-token="))
    expect(csrf).toMatch(/^__Host-authjs\.csrf-token=[\w-]+%7C[0-9a-f]{64};/)
  })

  it("a refused credentials sign-in is { ok: false } with the code, and writes no session", async () => {
    const scope = actionScope()
    const instance = createAuth(config)
    const { signIn } = serverActions(instance, { basePath: instance.basePath }, scope.io)
    const result = await signIn("credentials", { username: "ada", password: "wrong" })
    expect(result).toMatchObject({ ok: false, error: "CredentialsSignin", code: "credentials" })
    expect(result.url).toMatch(new RegExp(`^${APP}/auth/signin\\?`))
    expect(scope.written().some((cookie) => cookie.includes("session-token"))).toBe(false)
  })

  it("signIn with an OAuth provider answers its authorization URL and writes the check cookies, without throwing", async () => {
    const scope = actionScope()
    const instance = createAuth(config)
    const { signIn } = serverActions(instance, { basePath: instance.basePath }, scope.io)
    let caught: unknown
    let result
    try {
      result = await signIn("github")
    } catch (error) {
      caught = error
    }
    expect(caught).toBeUndefined()
    expect(result!.ok).toBe(true)
    const url = new URL(result!.url!)
    expect(url.origin + url.pathname).toBe("https://github.example/login/oauth/authorize")
    expect(url.searchParams.get("redirect_uri")).toBe(`${APP}/auth/callback/github`)
    const names = scope.written().map((cookie) => cookie.slice(0, cookie.indexOf("=")))
    expect(names).toEqual(expect.arrayContaining(["__Host-authjs.pkce.code_verifier", "__Secure-latchkey.callback-url"]))
    // No redirectTo: back to the page the action was called from (its Referer).
    const callback = scope.written().find((cookie) => cookie.startsWith("__Secure-latchkey.callback-url="))!
    const sealed = decodeURIComponent(callback.split(";")[0]!.split("=")[1]!)
    await expect(decode({ token: sealed, secret: SECRET, salt: "__Secure-latchkey.callback-url" })).resolves.toMatchObject({ url: `${APP}/account?tab=1` })
  })

  it("redirectTo off the app's origin is not followed: the sign-in lands on the app", async () => {
    const scope = actionScope()
    const instance = createAuth(config)
    const { signIn } = serverActions(instance, { basePath: instance.basePath }, scope.io)
    const result = await signIn("credentials", { username: "ada", password: "lovelace", redirectTo: "https://evil.example/steal" })
    expect(result).toMatchObject({ ok: true, url: `${APP}/` })
  })

  it("redirectTo is the one name: a callbackUrl option is refused by name, and a submitted callbackUrl field is not a destination", async () => {
    const scope = actionScope()
    const instance = createAuth(config)
    const { signIn, signOut } = serverActions(instance, { basePath: instance.basePath }, scope.io)
    const leftover = { callbackUrl: "/dashboard" } as never
    await expect(signIn("credentials", { username: "ada", password: "lovelace", ...(leftover as object) })).rejects.toMatchObject({ code: "ERR_INVALID_OPTION", option: "callbackUrl", message: expect.stringContaining("redirectTo") })
    await expect(signOut(leftover)).rejects.toMatchObject({ code: "ERR_INVALID_OPTION", option: "callbackUrl" })
    expect(scope.written()).toEqual([])
    // A form posted straight to the action, from no known page: only redirectTo decides, and it is not there.
    const posted = serverActions(instance, { basePath: instance.basePath }, actionScope("", { referer: "" }).io)
    const form = new FormData()
    for (const [name, value] of Object.entries({ username: "ada", password: "lovelace", callbackUrl: "/elsewhere" })) form.set(name, value)
    expect(await posted.signIn("credentials", form)).toMatchObject({ ok: true, url: `${APP}/` })
  })

  it("an unknown provider is { ok: false, error: 'UnknownProvider' }", async () => {
    const scope = actionScope()
    const instance = createAuth(config)
    const { signIn } = serverActions(instance, { basePath: instance.basePath }, scope.io)
    await expect(signIn("nope")).resolves.toEqual({ ok: false, url: null, error: "UnknownProvider", code: undefined })
  })

  it("signOut clears the session through the store and answers where to land", async () => {
    const { instance, scope } = await signInAsAda()
    const after = actionScope(cookieHeaderOf(scope.store))
    const { signOut } = serverActions(instance, { basePath: instance.basePath }, after.io)
    await expect(signOut({ redirectTo: "/goodbye" })).resolves.toEqual({ ok: true, url: `${APP}/goodbye`, error: undefined, code: undefined })
    const cleared = after.written().find((cookie) => cookie.startsWith("__Secure-authjs.session-token="))
    expect(cleared).toMatch(/^__Secure-authjs\.session-token=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/)
    await expect(instance.auth(new Request(`${APP}/`, { headers: { cookie: cookieHeaderOf(after.store) } }))).resolves.toBeNull()
  })

  it("a browser's X-Auth-Return-Redirect header is not passed on, so the handler's answer stays a redirect", async () => {
    const scope = actionScope("", { "x-auth-return-redirect": "1" })
    const instance = createAuth(config)
    const { signIn } = serverActions(instance, { basePath: instance.basePath }, scope.io)
    await expect(signIn("credentials", { username: "ada", password: "lovelace", redirectTo: "/dashboard" })).resolves.toMatchObject({ ok: true, url: `${APP}/dashboard` })
  })

  it("the public handler keeps its CSRF check: a cross-site form post without the token signs no one in", async () => {
    const instance = createAuth(config)
    const response = await instance.handler(
      new Request(`${APP}/auth/signin/credentials`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" }, body: "username=ada&password=lovelace" })
    )
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${APP}/auth/signin?error=MissingCSRF`)
    expect(response.headers.getSetCookie().some((cookie) => cookie.includes("session-token"))).toBe(false)
  })
})

describe("Latchkey(config)", () => {
  it("has Auth.js v5's shape: handlers { GET, POST }, auth, signIn, signOut, and the proxy", async () => {
    const { handlers, auth, signIn, signOut, proxy, basePath } = Latchkey(config)
    expect(basePath).toBe("/auth")
    const providers = await (await handlers.GET(new Request(`${APP}/auth/providers`))).json()
    expect(Object.keys(providers)).toEqual(["credentials", "github"])
    expect(handlers.POST).toBe(handlers.GET)
    await expect(auth(new Request(`${APP}/`))).resolves.toBeNull()
    expect([typeof signIn, typeof signOut, typeof proxy]).toEqual(["function", "function", "function"])
  })
})

describe("Latchkey(config) while `next build` runs (NEXT_PHASE=phase-production-build)", () => {
  afterEach(() => void vi.unstubAllEnvs())
  // auth.ts as the docs write it, in a CI or Docker build that gets AUTH_SECRET and AUTH_GITHUB_ID only at run time.
  const withoutSecrets = () => Latchkey({ providers: [GitHub], env: {} })
  const oidcWithoutIssuer = () => Latchkey({ providers: [{ id: "corp", name: "Corp", type: "oidc", issuer: undefined as unknown as string, clientId: "id", clientSecret: "s" }], secret: SECRET, env: {} })

  it("loads auth.ts and proxy.ts without the secrets, and the first use at run time still fails loudly", async () => {
    vi.stubEnv("NEXT_PHASE", "phase-production-build")
    const { handlers, auth, proxy } = withoutSecrets()
    const gate = proxy({ authorized: ({ auth }) => auth !== null })
    expect(() => oidcWithoutIssuer()).not.toThrow()
    await expect(auth(new Request(`${APP}/`))).rejects.toMatchObject({ code: "ERR_MISSING_SECRET" })
    await expect(handlers.GET(new Request(`${APP}/auth/session`))).rejects.toMatchObject({ code: "ERR_MISSING_SECRET" })
    await expect(gate(new Request(`${APP}/protected`))).rejects.toMatchObject({ code: "ERR_MISSING_SECRET" })
  })

  it("at run time the same mistakes throw as auth.ts loads", () => {
    expect(() => withoutSecrets()).toThrow(expect.objectContaining({ code: "ERR_MISSING_SECRET" }))
    expect(() => oidcWithoutIssuer()).toThrow()
    vi.stubEnv("NEXT_PHASE", "phase-production-server")
    expect(() => withoutSecrets()).toThrow(expect.objectContaining({ code: "ERR_MISSING_SECRET" }))
  })
})

describe("latchkey/next proxy", () => {
  const refuse = (location: string | null) => expect(location).toBe(`${APP}/auth/signin?callbackUrl=%2Fprotected%3Fx%3D1`)

  it("lets a signed-in request through from its JWT cookie alone, and sends a signed-out one to sign in", async () => {
    const { instance, scope } = await signInAsAda()
    const proxy = Latchkey(config).proxy()
    const signedIn = new Request(`${APP}/protected?x=1`, { headers: { cookie: cookieHeaderOf(scope.store) } })
    await expect(proxy(signedIn)).resolves.toBeUndefined()
    const answer = await proxy(new Request(`${APP}/protected?x=1`))
    expect(answer?.status).toBe(307)
    refuse(answer!.headers.get("location"))
    expect(instance.basePath).toBe("/auth")
  })

  it("a tampered session cookie is refused", async () => {
    const { scope } = await signInAsAda()
    const cookie = cookieHeaderOf(scope.store).replace(/(__Secure-authjs\.session-token=[^;]*?)(.)(;|$)/, (_, head, last, tail) => `${head}${last === "A" ? "B" : "A"}${tail}`)
    const answer = await Latchkey(config).proxy()(new Request(`${APP}/protected?x=1`, { headers: { cookie } }))
    refuse(answer!.headers.get("location"))
  })

  it("authorized sees the session, may answer its own Response, and a callback that answers nothing refuses", async () => {
    const { scope } = await signInAsAda()
    const cookie = cookieHeaderOf(scope.store)
    const seen: unknown[] = []
    const forbidden = Latchkey(config).proxy({ authorized: ({ auth }) => (seen.push(auth?.user?.email), new Response("admins only", { status: 403 })) })
    const answer = await forbidden(new Request(`${APP}/admin`, { headers: { cookie } }))
    expect([answer?.status, seen]).toEqual([403, ["ada@example.com"]])
    const forgetful = Latchkey(config).proxy({ authorized: (() => undefined) as never })
    refuse((await forgetful(new Request(`${APP}/protected?x=1`, { headers: { cookie } })))!.headers.get("location"))
  })

  it("requests under basePath always go through (the sign-in page must stay reachable)", async () => {
    const proxy = Latchkey(config).proxy({ authorized: () => false })
    await expect(proxy(new Request(`${APP}/auth/signin`))).resolves.toBeUndefined()
    await expect(proxy(new Request(`${APP}/auth/callback/github?code=x`))).resolves.toBeUndefined()
  })

  it("a request path that starts with // goes into callbackUrl as a path on this origin, never as another host", async () => {
    const proxy = Latchkey(config).proxy()
    for (const path of ["//evil.example.net/x?y=1", "///evil.example.net/x?y=1", "/\\evil.example.net/x?y=1"]) {
      const answer = await proxy(new Request(`${APP}${path}`))
      const callbackUrl = new URL(answer!.headers.get("location")!).searchParams.get("callbackUrl")!
      expect(callbackUrl).toBe("/evil.example.net/x?y=1")
      expect(new URL(callbackUrl, APP).origin).toBe(APP)
    }
  })

  it("sends refused visitors to pages.signIn when the app has its own sign-in page", async () => {
    const proxy = Latchkey({ ...config, pages: { signIn: "/login" } }).proxy()
    const answer = await proxy(new Request(`${APP}/protected?x=1`))
    expect(answer!.headers.get("location")).toBe(`${APP}/login?callbackUrl=%2Fprotected%3Fx%3D1`)
    await expect(proxy(new Request(`${APP}/login`))).resolves.toBeUndefined()
  })
})

describe("latchkey/next proxy with database sessions", () => {
  const ADA = { sub: "ada-sub", email: "ada@example.com", name: "Ada" }
  const idp = corpProvider([ADA])

  /** Signs Ada in at the real provider; answers the app, its adapter calls and the browser's cookie header. */
  async function databaseSignIn(cache: boolean, { readSession = true } = {}) {
    let reads = 0
    const base = memoryAdapter()
    const adapter = { ...base, getSessionAndUser: (token: string) => (reads++, base.getSessionAndUser(token)) }
    const options = { providers: [idp.provider()], adapter, secret: SECRET, ...(cache ? { session: { cache: { maxAge: 60 } } } : {}) }
    const site = secureApp(options)
    const browser = site.browser()
    idp.signInAs(ADA.sub)
    await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
    if (readSession) await sessionOf(browser)
    const cookie = Object.entries(jarOf(browser)).map(([name, value]) => `${name}=${value}`).join("; ")
    // The proxy's own instance, as proxy.ts builds it from the same config.
    const proxied = Latchkey({ ...options, env: { AUTH_URL: `${ORIGIN}/auth` } })
    return { proxied, cookie, reads: () => reads }
  }

  it("reads the session from its cache copy, with no adapter call", async () => {
    const { proxied, cookie, reads } = await databaseSignIn(true)
    expect(cookie).toContain("__Secure-latchkey.session-cache=")
    const before = reads()
    const seen: unknown[] = []
    const proxy = proxied.proxy({ authorized: ({ auth, unverified }) => (seen.push([auth?.user?.email, unverified]), auth !== null) })
    await expect(proxy(new Request(`${ORIGIN}/protected`, { headers: { cookie } }))).resolves.toBeUndefined()
    expect(seen).toEqual([["ada@example.com", false]])
    expect(reads()).toBe(before)
  })

  it("the cache copy is there from the sign-in itself: the first page after it passes with no adapter call", async () => {
    const { proxied, cookie, reads } = await databaseSignIn(true, { readSession: false })
    expect(cookie).toContain("__Secure-latchkey.session-cache=")
    const before = reads()
    const proxy = proxied.proxy({ authorized: ({ auth }) => auth?.user?.email === "ada@example.com" })
    await expect(proxy(new Request(`${ORIGIN}/protected`, { headers: { cookie } }))).resolves.toBeUndefined()
    expect(reads()).toBe(before)
  })

  it("without a cache copy, on Node.js it reads the database once, as useSession does, and hands the page a fresh copy", async () => {
    const { proxied, cookie, reads } = await databaseSignIn(false)
    const before = reads()
    const seen: unknown[] = []
    const strict = proxied.proxy({ authorized: ({ auth, unverified }) => (seen.push([auth?.user?.email, unverified]), auth !== null) })
    await expect(strict(new Request(`${ORIGIN}/protected`, { headers: { cookie } }))).resolves.toBeUndefined()
    expect(seen).toEqual([["ada@example.com", false]])
    expect(reads()).toBe(before + 1)
  })
})
