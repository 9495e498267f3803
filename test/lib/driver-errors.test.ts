// lib/driver-errors.ts against the real drivers' errors: a missing table and a missing column on
// PostgreSQL (pg and PGlite), MariaDB (mysql2) and SQLite (better-sqlite3), and a duplicate email,
// whose driver message quotes the email and must not be passed on. A server that is not running
// skips its case with the reason (and fails under CI=true).
import { PGlite } from "@electric-sql/pglite"
import Database from "better-sqlite3"
import { createConnection } from "mysql2/promise"
import pg from "pg"
import { describe, expect, it } from "vitest"
import { driverErrorHint } from "../../src/lib/driver-errors.js"
import { MARIADB, POSTGRES, unreachable } from "../setup/services.js"


const [noPostgres, noMariaDb] = await Promise.all([unreachable("PostgreSQL", POSTGRES), unreachable("MariaDB", MARIADB)])
for (const reason of [noPostgres, noMariaDb]) {
  if (reason !== undefined && process.env.CI === "true") throw new Error(`CI needs the database: ${reason}`)
  if (reason !== undefined) console.warn(`[driver errors] skipping a database: ${reason}`)
}

/** What `run` threw. */
async function failureOf(run: () => unknown): Promise<unknown> {
  try {
    await run()
  } catch (error) {
    return error
  }
  throw new Error("expected the query to fail")
}

const MISSING_TABLE = /the table "lk_dx_missing" is missing: create the tables with `latchkey schema`$/
const MISSING_COLUMN = /the column "lk_dx_nope" is missing/

describe("driver errors, in words", () => {
  it.skipIf(noPostgres !== undefined)("PostgreSQL (pg): 42P01 and 42703 name the table and the column", async () => {
    const client = new pg.Client({ host: "127.0.0.1", port: 5432, user: "postgres", database: "test" })
    await client.connect()
    try {
      expect(driverErrorHint(await failureOf(() => client.query("SELECT * FROM lk_dx_missing")))).toMatch(/^PostgreSQL 42P01: /)
      expect(driverErrorHint(await failureOf(() => client.query("SELECT * FROM lk_dx_missing")))).toMatch(MISSING_TABLE)
      expect(driverErrorHint(await failureOf(() => client.query("SELECT lk_dx_nope FROM pg_class LIMIT 1")))).toMatch(MISSING_COLUMN)
    } finally {
      await client.end()
    }
  })

  it("PostgreSQL (PGlite): the same codes, the same words", async () => {
    const db = new PGlite()
    expect(driverErrorHint(await failureOf(() => db.query("SELECT * FROM lk_dx_missing")))).toMatch(MISSING_TABLE)
    await db.close()
  }, 60_000)

  it.skipIf(noMariaDb !== undefined)("MariaDB (mysql2): ER_NO_SUCH_TABLE and ER_BAD_FIELD_ERROR; a duplicate entry without its value", async () => {
    const db = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", database: "test" })
    const table = `lk_dx_${process.pid}_${Date.now()}`
    try {
      expect(driverErrorHint(await failureOf(() => db.query("SELECT * FROM lk_dx_missing")))).toMatch(/^MySQL ER_NO_SUCH_TABLE: /)
      expect(driverErrorHint(await failureOf(() => db.query("SELECT * FROM lk_dx_missing")))).toMatch(MISSING_TABLE)
      await db.query(`CREATE TABLE ${table} (email VARCHAR(100) UNIQUE)`)
      expect(driverErrorHint(await failureOf(() => db.query(`SELECT lk_dx_nope FROM ${table}`)))).toMatch(MISSING_COLUMN)
      await db.query(`INSERT INTO ${table} (email) VALUES ('ada@example.com')`)
      const duplicate = await failureOf(() => db.query(`INSERT INTO ${table} (email) VALUES ('ada@example.com')`))
      expect(String((duplicate as Error).message)).toContain("ada@example.com")
      expect(driverErrorHint(duplicate)).toBe("MySQL ER_DUP_ENTRY: a unique column already holds this value")
    } finally {
      await db.query(`DROP TABLE IF EXISTS ${table}`)
      await db.end()
    }
  })

  // better-sqlite3 is built for the Node that installed it (CI's Node 20): elsewhere it cannot load.
  const sqliteReason = (() => {
    try {
      new Database(":memory:").close()
      return undefined
    } catch (failure) {
      return `better-sqlite3 cannot load on Node ${process.versions.node}: ${(failure as Error).message.split("\n")[0]}`
    }
  })()
  if (sqliteReason !== undefined) console.warn(`[driver errors] SQLite is skipped: ${sqliteReason}`)

  it.skipIf(sqliteReason !== undefined)("SQLite (better-sqlite3): no such table, no such column", async () => {
    const db = new Database(":memory:")
    db.exec("CREATE TABLE users (id TEXT)")
    expect(driverErrorHint(await failureOf(() => db.prepare("SELECT * FROM lk_dx_missing").all()))).toMatch(/^SQLite SQLITE_ERROR: the table "lk_dx_missing" is missing/)
    expect(driverErrorHint(await failureOf(() => db.prepare("SELECT lk_dx_nope FROM users").all()))).toMatch(/^SQLite SQLITE_ERROR: the column "lk_dx_nope" is missing/)
    db.close()
  })

  it("what is not a database driver's code gets no hint, and a name that is not an identifier is not quoted", () => {
    expect(driverErrorHint(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }))).toBeUndefined()
    expect(driverErrorHint(Object.assign(new Error("disk full"), { code: "ENOSPC" }))).toBeUndefined()
    expect(driverErrorHint(new Error("no code"))).toBeUndefined()
    const odd = { code: "42P01", message: 'relation "x; DROP TABLE users" does not exist' }
    expect(driverErrorHint(odd)).toBe("PostgreSQL 42P01: the table (named in the driver's error) is missing: create the tables with `latchkey schema`")
  })
})
