// The password-account attack suite's app, written from the contract (PASSWORDS-CONTRACT.md), not
// from the routes' code: createAuth with `Password({ sendEmail })` and the `passwords` plug-in on a
// real https origin, a captured mailbox (the array the app's `sendEmail` pushes to), a captured
// logger, and a browser-like cookie jar that sends what a browser sends and follows nothing on its
// own, so each answer can be read as it left the handler. Stores: memoryAdapter, and real
// PostgreSQL (@auth/pg-adapter) and MariaDB (@auth/kysely-adapter) with the one added `password`
// column and the two one-line adapter methods, each in a schema or database of its own.
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { KyselyAdapter, type Database } from "@auth/kysely-adapter"
import PostgresAdapter from "@auth/pg-adapter"
import type { Kysely } from "kysely"
import { drizzle as drizzlePglite } from "drizzle-orm/pglite"
import { expect, vi } from "vitest"
import type { Adapter } from "../../src/adapters/adapter.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import { passwords, passwordsWith } from "../../src/passwords/index.js"
import Password from "../../src/providers/password.js"
import { MARIADB, POSTGRES, skipReasonFor as probe } from "../setup/services.js"
import { mariadbDatabase, pgliteWith, postgresSchema, schemaFile } from "../adapters/fresh-stores.js"
import { recordingLogger } from "./support.js"

// Every flow hashes; on a shared machine a default 64 MiB scrypt can take seconds.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 })

/**
 * The plug-in the attacks run against: the routes as shipped, with scrypt at a test cost (the
 * logic under attack is the same at any cost; bench/password-enumeration.mjs times the defaults).
 * `LATCHKEY_ATTACK_DEFAULT_HASHING=1` runs the suite at the default cost.
 */
export const PLUG_IN = process.env.LATCHKEY_ATTACK_DEFAULT_HASHING ? passwords : passwordsWith({ scrypt: { ln: 12, r: 8, p: 1 }, allowWeakParameters: true })

export const ORIGIN = "https://app.example.com"
export const SECRET = "latchkey-password-attack-secret-0123456789"
export const SESSION = "__Secure-authjs.session-token"
export const STRATEGIES = ["jwt", "database"] as const
export type Strategy = (typeof STRATEGIES)[number]

/** Passwords long enough for the default policy (15 code points). */
export const PW = { ada: "ada lovelace's analytical engine", bob: "babbage difference engine no 2", eve: "eve wants in through the window", fresh: "a brand new passphrase for ada" }

/** One mail the app's `sendEmail` was handed. */
export interface Mail {
  to: string
  subject: string
  text: string
  html?: string
}

type PasswordOptions = NonNullable<Parameters<typeof Password>[0]>

export interface PasswordAppOptions {
  strategy: Strategy
  adapter?: Adapter
  /** Options of the Password provider besides `sendEmail`. */
  provider?: Partial<PasswordOptions>
  /** The rest of createAuth's options. */
  config?: Partial<AuthConfig>
  /** Another provider beside the password one (an OAuth one for the linking attacks). */
  providers?: AuthConfig["providers"]
}

/** The app: createAuth with the Password provider and the plug-in, a mailbox and a logger. */
export function passwordApp(options: PasswordAppOptions) {
  const mailbox: Mail[] = []
  const { logger, logged } = recordingLogger()
  const adapter = options.adapter ?? memoryAdapter()
  const provider = Password({ sendEmail: async (mail: Mail) => void mailbox.push(mail), ...options.provider } as PasswordOptions)
  const auth = createAuth({
    secret: SECRET,
    env: { AUTH_URL: `${ORIGIN}/auth` },
    adapter,
    session: { strategy: options.strategy },
    providers: [...(options.providers ?? []), provider],
    passwords: PLUG_IN,
    logger,
    ...options.config,
  } as AuthConfig)
  const handler = (request: Request) => auth.handler(request)
  return { auth, handler, adapter, mailbox, logged, browser: (headers: Record<string, string> = {}) => new Browser(handler, headers) }
}
export type PasswordApp = ReturnType<typeof passwordApp>

/**
 * A browser's cookie jar on ORIGIN: stores what Set-Cookie says (and forgets what it expires),
 * sends it back, and never follows a redirect itself. `headers` go on every request (such as the
 * client address the rate-limit tests set).
 */
export class Browser {
  readonly jar = new Map<string, string>()
  constructor(
    readonly handler: (request: Request) => Promise<Response>,
    readonly headers: Record<string, string> = {},
  ) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers({ ...this.headers, ...Object.fromEntries(new Headers(init.headers)) })
    const cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ")
    if (cookie) headers.set("cookie", cookie)
    const response = await this.handler(new Request(new URL(path, ORIGIN), { ...init, headers, redirect: "manual" }))
    this.accept(response)
    return response
  }

  accept(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const at = pair!.indexOf("=")
      const name = pair!.slice(0, at).trim()
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.jar.delete(name)
      else this.jar.set(name, pair!.slice(at + 1))
    }
  }

  /** The CSRF token (GET /csrf), its cookie kept. */
  async csrf(): Promise<string> {
    const response = await this.request("/auth/csrf")
    return ((await response.json()) as { csrfToken: string }).csrfToken
  }

  /**
   * A POST as latchkey/client sends it (form fields, `X-Auth-Return-Redirect: 1`, a fresh CSRF
   * token unless `csrfToken` is given), or as a plain HTML form when `form` is set.
   */
  async post(path: string, fields: Record<string, string>, options: { form?: boolean; csrfToken?: string | null; headers?: Record<string, string> } = {}): Promise<Response> {
    const csrfToken = options.csrfToken === undefined ? await this.csrf() : options.csrfToken
    const body = new URLSearchParams({ ...fields, ...(csrfToken === null ? {} : { csrfToken }) })
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", ...(options.form ? {} : { "x-auth-return-redirect": "1" }), ...options.headers }
    return this.request(path, { method: "POST", headers, body: body.toString() })
  }

  /** GET, following the handler's redirects inside ORIGIN (as a browser opening a mailed link). */
  async open(path: string, hops = 10): Promise<Response> {
    let response = await this.request(path)
    for (let hop = 0; hop < hops && response.status >= 300 && response.status < 400; hop++) {
      const next = new URL(response.headers.get("location")!, ORIGIN)
      if (next.origin !== ORIGIN || !next.pathname.startsWith("/auth")) return response
      response = await this.request(next.pathname + next.search)
    }
    return response
  }

  /** The session JSON (GET /session): null when signed out. */
  async session(): Promise<{ user?: { email?: string; name?: string; id?: string } } | null> {
    const response = await this.request("/auth/session")
    return (await response.json()) as { user?: { email?: string } } | null
  }

  /** A second browser with this one's cookies (a copied cookie jar: the same session elsewhere). */
  clone(): Browser {
    const copy = new Browser(this.handler, this.headers)
    for (const [name, value] of this.jar) copy.jar.set(name, value)
    return copy
  }
}

/** The JSON an answer carries (`{ url }` or `{ error, ... }`). */
export async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.clone().json()) as Record<string, unknown>
}

/** A refusal as the contract has it: 400–403 (429 for RateLimited) with the JSON error code. */
export async function expectRefused(answer: Response, error: string): Promise<void> {
  const body = await json(answer).catch(() => ({ error: `<not JSON: ${answer.headers.get("content-type")}>` }))
  const status = answer.status >= 400 && answer.status <= 403 ? "4xx" : String(answer.status)
  expect({ status, error: body.error }).toEqual({ status: error === "RateLimited" ? "429" : "4xx", error })
}

/**
 * The error code an answer carries however it is sent: JSON `{ error }`, JSON `{ url }` to a page
 * with `?error=`, or a redirect there; undefined when it carries none.
 */
export async function errorOf(answer: Response): Promise<string | undefined> {
  const location = answer.headers.get("location")
  if (location) return new URL(location, ORIGIN).searchParams.get("error") ?? undefined
  const body = await json(answer).catch(() => undefined)
  if (typeof body?.error === "string") return body.error
  return typeof body?.url === "string" ? (new URL(body.url, ORIGIN).searchParams.get("error") ?? undefined) : undefined
}

/** Whether an answer set a session cookie (signed this browser in). */
export function setsSession(response: Response): boolean {
  return response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION}=`) && !/max-age=0/i.test(line))
}

/** The links in a mail's text, on ORIGIN. */
export function linksIn(mail: Mail): URL[] {
  return [...mail.text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((match) => new URL(match[0])).filter((url) => url.origin === ORIGIN)
}

/** The one link of a kind (`verify-email`, `reset`, `confirm-email`) in the newest mail to `to`. */
export function linkTo(mailbox: Mail[], to: string, kind: "verify-email" | "reset" | "confirm-email"): URL {
  const mails = mailbox.filter((mail) => mail.to === to)
  for (const mail of mails.reverse()) {
    const link = linksIn(mail).find((url) => url.pathname.endsWith(`/password/${kind}`))
    if (link) return link
  }
  throw new Error(`no ${kind} link was mailed to ${to} (mails: ${JSON.stringify(mailbox.map((mail) => [mail.to, mail.subject]))})`)
}

/** The path and query of a link, for Browser.request. */
export const pathOf = (url: URL) => url.pathname + url.search

/** Signs up and follows the mailed verification link: a verified user, signed in in the returned browser. */
export async function account(app: PasswordApp, email: string, password: string, extra: Record<string, string> = {}): Promise<Browser> {
  const browser = app.browser()
  const answer = await browser.post("/auth/password/sign-up", { email, password, ...extra })
  if (answer.status !== 200) throw new Error(`sign-up of ${email} answered ${answer.status} ${await answer.text()}`)
  if ((await browser.session())?.user) return browser // verification off: signed in already
  await browser.open(pathOf(linkTo(app.mailbox, email, "verify-email")))
  const session = await browser.session()
  if (session?.user?.email !== email) throw new Error(`the verification link did not sign ${email} in: ${JSON.stringify(session)}`)
  return browser
}

/** A password sign-in in a fresh browser (JSON answer). */
export async function signIn(app: PasswordApp, email: string, password: string, browser = app.browser()): Promise<{ browser: Browser; response: Response }> {
  const response = await browser.post("/auth/callback/password", { email, password, callbackUrl: `${ORIGIN}/home` })
  return { browser, response }
}

/** Asks for a reset link and answers it (the newest reset link mailed to `email`). */
export async function resetLink(app: PasswordApp, email: string, browser = app.browser()): Promise<URL> {
  const answer = await browser.post("/auth/password/forgot", { email })
  if (answer.status !== 200) throw new Error(`forgot for ${email} answered ${answer.status} ${await answer.text()}`)
  return linkTo(app.mailbox, email, "reset")
}

/** Posts a reset from a mailed link's token and address (or the ones given). */
export function reset(browser: Browser, link: URL, password: string, override: { token?: string; email?: string } = {}): Promise<Response> {
  const token = override.token ?? link.searchParams.get("token") ?? ""
  const email = override.email ?? link.searchParams.get("email") ?? ""
  return browser.post("/auth/password/reset", { token, email, password })
}

/** A response as comparable text: status, headers with cookie values blanked, and the body. */
export async function shape(response: Response): Promise<{ status: number; headers: [string, string][]; body: string }> {
  const headers: [string, string][] = []
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") continue
    headers.push([name, value])
  }
  for (const line of response.headers.getSetCookie()) headers.push(["set-cookie", line.replace(/^([^=]+)=[^;]*/, "$1=<value>")])
  headers.sort(([a, x], [b, y]) => a.localeCompare(b) || x.localeCompare(y))
  return { status: response.status, headers, body: await response.clone().text() }
}

// ---------------------------------------------------------------------------------------------
// Real databases: each store a schema (PostgreSQL) or database (MariaDB) of its own, the Auth.js
// tables plus the one documented column, and the two methods as an app adds them.


export interface PasswordStore {
  name: string
  adapter: Adapter
  teardown(): Promise<void>
}

export interface StoreEntry {
  name: string
  skipReason(): Promise<string | undefined>
  setup(): Promise<PasswordStore>
}



export const STORES: readonly StoreEntry[] = [
  { name: "memory", skipReason: async () => undefined, setup: async () => ({ name: "memory", adapter: memoryAdapter(), teardown: async () => {} }) },
  {
    // The embedded default `npm run demo -- --db` and `latchkey init --database pglite` use: Drizzle on PGlite.
    name: "pglite",
    skipReason: async () => undefined,
    async setup() {
      const client = await pgliteWith(`${await schemaFile("drizzle-pg.sql")}\nALTER TABLE "user" ADD COLUMN password text;`)
      const adapter: Adapter = {
        ...DrizzleAdapter(drizzlePglite({ client })),
        getUserPassword: async (id) => (await client.query<{ password: string | null }>('select password from "user" where id = $1', [id])).rows[0]?.password ?? null,
        setUserPassword: async (id, hash) => void (await client.query('update "user" set password = $2 where id = $1', [id, hash])),
        deleteSessionsByUserId: async (id) => void (await client.query('delete from "session" where "userId" = $1', [id])),
      } as Adapter
      return { name: "pglite", adapter, teardown: () => client.close() }
    },
  },
  {
    name: "postgresql",
    skipReason: probe("PostgreSQL", POSTGRES),
    async setup() {
      const { pool, dropSchema } = await postgresSchema("pg.sql")
      // The one additive migration the contract documents.
      await pool.query("ALTER TABLE users ADD COLUMN password text")
      const adapter: Adapter = {
        ...PostgresAdapter(pool),
        // The two one-line methods, as the contract gives them for @auth/pg-adapter.
        getUserPassword: async (id) => (await pool.query("select password from users where id = $1", [id])).rows[0]?.password ?? null,
        setUserPassword: async (id, hash) => void (await pool.query("update users set password = $2 where id = $1", [id, hash])),
        deleteSessionsByUserId: async (id) => void (await pool.query('delete from sessions where "userId" = $1', [id])),
      } as Adapter
      return { name: "postgresql", adapter, teardown: () => dropSchema().finally(() => pool.end()) }
    },
  },
  {
    name: "mariadb",
    skipReason: probe("MariaDB", MARIADB),
    async setup() {
      // The one additive migration the contract documents.
      const { db, teardown } = await mariadbDatabase<Database & { User: { password: string | null } }>("mariadb.sql", "ALTER TABLE `User` ADD COLUMN password text")
      const adapter: Adapter = {
        ...KyselyAdapter(db as unknown as Kysely<Database>),
        getUserPassword: async (id) => (await db.selectFrom("User").select("password").where("id", "=", id).executeTakeFirst())?.password ?? null,
        setUserPassword: async (id, hash) => void (await db.updateTable("User").set({ password: hash }).where("id", "=", id).execute()),
        deleteSessionsByUserId: async (id) => void (await db.deleteFrom("Session").where("userId", "=", id).execute()),
      } as Adapter
      return { name: "mariadb", adapter, teardown }
    },
  },
]

export async function storesHere(): Promise<{ entry: StoreEntry; reason: string | undefined }[]> {
  const reasons = await Promise.all(STORES.map((entry) => entry.skipReason()))
  return STORES.map((entry, index) => {
    const reason = reasons[index]
    if (reason !== undefined && process.env.CI === "true") throw new Error(`CI needs ${entry.name}: ${reason}`)
    if (reason !== undefined) console.warn(`[password attacks] skipping ${entry.name}: ${reason}`)
    return { entry, reason }
  })
}
