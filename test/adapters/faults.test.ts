// A real database connection dropped in the middle of a sign-in: PostgreSQL terminates the
// connection that runs linkAccount, after createUser. Nothing may be left half-written (a user holding
// the email without its account would turn the retry into OAuthAccountNotLinked), and the retry
// must sign in. Skips, with the reason printed, when PostgreSQL is not running.
import { randomBytes } from "node:crypto"
import { readFile } from "node:fs/promises"
import PostgresAdapter from "@auth/pg-adapter"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { corpProvider, csrfOf, post, secureApp, sessionOf } from "../security/support.js"
import { adapterMatrix } from "./matrix.js"

const POSTGRES = { host: "127.0.0.1", port: 5432, user: "postgres", database: "test" }
const ADA = { sub: "ada-fault", email: "ada.fault@example.com", name: "Ada" }
const idp = corpProvider([ADA])
const reason = await adapterMatrix.find((entry) => entry.name === "pg")!.skipReason()
if (reason !== undefined) console.warn(`[adapter faults] skipping: ${reason}`)

describe.skipIf(reason !== undefined)(reason === undefined ? "PostgreSQL connections dropped mid-flow" : `PostgreSQL connections dropped mid-flow (skipped: ${reason})`, () => {
  const schema = `lk_${randomBytes(6).toString("hex")}`
  const admin = new pg.Client(POSTGRES)
  const pool = new pg.Pool({ ...POSTGRES, options: `-c search_path=${schema}`, max: 4 })
  // A terminated idle connection is reported on the pool; the pool replaces it.
  pool.on("error", () => {})

  beforeAll(async () => {
    await admin.connect()
    await admin.query(`CREATE SCHEMA ${schema}`)
    await pool.query(await readFile(new URL("./sql/pg.sql", import.meta.url), "utf8"))
  })
  afterAll(async () => {
    await pool.end()
    await admin.query(`DROP SCHEMA ${schema} CASCADE`)
    await admin.end()
  })

  const count = async (table: string) => Number((await admin.query(`SELECT count(*) FROM ${schema}.${table}`)).rows[0].count)

  /**
   * The pool as the adapter sees it, where the first query matching `pattern` runs on a connection
   * PostgreSQL has just terminated (it kills its own backend first), as when a database restarts
   * under the app. Every other query, and every later one, gets a healthy connection.
   */
  function dropConnectionOn(pattern: RegExp): { pool: pg.Pool; dropped: () => number } {
    let dropped = 0
    const faulty = {
      async query(text: string, values?: unknown[]) {
        if (dropped > 0 || !pattern.test(text)) return pool.query(text, values)
        dropped++
        const client = await pool.connect()
        // The terminated connection reports itself on the client too; the failing query is the point.
        client.on("error", () => {})
        try {
          await client.query("SELECT pg_terminate_backend(pg_backend_pid())").catch(() => undefined)
          return await client.query(text, values)
        } finally {
          client.release(true)
        }
      },
    }
    return { pool: faulty as unknown as pg.Pool, dropped: () => dropped }
  }

  it("a sign-in whose connection dies at linkAccount (after createUser) leaves nothing half-written, and the retry signs in", async () => {
    const { pool: faulty, dropped } = dropConnectionOn(/insert into accounts/i)
    const site = secureApp({ providers: [idp.provider()], adapter: PostgresAdapter(faulty), logger: { error: () => {}, warn: () => {} } })
    const browser = site.browser()
    idp.signInAs(ADA.sub)
    const failed = await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
    expect(dropped()).toBe(1)
    expect(failed.url.searchParams.get("error")).toBe("Configuration")
    expect(await count("users")).toBe(0)
    expect(await count("accounts")).toBe(0)
    expect(await count("sessions")).toBe(0)

    await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
    expect(await sessionOf(browser)).toMatchObject({ user: { email: ADA.email } })
    expect(await count("users")).toBe(1)
    expect(await count("accounts")).toBe(1)
    expect(await count("sessions")).toBe(1)
  }, 30_000)

  it("a session read whose connection dies answers signed out (never a 500), and the next read recovers", async () => {
    const healthy = secureApp({ providers: [idp.provider()], adapter: PostgresAdapter(pool), logger: { error: () => {}, warn: () => {} } })
    const browser = healthy.browser()
    idp.signInAs(ADA.sub)
    await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
    const cookie = browser.cookies("https://app.example.com").get("__Secure-authjs.session-token")
    expect(cookie).toBeDefined()
    // The session is bound to this browser's CSRF cookie, which goes along as the browser's would.
    const binding = browser.cookies("https://app.example.com").get("__Host-authjs.csrf-token")
    const { pool: faulty, dropped } = dropConnectionOn(/from sessions/i)
    const site = secureApp({ providers: [idp.provider()], adapter: PostgresAdapter(faulty), logger: { error: () => {}, warn: () => {} } })
    const read = () => site.handler(new Request("https://app.example.com/auth/session", { headers: { cookie: `__Secure-authjs.session-token=${cookie}; __Host-authjs.csrf-token=${binding}` } }))
    const during = await read()
    expect(dropped()).toBe(1)
    expect(during.status).toBe(200)
    expect(await during.json()).toBeNull()
    expect(await (await read()).json()).toMatchObject({ user: { email: ADA.email } })
  }, 30_000)
})
