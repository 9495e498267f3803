// latchkey/sveltekit without a build: the handle hook against a real handler (requests under
// basePath answered by it, locals.auth() read lazily and once per request from a real sealed
// cookie), and the form actions' handler run writing every cookie through an event's cookie store.
// The form actions' redirects need the app's own @sveltejs/kit: test/e2e-node22/sveltekit-app.test.ts
// drives them in the built example app.
import { describe, expect, it } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import { runForEvent, type KitActionEvent } from "../../src/integrations/sveltekit/actions.js"
import { Latchkey } from "../../src/integrations/sveltekit/index.js"
import Credentials from "../../src/providers/credentials.js"

const SECRET = "latchkey-sveltekit-test-secret-0123456789abcdef"
const APP = "https://app.example.com"
const users = Credentials({
  credentials: { username: {}, password: {} },
  authorize: ({ username, password }) => (username === "ada" && password === "lovelace" ? { id: "ada-1", name: "Ada Lovelace", email: "ada@example.com" } : null),
})

/** SvelteKit's cookie store as far as an action uses it: what was set, with the options it was set with. */
function cookieStore(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial))
  const sets: { name: string; value: string; options: Record<string, unknown> }[] = []
  return {
    sets,
    header: () => [...values].filter(([, value]) => value !== "").map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; "),
    cookies: {
      getAll: () => [...values].map(([name, value]) => ({ name, value })),
      set(name: string, value: string, options: { path: string } & Record<string, unknown>) {
        sets.push({ name, value, options })
        values.set(name, value)
      },
    },
  }
}

function actionEvent(store: ReturnType<typeof cookieStore>, path = "/login"): KitActionEvent {
  return { request: new Request(`${APP}${path}`, { method: "POST", headers: { origin: APP } }), url: new URL(`${APP}${path}`), cookies: store.cookies }
}

async function signedInCookie(): Promise<string> {
  const instance = createAuth({ providers: [users], secret: SECRET, env: { AUTH_URL: APP } })
  const store = cookieStore()
  const result = await runForEvent(instance, { basePath: "/auth" }, actionEvent(store), "/auth/signin/credentials", { username: "ada", password: "lovelace", callbackUrl: "/" })
  expect(result.ok).toBe(true)
  return store.header()
}

describe("latchkey/sveltekit handle", () => {
  it("answers requests under basePath with the handler, without resolving the route", async () => {
    const { handle } = Latchkey({ providers: [users], secret: SECRET, env: { AUTH_URL: APP } })
    let resolved = 0
    const event = { request: new Request(`${APP}/auth/providers`), url: new URL(`${APP}/auth/providers`), locals: {} }
    const response = await handle({ event, resolve: () => (resolved++, new Response("page")) })
    expect(resolved).toBe(0)
    expect(Object.keys(await response.json())).toEqual(["credentials"])
  })

  it("gives every other request locals.auth(): read on first call only, then shared", async () => {
    let reads = 0
    const { handle } = Latchkey({ providers: [users], secret: SECRET, env: { AUTH_URL: APP }, callbacks: { session: ({ session }) => (reads++, session) } })
    const cookie = await signedInCookie()
    const locals: { auth?: () => Promise<unknown> } = {}
    const event = { request: new Request(`${APP}/account`, { headers: { cookie } }), url: new URL(`${APP}/account`), locals }
    const response = await handle({
      event,
      resolve: async () => {
        expect(reads).toBe(0)
        const [first, second] = await Promise.all([locals.auth!(), locals.auth!()])
        expect(first).toBe(second)
        return Response.json(await locals.auth!())
      },
    })
    expect(reads).toBe(1)
    expect(await response.json()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.com" } })
  })

  it("a request without a session cookie reads null; one whose path only starts like basePath is the app's", async () => {
    const { handle } = Latchkey({ providers: [users], secret: SECRET, env: { AUTH_URL: APP } })
    const locals: { auth?: () => Promise<unknown> } = {}
    const event = { request: new Request(`${APP}/authors`), url: new URL(`${APP}/authors`), locals }
    const response = await handle({ event, resolve: async () => Response.json({ session: await locals.auth!() }) })
    expect(await response.json()).toEqual({ session: null })
  })
})

describe("latchkey/sveltekit form actions' handler run", () => {
  it("writes each cookie through event.cookies with the handler's attributes, and a path always", async () => {
    const instance = createAuth({ providers: [users], secret: SECRET, env: { AUTH_URL: APP } })
    const store = cookieStore()
    const result = await runForEvent(instance, { basePath: "/auth" }, actionEvent(store), "/auth/signin/credentials", { username: "ada", password: "lovelace", callbackUrl: "/account" })
    expect(result).toEqual({ ok: true, url: `${APP}/account`, error: undefined, code: undefined })
    const session = store.sets.find(({ name }) => name === "__Secure-authjs.session-token")
    expect(session?.options).toMatchObject({ path: "/", httpOnly: true, secure: true, sameSite: "lax" })
    const csrf = store.sets.find(({ name }) => name === "__Host-authjs.csrf-token")
    // The store gets the decoded value; SvelteKit encodes it once when it writes the header.
    expect(csrf?.value).toMatch(/^[\w-]+\|[0-9a-f]{64}$/)
    await expect(instance.auth(new Request(`${APP}/`, { headers: { cookie: store.header() } }))).resolves.toMatchObject({ user: { email: "ada@example.com" } })
  })

  it("a refused sign-in answers the sign-in page with its error code and sets no session", async () => {
    const instance = createAuth({ providers: [users], secret: SECRET, env: { AUTH_URL: APP } })
    const store = cookieStore()
    const result = await runForEvent(instance, { basePath: "/auth" }, actionEvent(store), "/auth/signin/credentials", { username: "ada", password: "nope" })
    expect(result).toMatchObject({ ok: false, error: "CredentialsSignin", code: "credentials" })
    expect(store.sets.some(({ name }) => name.includes("session-token"))).toBe(false)
  })

  it("sign-out removes the session cookie through the store", async () => {
    const instance = createAuth({ providers: [users], secret: SECRET, env: { AUTH_URL: APP } })
    const cookie = await signedInCookie()
    const store = cookieStore(Object.fromEntries(cookie.split("; ").map((pair) => [pair.slice(0, pair.indexOf("=")), decodeURIComponent(pair.slice(pair.indexOf("=") + 1))])))
    const result = await runForEvent(instance, { basePath: "/auth" }, actionEvent(store, "/protected"), "/auth/signout", { callbackUrl: "/bye" })
    expect(result).toMatchObject({ ok: true, url: `${APP}/bye` })
    const cleared = store.sets.find(({ name }) => name === "__Secure-authjs.session-token")
    expect(cleared?.value).toBe("")
    expect(cleared?.options.maxAge ?? (cleared?.options.expires as Date).getTime()).toBe(0)
    await expect(instance.auth(new Request(`${APP}/`, { headers: { cookie: store.header() } }))).resolves.toBeNull()
  })
})
