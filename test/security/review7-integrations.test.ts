// Review 7: latchkey/next and latchkey/sveltekit server-side API under attack. Next's own cookie
// classes stand in for cookies() (as test/integrations/next.test.ts does); SvelteKit's redirect and
// fail are mocked (the package is not installed here), so the form actions run end to end.
import { RequestCookies } from "next/dist/compiled/@edge-runtime/cookies/index.js"
import { MutableRequestCookiesAdapter } from "next/dist/server/web/spec-extension/adapters/request-cookies.js"
import { describe, expect, it, vi } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import { serverActions } from "../../src/integrations/next/actions.js"
import { Latchkey as NextLatchkey } from "../../src/integrations/next/index.js"
import { runAction } from "../../src/integrations/run-action.js"
import { eventActions, runPasswordForm, type KitActionEvent } from "../../src/integrations/sveltekit/actions.js"
import { Latchkey as KitLatchkey } from "../../src/integrations/sveltekit/index.js"
import { passwordsWith } from "../../src/passwords/index.js"
import Credentials from "../../src/providers/credentials.js"
import Password, { type PasswordEmail } from "../../src/providers/password.js"
import { rateLimits } from "../../src/rate-limits/plug-in.js"
import { CHEAP } from "../passwords/support.js"

vi.mock("@sveltejs/kit", () => ({
  redirect: (status: number, location: string, options?: { external: string[] }) => {
    throw { kind: "redirect", status, location, external: options?.external ?? [] }
  },
  fail: (status: number, data: unknown) => ({ status, data }),
}))

/** What next/headers answers for the request under test (set per test). */
const nextRequest = vi.hoisted(() => ({ headers: new Headers() }))
vi.mock("next/headers.js", async () => {
  const { RequestCookies } = await import("next/dist/compiled/@edge-runtime/cookies/index.js")
  return { headers: async () => nextRequest.headers, cookies: async () => new RequestCookies(nextRequest.headers) }
})
vi.mock("next/server.js", () => ({ connection: async () => undefined }))

const APP = "https://app.example.com"
const SECRET = "latchkey-review7-integrations-secret-0123456789"
const GOOD = "correct horse battery staple"

const users = Credentials({
  credentials: { username: {}, password: {}, bio: {} },
  authorize: ({ username, password, bio }) => (username === "ada" && password === "lovelace" ? { id: "ada-1", name: typeof bio === "string" && bio ? bio : "Ada", email: "ada@example.com" } : null),
})
const base = { providers: [users], secret: SECRET, env: { AUTH_URL: APP } } satisfies AuthConfig

const OPEN_REDIRECTS = ["//evil.example/x", "/\\evil.example/x", "\\\\evil.example/x", "https:evil.example/x", "/\t/evil.example/x", "https://evil.example/x", "http://app.example.com/x", "https://app.example.com.evil.example/", "https://app.example.com@evil.example/", "javascript:alert(1)", "%2F%2Fevil.example", "/%5Cevil.example"]

/** One server-action request as Next builds it (the same construction as test/integrations/next.test.ts). */
function nextScope(cookie = "", extra: Record<string, string> = {}) {
  const headers = new Headers({ host: "app.example.com", "x-forwarded-proto": "https", origin: APP, referer: `${APP}/account`, ...extra })
  if (cookie) headers.set("cookie", cookie)
  let written: string[] = []
  const store = MutableRequestCookiesAdapter.wrap(new RequestCookies(headers), (cookies) => (written = cookies))
  return { io: { headers: async () => headers, cookies: async () => store }, store, written: () => written }
}
const headerOf = (store: { getAll(): { name: string; value: string }[] }) =>
  store.getAll().filter(({ value }) => value !== "").map(({ name, value }) => `${name}=${encodeURIComponent(value)}`).join("; ")
const actionsFor = (auth: ReturnType<typeof createAuth>, scope: ReturnType<typeof nextScope>) => serverActions(auth, { basePath: auth.basePath }, scope.io)

/** Where a URL lands: on the app, or somewhere else. */
const onApp = (url: string | null | undefined) => url !== null && url !== undefined && new URL(url).origin === APP && new URL(url).protocol === "https:"

/** SvelteKit's cookie store as the form actions use it. */
function kitStore(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial))
  const sets: { name: string; value: string; options: Record<string, unknown> }[] = []
  return {
    sets,
    cookies: {
      getAll: () => [...values].map(([name, value]) => ({ name, value })),
      set(name: string, value: string, options: { path: string } & Record<string, unknown>) {
        sets.push({ name, value, options })
        values.set(name, value)
      },
    },
  }
}
function kitEvent(fields: Record<string, string>, store = kitStore(), path = "/login"): KitActionEvent {
  const body = new URLSearchParams(fields)
  return { request: new Request(`${APP}${path}`, { method: "POST", headers: { origin: APP, referer: `${APP}${path}`, "content-type": "application/x-www-form-urlencoded" }, body }), url: new URL(`${APP}${path}`), cookies: store.cookies }
}
async function thrownRedirect(promise: Promise<unknown>): Promise<{ location: string; external: string[] }> {
  try {
    await promise
  } catch (error) {
    if ((error as { kind?: string }).kind === "redirect") return error as { location: string; external: string[] }
    throw error
  }
  throw new Error("the action did not redirect")
}

describe("latchkey/next server actions: open redirects", () => {
  it.each(OPEN_REDIRECTS)("signIn({ redirectTo: %j }) cannot send the signed-in user off the app", async (target) => {
    const auth = createAuth(base)
    const result = await actionsFor(auth, nextScope()).signIn("credentials", { username: "ada", password: "lovelace", redirectTo: target })
    expect(result.ok).toBe(true)
    expect(onApp(result.url)).toBe(true)
  })

  it.each(OPEN_REDIRECTS)("signOut({ redirectTo: %j }) cannot send the signed-out user off the app", async (target) => {
    const auth = createAuth(base)
    const result = await actionsFor(auth, nextScope()).signOut({ redirectTo: target })
    expect(onApp(result.url)).toBe(true)
  })

  it("an attacker's FormData with redirectTo off-site and a smuggled callbackUrl lands on the app, not at either", async () => {
    const auth = createAuth(base)
    const form = new FormData()
    for (const [name, value] of Object.entries({ username: "ada", password: "lovelace", redirectTo: "//evil.example", callbackUrl: "https://evil2.example", csrfToken: "forged", providerId: "x" })) form.set(name, value)
    const result = await actionsFor(auth, nextScope()).signIn("credentials", form)
    expect(result).toMatchObject({ ok: true, url: `${APP}/` })
  })

  it("a Referer whose path is //evil.example (the default destination) does not make an open redirect", async () => {
    const auth = createAuth(base)
    const result = await actionsFor(auth, nextScope("", { referer: `${APP}//evil.example/x` })).signIn("credentials", { username: "ada", password: "lovelace" })
    expect(onApp(result.url)).toBe(true)
  })

  it("a provider id of '..' or '.' cannot steer the action's CSRF-carrying POST onto another route", async () => {
    const auth = createAuth(base)
    for (const id of ["..", ".", "../signout", "%2e%2e"]) {
      const scope = nextScope()
      const result = await actionsFor(auth, scope).signIn(id, { username: "ada", password: "lovelace" })
      expect(result.ok).toBe(false)
      expect(scope.written().some((cookie) => cookie.includes("session-token=") && !cookie.includes("session-token=;"))).toBe(false)
    }
  })
})

describe("latchkey/next server actions: cookies", () => {
  it("signIn on https writes __Secure-/__Host- cookies that are Secure, HttpOnly and SameSite=Lax (no script-readable session)", async () => {
    const auth = createAuth(base)
    const scope = nextScope()
    await actionsFor(auth, scope).signIn("credentials", { username: "ada", password: "lovelace" })
    const session = scope.written().find((cookie) => cookie.startsWith("__Secure-authjs.session-token="))!
    expect(session).toBeDefined()
    expect(session).toMatch(/;\s*Secure/i)
    expect(session).toMatch(/;\s*HttpOnly/i)
    expect(session).toMatch(/;\s*SameSite=Lax/i)
    expect(session).toMatch(/;\s*Path=\//i)
    const csrf = scope.written().find((cookie) => cookie.startsWith("__Host-authjs.csrf-token="))!
    expect(csrf).toMatch(/;\s*Secure/i)
    expect(csrf).not.toMatch(/Domain=/i)
  })

  it("signOut of a chunked JWT session expires every chunk, so no piece of the old session stays in the browser", async () => {
    const auth = createAuth(base)
    const signIn = nextScope()
    const result = await actionsFor(auth, signIn).signIn("credentials", { username: "ada", password: "lovelace", bio: "x".repeat(6000) })
    expect(result.ok).toBe(true)
    const cookie = headerOf(signIn.store)
    const chunks = signIn.store.getAll().map(({ name }) => name).filter((name) => name.startsWith("__Secure-authjs.session-token"))
    expect(chunks.length).toBeGreaterThan(1)
    const scope = nextScope(cookie)
    await actionsFor(auth, scope).signOut({ redirectTo: "/bye" })
    const left = scope.store.getAll().filter(({ name, value }) => name.startsWith("__Secure-authjs.session-token") && value !== "")
    expect(left).toEqual([])
    for (const name of chunks) expect(scope.written().find((line) => line.startsWith(`${name}=`))).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i)
    await expect(auth.auth(new Request(`${APP}/`, { headers: { cookie: headerOf(scope.store) } }))).resolves.toBeNull()
  })
})

function passwordApp(extra: Partial<AuthConfig> = {}) {
  const mailbox: PasswordEmail[] = []
  const auth = createAuth({
    providers: [Password({ sendEmail: (mail) => void mailbox.push(mail), requireEmailVerification: false })],
    adapter: memoryAdapter(),
    passwords: passwordsWith(CHEAP),
    secret: SECRET,
    env: { AUTH_URL: `${APP}/auth` },
    ...extra,
  })
  return { auth, mailbox }
}

describe("latchkey/next server actions: sessions and passwords", () => {
  it("signOut ends a database session at the store: the old cookie, replayed, reads as no one", async () => {
    const { auth } = passwordApp()
    const scope = nextScope()
    expect((await actionsFor(auth, scope).signUp({ email: "ada@example.com", password: GOOD })).ok).toBe(true)
    const stolen = headerOf(scope.store)
    await expect(auth.auth(new Request(`${APP}/`, { headers: { cookie: stolen } }))).resolves.toMatchObject({ user: { email: "ada@example.com" } })
    const out = nextScope(stolen)
    await actionsFor(auth, out).signOut()
    // Replayed from a copy taken before sign-out, and read without any cache copy the browser may keep.
    const sessionOnly = stolen.split("; ").filter((pair) => pair.startsWith("__Secure-authjs.session-token=")).join("; ")
    await expect(auth.auth(new Request(`${APP}/`, { headers: { cookie: sessionOnly } }))).resolves.toBeNull()
    await expect(auth.auth(new Request(`${APP}/`, { headers: { cookie: stolen } }))).resolves.toBeNull()
  })

  it.each(["//evil.example", "https://evil.example/x", "/\\evil.example"])("signUp({ redirectTo: %j }) lands the new user on the app", async (target) => {
    const { auth } = passwordApp()
    const result = await actionsFor(auth, nextScope()).signUp({ email: "ada@example.com", password: GOOD }, { redirectTo: target })
    expect(result.ok).toBe(true)
    expect(onApp(result.url)).toBe(true)
  })

  it("requestPasswordReset({ redirectTo: evil }): the mailed link, followed to the end, still lands on the app", async () => {
    const { auth, mailbox } = passwordApp()
    await actionsFor(auth, nextScope()).signUp({ email: "ada@example.com", password: GOOD })
    await actionsFor(auth, nextScope()).requestPasswordReset("ada@example.com", { redirectTo: "https://evil.example/phish" })
    const link = new URL(mailbox.find((mail) => mail.kind === "reset")!.url!)
    expect(link.origin).toBe(APP)
    const result = await actionsFor(auth, nextScope()).resetPassword({ token: link.searchParams.get("token")!, email: "ada@example.com", password: "purple elephants dance at noon", newPassword: "purple elephants dance at noon", callbackUrl: undefined as never }, { redirectTo: link.searchParams.get("callbackUrl") ?? undefined })
    expect(result.ok).toBe(true)
    expect(onApp(result.url)).toBe(true)
  })

  it("a server-action credentials sign-in keeps the route's rate limit: brute force through signIn() is stopped", async () => {
    const auth = createAuth({ ...base, trustedProxy: "cloudflare", rateLimits: rateLimits({ routes: { credentials: { client: { limit: 3, windowSeconds: 60 }, identifier: false } } }) })
    const results = []
    for (let attempt = 0; attempt < 5; attempt++) results.push(await actionsFor(auth, nextScope("", { "cf-connecting-ip": "198.51.100.9" })).signIn("credentials", { username: "ada", password: `guess-${attempt}` }))
    expect(results.at(-1)).toMatchObject({ ok: false, error: "RateLimited" })
    // Still stopped with the right password: the limit is not skipped by the action path.
    const last = await actionsFor(auth, nextScope("", { "cf-connecting-ip": "198.51.100.9" })).signIn("credentials", { username: "ada", password: "lovelace" })
    expect(last.ok).toBe(false)
  })

  it("a server-action credentials sign-in keeps the route's captcha: no token, no session", async () => {
    const auth = createAuth({ ...base, rateLimits: rateLimits({ captcha: { routes: ["credentials"], verify: async (token) => token === "human", field: "cf-turnstile-response" } }) })
    const scope = nextScope()
    const result = await actionsFor(auth, scope).signIn("credentials", { username: "ada", password: "lovelace" })
    expect(result).toMatchObject({ ok: false, error: "CaptchaFailed" })
    expect(scope.written().some((cookie) => cookie.startsWith("__Secure-authjs.session-token="))).toBe(false)
    const human = await actionsFor(auth, nextScope()).signIn("credentials", { username: "ada", password: "lovelace", "cf-turnstile-response": "human" })
    expect(human.ok).toBe(true)
  })

  it("a refused sign-in's result carries no password and the action does not throw", async () => {
    const auth = createAuth(base)
    const result = await actionsFor(auth, nextScope()).signIn("credentials", { username: "ada", password: "hunter2-secret" })
    expect(result.ok).toBe(false)
    expect(JSON.stringify(result)).not.toContain("hunter2-secret")
  })
})

describe("latchkey/sveltekit form actions", () => {
  const kit = () => eventActions(createAuth(base), { basePath: "/auth" })

  it.each(OPEN_REDIRECTS)("signIn form with redirectTo %j redirects on the app, and allows no foreign origin", async (target) => {
    const thrown = await thrownRedirect(kit().signIn(kitEvent({ providerId: "credentials", username: "ada", password: "lovelace", redirectTo: target })))
    expect(onApp(thrown.location)).toBe(true)
    expect(thrown.external.every((origin) => origin === APP)).toBe(true)
  })

  it.each(OPEN_REDIRECTS)("signOut form with redirectTo %j redirects on the app", async (target) => {
    const thrown = await thrownRedirect(kit().signOut(kitEvent({ redirectTo: target })))
    expect(onApp(thrown.location)).toBe(true)
  })

  it("signIn form without providerId and an off-site redirectTo goes to the app's sign-in page, not off-site", async () => {
    const thrown = await thrownRedirect(kit().signIn(kitEvent({ redirectTo: "https://evil.example/" })))
    expect(new URL(thrown.location).origin + new URL(thrown.location).pathname).toBe(`${APP}/auth/signin`)
  })

  it("a password form action with an off-site redirectTo redirects on the app", async () => {
    const { auth } = passwordApp()
    const actions = eventActions(auth, { basePath: "/auth" })
    const thrown = await thrownRedirect(actions.signUp(kitEvent({ email: "ada@example.com", password: GOOD, redirectTo: "//evil.example/x" })))
    expect(onApp(thrown.location)).toBe(true)
  })

  it("a refused password form action returns fail() and sets no session cookie", async () => {
    const { auth } = passwordApp()
    const store = kitStore()
    const failure = await eventActions(auth, { basePath: "/auth" }).signUp(kitEvent({ email: "ada@example.com", password: "short" }, store))
    expect(failure).toMatchObject({ status: 400, data: { error: "PasswordPolicy" } })
    expect(store.sets.some(({ name, value }) => name.includes("session-token") && value !== "")).toBe(false)
  })
})

describe("latchkey/sveltekit handle", () => {
  const run = async (path: string) => {
    const { handle } = KitLatchkey(base)
    let resolved = false
    const url = new URL(`${APP}${path}`)
    const response = await handle({ event: { request: new Request(url), url, locals: {} }, resolve: () => ((resolved = true), new Response("app page")) })
    return { resolved, response }
  }

  it.each(["/authx/providers", "/auth-admin", "/AUTH/providers", "/%61uth/providers", "/app/auth/providers", "/"])("a request to %s, outside basePath, reaches the app and not the handler", async (path) => {
    const { resolved } = await run(path)
    expect(resolved).toBe(true)
  })

  it.each(["/auth", "/auth/providers", "/auth/signin"])("a request to %s, under basePath, is the handler's", async (path) => {
    const { resolved } = await run(path)
    expect(resolved).toBe(false)
  })
})

describe("latchkey/next auth() in server code", () => {
  it("auth() reads no session for a database session revoked with revokeSession, though the browser still holds the cookie", async () => {
    const mailbox: PasswordEmail[] = []
    const app = NextLatchkey({ providers: [Password({ sendEmail: (mail) => void mailbox.push(mail), requireEmailVerification: false })], adapter: memoryAdapter(), passwords: passwordsWith(CHEAP), secret: SECRET, env: { AUTH_URL: `${APP}/auth` } })
    const scope = nextScope()
    expect((await serverActions(app, { basePath: app.basePath }, scope.io).signUp({ email: "ada@example.com", password: GOOD })).ok).toBe(true)
    const cookie = headerOf(scope.store)
    nextRequest.headers = new Headers({ host: "app.example.com", "x-forwarded-proto": "https", cookie })
    await expect(app.auth()).resolves.toMatchObject({ user: { email: "ada@example.com" } })
    const token = decodeURIComponent(/__Secure-authjs\.session-token=([^;]+)/.exec(cookie)![1]!)
    await app.revokeSession(token)
    const sessionOnly = cookie.split("; ").filter((pair) => pair.startsWith("__Secure-authjs.session-token=")).join("; ")
    nextRequest.headers = new Headers({ host: "app.example.com", "x-forwarded-proto": "https", cookie: sessionOnly })
    await expect(app.auth()).resolves.toBeNull()
  })

  it("auth() ignores a forged session cookie planted in the request", async () => {
    const app = NextLatchkey(base)
    nextRequest.headers = new Headers({ host: "app.example.com", "x-forwarded-proto": "https", cookie: "__Secure-authjs.session-token=eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9." })
    await expect(app.auth()).resolves.toBeNull()
  })
})

// Two answers today's handler never gives, so the integrations must not trust them: an off-site
// redirect whose path happens to sit under basePath, and a password route's success without a URL.
describe("integrations: answers the handler does not give today", () => {
  const scripted = (answer: () => Response) => ({
    handler: async (request: Request) => (new URL(request.url).pathname.endsWith("/csrf") ? Response.json({ csrfToken: "t" }) : answer()),
  })

  it("a redirect to another origin whose path is under basePath and carries error is not read as a refusal", async () => {
    const auth = scripted(() => new Response(null, { status: 302, headers: { location: "https://idp.example/auth/realms/corp/authorize?error=login_required" } }))
    const { result } = await runAction(auth, { basePath: "/auth" }, { url: new URL(APP), headers: new Headers(), cookie: "" }, "/auth/signin/corp", {})
    expect(result).toMatchObject({ ok: true, url: "https://idp.example/auth/realms/corp/authorize?error=login_required" })
  })

  it("a password form's success without a URL does not send the browser to the form's off-site redirectTo", async () => {
    const auth = scripted(() => Response.json({}))
    for (const redirectTo of ["//evil.example/x", "https://evil.example/x", "/\\evil.example/x"]) {
      const { next } = await runPasswordForm(auth, { basePath: "/auth" }, kitEvent({ redirectTo }), "password/sign-up")
      expect(new URL(next).origin).toBe(APP)
    }
    const { next } = await runPasswordForm(auth, { basePath: "/auth" }, kitEvent({ redirectTo: "/welcome?x=1" }), "password/sign-up")
    expect(next).toBe(`${APP}/welcome?x=1`)
  })
})
