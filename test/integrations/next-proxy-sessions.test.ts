// The Next proxy with database sessions, on Node.js (where Next 16 runs proxy.ts), against real
// adapters (memory, PGlite, real PostgreSQL) and sessions made by real sign-ins at a real OpenID
// provider: latchkey's own, and the UUID rows the real Auth.js (@auth/core) makes, as an app moved
// from next-auth still has. The gate reads the cache copy when it is fresh, else the database (and
// writes a fresh copy back); a cookie the database does not know never passes.
import { Auth, type AuthConfig as AuthjsConfig } from "@auth/core"
import type { Adapter as AuthjsAdapter } from "@auth/core/adapters"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Latchkey, type Proxy } from "../../src/integrations/next/index.js"
import type { Adapter } from "../../src/adapters/adapter.js"
import type { OIDCConfig } from "../../src/providers/types.js"
import { adapterMatrix, type AdapterStore } from "../adapters/matrix.js"
import { csrf, postForm } from "../handler/support.js"
import { TestBrowser } from "../servers/browser.js"
import { movingOrigin } from "../interop/moving-origin.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"

const ORIGIN = "http://localhost:3000"
const SECRET = "latchkey-next-proxy-sessions-secret-0123456789"
const ADA = { sub: "ada-sub", email: "ada@example.com", name: "Ada Lovelace" }
const SESSION = "authjs.session-token"
const CACHE = "latchkey.session-cache"
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

let idp: OidcServer
beforeAll(async () => {
  idp = await startOidcServer({ accounts: [ADA], clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${ORIGIN}/auth/callback/corp`], grant_types: ["authorization_code"] }] })
})
afterAll(() => idp.close())

/** The adapter, with its session reads counted. */
function counted(adapter: Adapter) {
  let reads = 0
  const getSessionAndUser = adapter.getSessionAndUser!.bind(adapter)
  return { adapter: { ...adapter, getSessionAndUser: (token: string) => (reads++, getSessionAndUser(token)) } as Adapter, reads: () => reads }
}

/**
 * The app at ORIGIN, served by Auth.js (before the move) or latchkey (after it), on one adapter,
 * with latchkey's `auth.ts` as the docs write it: `Latchkey({ adapter, providers, session: { cache } })`
 * with `AUTH_URL`. Pages outside /auth are the app's own.
 */
function site(adapter: Adapter) {
  const corp = { id: "corp", name: "Corp", type: "oidc", issuer: idp.issuer, clientId: "app", clientSecret: "app-secret" } as const
  const latchkey = Latchkey({ secret: SECRET, env: { AUTH_URL: ORIGIN }, adapter, providers: [corp satisfies OIDCConfig], session: { cache: { maxAge: 60 } } })
  const authjsConfig: AuthjsConfig = { secret: SECRET, trustHost: true, basePath: "/auth", adapter: adapter as unknown as AuthjsAdapter, providers: [{ ...corp }], session: { strategy: "database" } }
  const { dispatch, serve } = movingOrigin(ORIGIN, { authjs: (request) => Auth(request, authjsConfig), latchkey: latchkey.handler }, "latchkey")
  const browser = new TestBrowser(undefined, dispatch)
  return {
    latchkey,
    browser,
    serve,
    async signIn() {
      await postForm(browser, "/auth/signin/corp", { csrfToken: await csrf(browser, ORIGIN), callbackUrl: `${ORIGIN}/dashboard` }, ORIGIN)
      expect(browser.cookies(ORIGIN).get(SESSION)).toBeDefined()
    },
    /** What the browser holds under `name`. */
    cookie: (name: string) => browser.cookies(ORIGIN).get(name),
    /** The browser drops a cookie, as it does once its Max-Age has passed. */
    expire: (name: string) => browser.acceptCookies(ORIGIN, [`${name}=; Max-Age=0; Path=/`]),
    /** The browser asks for an app page: the proxy decides, and the browser keeps the cookies it sets. */
    async visit(proxy: Proxy, path = "/dashboard") {
      const cookie = [...browser.cookies(ORIGIN)].map(([name, value]) => `${name}=${value}`).join("; ")
      const answer = await proxy(new Request(`${ORIGIN}${path}`, { headers: { cookie } }))
      if (answer) browser.acceptCookies(ORIGIN, answer.headers.getSetCookie())
      return answer
    },
  }
}

/** Whether the proxy let the request through: no answer, or Next's "go on" (`NextResponse.next()`). */
function passed(answer: Response | undefined): boolean {
  return answer === undefined || answer.headers.get("x-middleware-next") === "1"
}

const ADAPTERS = adapterMatrix.filter((entry) => ["memory", "drizzle-pglite", "pg"].includes(entry.name))

describe.each(ADAPTERS)("the Next proxy with database sessions on $name", (entry) => {
  let store: AdapterStore | undefined
  beforeAll(async () => {
    const reason = await entry.skipReason()
    if (reason && process.env.CI !== "true") return console.warn(`skipped: ${reason}`)
    store = await entry.setup()
  }, 60_000)
  afterAll(() => store?.teardown())

  it("keeps a user next-auth signed in (a UUID row) signed in through Auth.js's moved `!!auth`, and gives them a cache copy", async (test) => {
    if (!store) return test.skip()
    const { adapter, reads } = counted(store.adapter)
    const app = site(adapter)
    app.serve("authjs")
    await app.signIn()
    expect(app.cookie(SESSION)).toMatch(UUID)
    app.serve("latchkey")
    const proxy = app.latchkey.proxy({ authorized: ({ auth }) => !!auth })
    const first = await app.visit(proxy)
    expect(passed(first)).toBe(true)
    // The page behind the proxy gets the fresh copy in this very request, and the browser keeps it.
    expect(first!.headers.get("x-middleware-request-cookie")).toContain(`${CACHE}=`)
    expect(app.cookie(CACHE)).toBeDefined()
    const before = reads()
    expect(passed(await app.visit(proxy))).toBe(true)
    expect(reads()).toBe(before)
  })

  it("with the session cache (README's proxy), a signed-in user stays signed in once the copy expires; a revoked one is turned away", async (test) => {
    if (!store) return test.skip()
    const app = site(store.adapter)
    await app.signIn()
    const proxy = app.latchkey.proxy({ authorized: ({ auth }) => auth !== null })
    expect(passed(await app.visit(proxy))).toBe(true)
    app.expire(CACHE)
    expect(passed(await app.visit(proxy))).toBe(true)
    expect(app.cookie(CACHE)).toBeDefined()
    await app.latchkey.revokeSession(app.cookie(SESSION)!)
    // The copy vouches for the session until it expires (60 s here); then the database has the word.
    expect(passed(await app.visit(proxy))).toBe(true)
    app.expire(CACHE)
    const refused = await app.visit(proxy)
    expect([refused?.status, refused?.headers.get("location")]).toEqual([307, `${ORIGIN}/auth/signin?callbackUrl=%2Fdashboard`])
    expect(app.cookie(SESSION)).toBeUndefined()
  })
})

describe("the default Next proxy with database sessions, on Node.js", () => {
  /** A visitor with this browser's CSRF cookie (as any visitor of the sign-in page has) and a session cookie of its choosing. */
  async function visitorWith(sessionToken: (binding: string) => string) {
    const app = site(counted((await adapterMatrix[0]!.setup()).adapter).adapter)
    await csrf(app.browser, ORIGIN)
    const csrfToken = decodeURIComponent(app.cookie("authjs.csrf-token")!).split("|")[0]!
    const binding = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(csrfToken))).toString("base64url")
    app.browser.acceptCookies(ORIGIN, [`${SESSION}=${sessionToken(binding)}; Path=/`])
    return app
  }

  it.each([
    ["a garbage cookie", () => "garbage"],
    ["a UUID no session row has", () => crypto.randomUUID()],
    ["a well-formed token bound to this browser, with no row", (binding: string) => `${"ab".repeat(32)}.${binding}`],
  ])("turns away %s", async (_, token) => {
    const app = await visitorWith(token)
    const answer = await app.visit(app.latchkey.proxy())
    expect([answer?.status, answer?.headers.get("location")]).toEqual([307, `${ORIGIN}/auth/signin?callbackUrl=%2Fdashboard`])
  })

  it("lets a real session through once its cache copy expired", async () => {
    const app = site((await adapterMatrix[0]!.setup()).adapter)
    await app.signIn()
    app.expire(CACHE)
    expect(passed(await app.visit(app.latchkey.proxy()))).toBe(true)
  })
})
