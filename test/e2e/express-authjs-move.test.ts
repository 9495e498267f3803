// Issue "Round three", items 11 and the Express done-when: an Express app on @auth/express with a
// Drizzle adapter on PostgreSQL (PGlite when no server answers), a hand-written OIDC provider,
// magic links and credentials, moved to latchkey by following docs/migrating-from-authjs.md. One
// real Express server on 127.0.0.1 serves either side under /auth and the app's own `/me` route:
// Auth.js (the real @auth/core 0.41, behind the same Node bridge @auth/express is) before the
// deploy and after a rollback, latchkey in between. The browser and the database stay. Users
// signed in before the deploy stay signed in, and links in flight at the deploy (or at a rollback)
// sign in. The latchkey config is the guide's Express example, with the test's secrets and URLs.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Auth, type AuthConfig as AuthjsConfig } from "@auth/core"
import type { Adapter as AuthjsAdapter } from "@auth/core/adapters"
import { CredentialsSignin as AuthjsCredentialsSignin } from "@auth/core/errors"
import express from "express"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAuth, CredentialsSignin, type Session } from "../../src/index.js"
import { sendWebResponse, toWebRequest } from "../../src/integrations/node.js"
import { toWebHandler } from "../../src/integrations/node.js"
import type { Adapter } from "../../src/adapters/adapter.js"
import Credentials from "../../src/providers/credentials.js"
import type { EmailConfig, Provider } from "../../src/providers/types.js"
import { adapterMatrix } from "../adapters/matrix.js"
import { csrf, postForm } from "../handler/support.js"
import { TestBrowser } from "../servers/browser.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"

const SECRET = "latchkey-express-move-secret-0123456789abcdef"
const ADA = { sub: "ada-sub", email: "ada@example.com", name: "Ada Lovelace" }
const entry = (name: string) => adapterMatrix.find((candidate) => candidate.name === name)!
/** Real PostgreSQL when it answers, else PGlite: the same Drizzle adapter and schema either way. */
const store = (await entry("drizzle-pg").skipReason()) === undefined ? entry("drizzle-pg") : entry("drizzle-pglite")

type Side = "authjs" | "latchkey"
type Strategy = "database" | "jwt"

let idp: OidcServer
let server: Server
let origin: string
/** What the one Express server serves now; each test installs its own app. */
let current: { serving: Side; latchkey: ReturnType<typeof createAuth>; authjs: (request: Request) => Promise<Response> } | undefined

beforeAll(async () => {
  const app = express()
  // @auth/express's ExpressAuth: the Node request as a Web Request, through Auth(), and back.
  const authjsMiddleware: express.RequestHandler = (req, res, next) => void current!.authjs(toWebRequest(req)).then((response) => sendWebResponse(res, response), next)
  app.use("/auth", (req, res, next) => (current!.serving === "latchkey" ? toWebHandler(current!.latchkey.handler)(req, res, next) : authjsMiddleware(req, res, next)))
  // The app's route: @auth/express's getSession(req, config) before, auth(toWebRequest(req)) after.
  app.get("/me", async (req, res) => {
    const session = current!.serving === "latchkey" ? await current!.latchkey.auth(toWebRequest(req)) : await authjsGetSession(req)
    if (!session) {
      res.status(401).json({ error: "signed out" })
      return
    }
    res.json({ name: session.user?.name ?? null, email: session.user?.email ?? null })
  })
  server = createServer(app)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  idp = await startOidcServer({ accounts: [ADA], clients: [{ client_id: "corp-app", client_secret: "corp-secret", redirect_uris: [`${origin}/auth/callback/corp`], grant_types: ["authorization_code"] }] })
})
afterAll(async () => {
  await idp?.close()
  await new Promise<void>((resolve) => server?.close(() => resolve()))
})

/** What @auth/express's getSession does: the session route, asked with the request's cookies. */
async function authjsGetSession(req: express.Request): Promise<Session | null> {
  const response = await current!.authjs(new Request(`${origin}/auth/session`, { headers: { cookie: req.headers.cookie ?? "" } }))
  return (await response.json()) as Session | null
}

/** The app's refusal, before (from @auth/express) and after (from latchkey): the import is the one line that changed. */
class AuthjsInvalidLogin extends AuthjsCredentialsSignin {
  override code = "invalid_login"
}
class InvalidLogin extends CredentialsSignin {
  override code = "invalid_login"
}

function authorizeThrowing(Refusal: new () => Error) {
  return async (credentials: Partial<Record<string, unknown>>) => {
    if (credentials.password !== "correct horse") throw new Refusal()
    return { id: "cred-ada", name: "Ada (password)", email: "ada@example.com" }
  }
}

/** Both apps, on one adapter and secret, with the same providers; `outbox` collects the links each sent. */
function movingApp(adapter: Adapter, strategy: Strategy, latchkeySecret: string | string[] = SECRET) {
  const outbox: string[] = []
  const errors: unknown[] = []
  const corp = { id: "corp", name: "Corp SSO", type: "oidc", issuer: idp.issuer, clientId: "corp-app", clientSecret: "corp-secret" } as const
  const email = { id: "email", type: "email", name: "Email", from: "auth@corp.example", maxAge: 24 * 60 * 60, sendVerificationRequest: ({ url }: { url: string }) => void outbox.push(url) } as const
  // Auth.js refuses credentials with database sessions, so they are on the JWT app only.
  const authjsProviders = [corp, { ...email, options: {} }, ...(strategy === "jwt" ? [{ id: "credentials", name: "Password", type: "credentials", credentials: { email: {}, password: {} }, authorize: authorizeThrowing(AuthjsInvalidLogin) }] : [])]
  const authjsConfig: AuthjsConfig = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    adapter: adapter as unknown as AuthjsAdapter,
    session: { strategy },
    providers: authjsProviders as AuthjsConfig["providers"],
    logger: { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} },
  }
  // The guide's Express config: the same providers, the same adapter, `basePath` kept at /auth.
  const latchkeyProviders: Provider[] = [corp, email satisfies EmailConfig, ...(strategy === "jwt" ? [Credentials({ credentials: { email: {}, password: {} }, authorize: authorizeThrowing(InvalidLogin) })] : [])]
  const latchkey = createAuth({ secret: latchkeySecret, trustHost: true, env: {}, adapter, session: { strategy }, providers: latchkeyProviders, logger: { error: (error) => void errors.push(error), warn: () => {} } })
  current = { serving: "authjs", latchkey, authjs: (request) => Auth(request, authjsConfig) }
  return {
    outbox,
    errors,
    serve(side: Side) {
      current!.serving = side
    },
  }
}

/** A browser of the app's origin, with the steps a user takes. */
function visitor() {
  const browser = new TestBrowser()
  return {
    browser,
    async me(): Promise<{ status: number; body: unknown }> {
      const { response } = await browser.open(`${origin}/me`)
      return { status: response.status, body: await response.json() }
    },
    async signInWithCorp() {
      idp.signInAs(ADA.sub)
      const { url } = await postForm(browser, "/auth/signin/corp", { csrfToken: await csrf(browser, origin), callbackUrl: `${origin}/home` }, origin)
      expect(url.href).toBe(`${origin}/home`)
    },
    async askForLink(address: string) {
      const { url } = await postForm(browser, "/auth/signin/email", { csrfToken: await csrf(browser, origin), email: address, callbackUrl: `${origin}/welcome` }, origin)
      expect(url.pathname).toBe("/auth/verify-request")
    },
    async openLink(link: string): Promise<URL> {
      return (await browser.open(link)).url
    },
    async signInWithPassword(password: string): Promise<URL> {
      return (await postForm(browser, "/auth/callback/credentials", { csrfToken: await csrf(browser, origin), email: "ada@example.com", password, callbackUrl: `${origin}/home` }, origin)).url
    },
  }
}

/** One database for the file (the users differ by test), as an app keeps its database across a deploy. */
let shared: Awaited<ReturnType<typeof store.setup>> | undefined
async function withAdapter(run: (adapter: Adapter) => Promise<void>) {
  shared ??= await store.setup()
  await run(shared.adapter)
}
afterAll(() => shared?.teardown())

describe(`an @auth/express app moved to latchkey (${store.name})`, () => {
  it("database sessions: the OIDC user stays signed in, a link in flight at the deploy signs in, and a latchkey link works after a rollback", () =>
    withAdapter(async (adapter) => {
      const app = movingApp(adapter, "database")
      const ada = visitor()
      const grace = visitor()
      const alan = visitor()
      app.serve("authjs")
      await ada.signInWithCorp()
      expect(await ada.me()).toEqual({ status: 200, body: { name: ADA.name, email: ADA.email } })
      await grace.askForLink("grace@example.com") // sent by Auth.js, opened after the deploy

      app.serve("latchkey")
      expect(await ada.me()).toEqual({ status: 200, body: { name: ADA.name, email: ADA.email } })
      expect(await grace.openLink(app.outbox[0]!)).toEqual(new URL(`${origin}/welcome`))
      expect(await grace.me()).toEqual({ status: 200, body: { name: null, email: "grace@example.com" } })
      await alan.askForLink("alan@example.com") // sent by latchkey, opened after a rollback
      // As in Auth.js, a followed link writes a user row and no account row.
      expect(await adapter.getUserByAccount!({ provider: "email", providerAccountId: "grace@example.com" })).toBeNull()

      app.serve("authjs")
      // Opened in the browser that asked: latchkey's sealed callback-url cookie has a name of its
      // own, so Auth.js (which asserts its authjs.callback-url is a plain URL) never reads it.
      expect(await alan.openLink(app.outbox[1]!)).toEqual(new URL(`${origin}/welcome`))
      expect(await alan.me()).toEqual({ status: 200, body: { name: null, email: "alan@example.com" } })
      expect(await grace.me()).toEqual({ status: 200, body: { name: null, email: "grace@example.com" } })
      expect(app.errors).toEqual([])
    }), 60_000)

  it("JWT sessions: a credentials user and an OIDC user stay signed in, and links cross the deploy both ways", () =>
    withAdapter(async (adapter) => {
      const app = movingApp(adapter, "jwt")
      const ada = visitor()
      const corpUser = visitor()
      const grace = visitor()
      app.serve("authjs")
      expect((await ada.signInWithPassword("wrong")).searchParams.get("code")).toBe("invalid_login")
      expect((await ada.signInWithPassword("correct horse")).href).toBe(`${origin}/home`)
      await corpUser.signInWithCorp()
      await grace.askForLink("grace@example.com")

      app.serve("latchkey")
      expect(await ada.me()).toEqual({ status: 200, body: { name: "Ada (password)", email: "ada@example.com" } })
      expect(await corpUser.me()).toEqual({ status: 200, body: { name: ADA.name, email: ADA.email } })
      expect(await grace.openLink(app.outbox[0]!)).toEqual(new URL(`${origin}/welcome`))
      expect(await grace.me()).toEqual({ status: 200, body: { name: null, email: "grace@example.com" } })
      // The same refusal code on latchkey, from the CredentialsSignin subclass the app kept.
      expect((await visitor().signInWithPassword("wrong")).searchParams.get("code")).toBe("invalid_login")
      await grace.askForLink("grace@example.com")

      app.serve("authjs")
      const again = visitor()
      expect(await again.openLink(app.outbox[1]!)).toEqual(new URL(`${origin}/welcome`))
      expect(await again.me()).toEqual({ status: 200, body: { name: null, email: "grace@example.com" } })
      expect(await ada.me()).toEqual({ status: 200, body: { name: "Ada (password)", email: "ada@example.com" } })
      // Auth.js logs a credentials refusal as an error; latchkey does not.
      expect(app.errors.map((error) => (error as Error).name)).toEqual(["AuthjsInvalidLogin"])
    }), 60_000)

  it("a link Auth.js sent still signs in when the deploy also adds a new secret (AUTH_SECRET_1)", () =>
    withAdapter(async (adapter) => {
      const app = movingApp(adapter, "database", ["latchkey-express-move-new-secret-0123456789", SECRET])
      const hedy = visitor()
      app.serve("authjs")
      await hedy.askForLink("hedy@example.com")
      app.serve("latchkey")
      expect(await hedy.openLink(app.outbox[0]!)).toEqual(new URL(`${origin}/welcome`))
      expect(await hedy.me()).toEqual({ status: 200, body: { name: null, email: "hedy@example.com" } })
    }), 60_000)

  it("a link latchkey stored in its old base64url form still signs in, and a used link does not sign in twice", () =>
    withAdapter(async (adapter) => {
      const app = movingApp(adapter, "database")
      app.serve("latchkey")
      const token = "old-form-token-0123456789"
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${token}${SECRET}`)))
      const base64url = Buffer.from(digest).toString("base64url")
      await adapter.createVerificationToken!({ identifier: "old-form@example.com", token: base64url, expires: new Date(Date.now() + 60_000) })
      const link = `${origin}/auth/callback/email?${new URLSearchParams({ token, email: "old-form@example.com", callbackUrl: `${origin}/welcome` })}`
      const old = visitor()
      expect(await old.openLink(link)).toEqual(new URL(`${origin}/welcome`))
      expect(await old.me()).toEqual({ status: 200, body: { name: null, email: "old-form@example.com" } })
      expect((await visitor().openLink(link)).searchParams.get("error")).toBe("Verification")
    }), 60_000)
})
