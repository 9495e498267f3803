// Issue 14, "live sessions survive the move": database sessions written by the real Auth.js
// (@auth/core 0.41) are read, slid and ended by latchkey over the same adapter, and latchkey's are
// read, slid and ended by Auth.js. One origin serves one app at a time under the same basePath
// (/auth), as an app does when it swaps one for the other; the browser and its cookies stay, and
// both sign in through a real oidc-provider. Each test owns its site, adapter and browser.
import { Auth, type AuthConfig as AuthjsConfig } from "@auth/core"
import type { Adapter as AuthjsAdapter } from "@auth/core/adapters"
import type { OIDCConfig as AuthjsOIDCConfig } from "@auth/core/providers"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import type { Adapter } from "../../src/adapters/adapter.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import type { OIDCConfig } from "../../src/providers/types.js"
import { adapterMatrix, type MatrixEntry } from "../adapters/matrix.js"
import { csrf, postForm } from "../handler/support.js"
import { TestBrowser } from "../servers/browser.js"
import { movingOrigin, type Side } from "./moving-origin.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"

const SECRET = "latchkey-interop-secret-0123456789abcdef"
const ADA = { sub: "ada-sub", email: "ada@example.com", name: "Ada Lovelace" }
/** Plain http on loopback (`authjs.session-token`) and https (`__Secure-authjs.session-token`). */
const ORIGINS = ["http://localhost:3000", "https://app.example.com"] as const
/** A short session that slides once ten minutes have passed, the same on both sides. */
const SLIDING = { maxAge: 3600, updateAge: 600 }
const LATCHKEY_TOKEN = /^[0-9a-f]{64}\.[A-Za-z0-9_-]{43}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

let idp: OidcServer

beforeAll(async () => {
  idp = await startOidcServer({ accounts: [ADA], clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: ORIGINS.map((origin) => `${origin}/auth/callback/corp`), grant_types: ["authorization_code"] }] })
})
afterAll(() => idp.close())
afterEach(() => void vi.useRealTimers())

type SessionJson = { user?: { name?: string | null; email?: string | null }; expires?: string } | null

/**
 * One origin that serves Auth.js or latchkey under /auth, both on `adapter` with the same secret
 * and the same provider; anything outside /auth is the app's own page. `serve` swaps the app.
 */
function movingSite(origin: string, adapter: Adapter, session: { maxAge?: number; updateAge?: number } = {}) {
  const errors: unknown[] = []
  const corp = { id: "corp", name: "Corp", type: "oidc", issuer: idp.issuer, clientId: "app", clientSecret: "app-secret" } as const
  const latchkey = createAuth({ secret: SECRET, trustHost: true, env: {}, adapter, providers: [corp satisfies OIDCConfig], session, logger: { error: (error) => void errors.push(error), warn: () => {} } })
  const authjsConfig: AuthjsConfig = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    adapter: asAuthjsAdapter(adapter),
    providers: [{ ...corp } satisfies AuthjsOIDCConfig<Record<string, unknown>>],
    session: { strategy: "database", ...session },
    logger: { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} },
  }
  const authjs = (request: Request) => Auth(request, authjsConfig)
  const { dispatch, serve } = movingOrigin(origin, { authjs, latchkey: latchkey.handler })
  const browser = new TestBrowser(undefined, dispatch)
  const cookieName = origin.startsWith("https:") ? "__Secure-authjs.session-token" : "authjs.session-token"
  return {
    browser,
    errors,
    latchkey,
    authjs,
    cookieName,
    serve,
    /** Signs in as Ada through the app now served, as a browser does: its csrf endpoint, then the form. */
    async signIn() {
      const { url } = await postForm(browser, "/auth/signin/corp", { csrfToken: await csrf(browser, origin), callbackUrl: `${origin}/home` }, origin)
      expect(url.href).toBe(`${origin}/home`)
    },
    async session(): Promise<SessionJson> {
      const { response } = await browser.open(`${origin}/auth/session`)
      expect(response.status).toBe(200)
      return (await response.json()) as SessionJson
    },
    async signOut() {
      await postForm(browser, "/auth/signout", { csrfToken: await csrf(browser, origin), callbackUrl: `${origin}/bye` }, origin)
    },
    token(): string | undefined {
      return browser.cookies(origin).get(cookieName)
    },
    /** A request to the app's own page carrying `token` as the session cookie, as `auth()` gets it. */
    pageRequest(token: string): Request {
      return new Request(`${origin}/home`, { headers: { cookie: `${cookieName}=${token}` } })
    },
  }
}

/**
 * The same adapter object, typed for Auth.js. The matrix hands adapters out typed as latchkey's
 * `Adapter`, which is wider than Auth.js's (a user's `email` may be null or missing there), so
 * the types do not meet in this direction; at run time it is one object, as in an app mid-move.
 */
function asAuthjsAdapter(adapter: Adapter): AuthjsAdapter {
  return adapter as unknown as AuthjsAdapter
}

/** The stored row of a token, with its expiry; fails when there is none. */
/**
 * Signs in on the app serving now, then reads the session once `updateAge` has passed so that app
 * slides the row; leaves the clock a minute past the row's first expiry. Answers the token and the
 * slid expiry.
 */
async function slideOnce(site: ReturnType<typeof movingSite>, adapter: Adapter): Promise<{ token: string; slid: Date }> {
  await site.signIn()
  const token = site.token()!
  const first = (await rowOf(adapter, token)).session.expires
  expect(first).toBeInstanceOf(Date)
  vi.useFakeTimers({ toFake: ["Date"], now: first.getTime() - SLIDING.maxAge * 1000 + (SLIDING.updateAge + 1) * 1000 })
  expect(await site.session()).toMatchObject({ user: { email: ADA.email } })
  const slid = (await rowOf(adapter, token)).session.expires
  expect(slid).toBeInstanceOf(Date)
  expect(slid.getTime()).toBeGreaterThan(first.getTime())
  vi.setSystemTime(first.getTime() + 60_000)
  return { token, slid }
}

async function rowOf(adapter: Adapter, token: string) {
  const found = await adapter.getSessionAndUser!(token)
  expect(found).not.toBeNull()
  return found!
}

/** The three behaviours, run on a fresh adapter per test from `store`. */
function liveSessions(label: string, store: () => Promise<{ adapter: Adapter; teardown(): Promise<void> }>, origins: readonly string[] = ORIGINS, timeout?: number) {
  async function withStore(run: (adapter: Adapter) => Promise<void>) {
    const { adapter, teardown } = await store()
    try {
      await run(adapter)
    } finally {
      await teardown()
    }
  }

  describe.each(origins)(`${label} on %s`, (origin) => {
    it("a session Auth.js signed in is read by latchkey's handler and auth(), and latchkey's sign-out ends it for Auth.js", () =>
      withStore(async (adapter) => {
        const site = movingSite(origin, adapter)
        site.serve("authjs")
        await site.signIn()
        const token = site.token()
        expect(token).toMatch(UUID)
        expect(await site.session()).toMatchObject({ user: { email: ADA.email, name: ADA.name } })
        const row = await rowOf(adapter, token!)
        expect(row.session.expires).toBeInstanceOf(Date)

        site.serve("latchkey")
        expect(await site.session()).toMatchObject({ user: { email: ADA.email, name: ADA.name }, expires: row.session.expires.toISOString() })
        expect(await site.latchkey.auth(site.pageRequest(token!))).toMatchObject({ user: { email: ADA.email, name: ADA.name } })

        await site.signOut()
        expect(site.token()).toBeUndefined()
        expect(await adapter.getSessionAndUser!(token!)).toBeNull()
        expect(await site.latchkey.auth(site.pageRequest(token!))).toBeNull()
        const replayed = await site.authjs(new Request(`${origin}/auth/session`, { headers: { cookie: `${site.cookieName}=${token}` } }))
        expect(await replayed.json()).toBeNull()
        site.serve("authjs")
        expect(await site.session()).toBeNull()
        expect(site.errors).toEqual([])
      }), timeout)

    it("a session latchkey signed in, with its <hex>.<hash> token, is read by Auth.js, and Auth.js's sign-out ends it for latchkey", () =>
      withStore(async (adapter) => {
        const site = movingSite(origin, adapter)
        site.serve("latchkey")
        await site.signIn()
        const token = site.token()
        expect(token).toMatch(LATCHKEY_TOKEN)
        const row = await rowOf(adapter, token!)

        site.serve("authjs")
        expect(await site.session()).toMatchObject({ user: { email: ADA.email, name: ADA.name }, expires: row.session.expires.toISOString() })
        expect(site.token()).toBe(token)

        await site.signOut()
        expect(site.token()).toBeUndefined()
        expect(await adapter.getSessionAndUser!(token!)).toBeNull()
        site.serve("latchkey")
        expect(await site.session()).toBeNull()
        expect(await site.latchkey.auth(site.pageRequest(token!))).toBeNull()
        expect(site.errors).toEqual([])
      }), timeout)

    it("a row Auth.js slid keeps working in latchkey past its first expiry, the expiry read as the same Date", () =>
      withStore(async (adapter) => {
        const site = movingSite(origin, adapter, SLIDING)
        site.serve("authjs")
        const { token, slid } = await slideOnce(site, adapter)
        site.serve("latchkey")
        expect(await site.latchkey.auth(site.pageRequest(token))).toMatchObject({ user: { email: ADA.email }, expires: slid.toISOString() })
        const read = await site.session()
        expect(read).toMatchObject({ user: { email: ADA.email } })
        // Sliding re-issues the session: Auth.js's unbound token is replaced by one bound to this browser.
        const rebound = site.token()!
        expect(rebound).toMatch(LATCHKEY_TOKEN)
        // The old row answers for a minute more (requests in flight with its cookie), then ends.
        expect((await rowOf(adapter, token)).session.expires.getTime()).toBeLessThanOrEqual(Date.now() + 60_000)
        const after = (await rowOf(adapter, rebound)).session.expires
        expect(after).toBeInstanceOf(Date)
        expect(read?.expires).toBe(after.toISOString())
        expect(site.errors).toEqual([])
      }), timeout)

    it("a row latchkey slid keeps working in Auth.js past its first expiry, the expiry read as the same Date", () =>
      withStore(async (adapter) => {
        const site = movingSite(origin, adapter, SLIDING)
        site.serve("latchkey")
        const { token, slid } = await slideOnce(site, adapter)
        site.serve("authjs")
        // Auth.js answers the expiry it read (before its own slide), as an ISO string of the Date.
        expect(await site.session()).toMatchObject({ user: { email: ADA.email }, expires: slid.toISOString() })
        expect((await rowOf(adapter, token)).session.expires.getTime()).toBeGreaterThan(slid.getTime())
        expect(site.token()).toBe(token)
        expect(site.errors).toEqual([])
      }), timeout)
  })
}

// The CSRF cookie moves too: both write `authjs.csrf-token` (`__Host-` over https) as
// `<token>|<hex SHA-256 of token + secret>`, and latchkey also reads its own 0.1 base64url form,
// so a form served before the move still posts after it, in either direction.
describe.each(ORIGINS)("a CSRF token from before the move, on %s", (origin) => {
  const HEX_HASH = /^[^|]+\|[0-9a-f]{64}$/
  /** The CSRF cookie's value, percent-decoded (both apps encode its `|`). */
  const csrfCookie = (site: ReturnType<typeof movingSite>) => decodeURIComponent(site.browser.cookies(origin).get(origin.startsWith("https:") ? "__Host-authjs.csrf-token" : "authjs.csrf-token") ?? "")

  it("a sign-out form Auth.js served signs out through latchkey", async () => {
    const adapter = memoryAdapter()
    const site = movingSite(origin, adapter)
    site.serve("authjs")
    await site.signIn()
    const token = site.token()!
    const stale = await csrf(site.browser, origin) // the token Auth.js's sign-out page embeds
    expect(csrfCookie(site)).toMatch(HEX_HASH)
    site.serve("latchkey")
    const { url } = await postForm(site.browser, "/auth/signout", { csrfToken: stale, callbackUrl: `${origin}/bye` }, origin)
    expect(url.href).toBe(`${origin}/bye`)
    expect(await adapter.getSessionAndUser!(token)).toBeNull()
    expect(site.errors).toEqual([])
  })

  it("a sign-out form latchkey served signs out through Auth.js after a move back", async () => {
    const adapter = memoryAdapter()
    const site = movingSite(origin, adapter)
    site.serve("latchkey")
    await site.signIn()
    const token = site.token()!
    const stale = await csrf(site.browser, origin)
    expect(csrfCookie(site)).toMatch(HEX_HASH)
    site.serve("authjs")
    const { url } = await postForm(site.browser, "/auth/signout", { csrfToken: stale, callbackUrl: `${origin}/bye` }, origin)
    expect(url.href).toBe(`${origin}/bye`)
    expect(await adapter.getSessionAndUser!(token)).toBeNull()
    expect(site.errors).toEqual([])
  })
})

liveSessions("memoryAdapter", async () => ({ adapter: memoryAdapter(), teardown: async () => {} }))

// The real-database adapters of the matrix (memory is covered above), on https only: the cookie
// names are the adapter's concern neither way.
const databases = adapterMatrix.filter((entry) => entry.name !== "memory")
const reasons = await Promise.all(databases.map((entry: MatrixEntry) => entry.skipReason()))

it("the adapter matrix has real-database entries to run", () => {
  expect(databases.length).toBeGreaterThan(0)
})

for (const [index, entry] of databases.entries()) {
  const reason = reasons[index]
  if (reason !== undefined) {
    console.warn(`[live sessions] skipping ${entry.name}: ${reason}`)
    describe.skip(`${entry.name} (skipped: ${reason})`, () => it("needs its server", () => {}))
    continue
  }
  // A fresh store per test: a PGlite instance takes seconds to start.
  liveSessions(entry.name, () => entry.setup(), [ORIGINS[1]], 30_000)
}
