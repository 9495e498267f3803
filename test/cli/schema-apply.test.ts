// `latchkey schema --apply` / `latchkey migrate` against real databases: PGlite in a directory,
// SQLite (better-sqlite3 on Node 20, node:sqlite where Node has it), PostgreSQL and MariaDB in
// `latchkey_cli_*` schemas and databases dropped afterwards. Each applies after showing the diff,
// asks first, is idempotent, and leaves tables the adapters then use unchanged.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { KyselyAdapter, type Database } from "@auth/kysely-adapter"
import { drizzle as drizzlePglite } from "drizzle-orm/pglite"
import { drizzle as drizzleMysql } from "drizzle-orm/mysql2"
import { Kysely, SqliteDialect } from "kysely"
import mysql from "mysql2/promise"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { runCli } from "../../src/cli/commands.js"
import { parseEnvText } from "../../src/cli/env-files.js"
import { schemaCommand } from "../../src/cli/schema/command.js"
import { directoryHost, type DirectoryHost } from "./schema-support-io.js"
import { roundTrip } from "./schema-roundtrip.js"
import { MARIADB, MARIADB_URL, mariadbDatabase, POSTGRES, POSTGRES_URL, probe, uniqueName } from "./schema-support.js"
import { sqliteUnavailable } from "../setup/services.js"

const cleanups: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

function host(answers: boolean[] = []): DirectoryHost {
  const made = directoryHost({}, answers)
  cleanups.push(made.remove)
  return made
}

function scratchDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-cli-db-"))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

const run = (made: DirectoryHost, ...args: string[]) => runCli(args, made.io, parseEnvText)

/** Asked and refused (except on PGlite, where each run boots a database: the other databases cover the question), then applied, then a second run with nothing to do. */
async function applyTwice(url: string, ...flags: string[]): Promise<{ first: DirectoryHost; second: DirectoryHost }> {
  if (!url.startsWith("pglite:")) {
    const refused = host([false])
    expect(await run(refused, "migrate", url, ...flags)).toBe(1)
    expect(refused.out.join("\n")).toMatch(/\+ create table/)
    expect(refused.err.join("\n")).toMatch(/Nothing was changed\. Run again with --yes/)
  }
  const first = host()
  expect(await run(first, "migrate", url, "--yes", ...flags)).toBe(0)
  expect(first.out.join("\n")).toMatch(/Applied \d+ statements/)
  const second = host()
  expect(await run(second, "schema", "--apply", url, "--yes", ...flags)).toBe(0)
  expect(second.out.join("\n")).toMatch(/nothing to do/)
  return { first, second }
}

describe("schema --apply on PGlite", () => {
  it("creates the tables once, in one transaction, and the Drizzle adapter uses them", async () => {
    // Nested, as init writes it (.data/pglite): the folders above PGlite's own are made too.
    const dir = `${scratchDirectory()}/data/pglite`
    const { first } = await applyTwice(`pglite:${dir}`, "--with", "database-sessions,email,passkeys")
    expect(first.out.join("\n")).toMatch(/in one transaction/)
    const client = new PGlite(dir)
    cleanups.push(() => client.close())
    await roundTrip(DrizzleAdapter(drizzlePglite({ client })), true)
  }, 60_000)
})

describe("schema --apply on SQLite", async () => {
  const reason = await sqliteUnavailable("the Drizzle and Kysely checks need it")
  if (reason !== undefined) console.warn(`[cli schema] SQLite is skipped: ${reason}`)

  it.skipIf(reason !== undefined)("applies once with the app's driver; Drizzle and Kysely use the tables", async () => {
    const dir = scratchDirectory()
    await applyTwice(`sqlite:${join(dir, "drizzle.db")}`, "--with", "database-sessions,email,passkeys")
    const Sqlite = (await import("better-sqlite3")).default
    const { drizzle } = await import("drizzle-orm/better-sqlite3")
    const drizzleDb = new Sqlite(join(dir, "drizzle.db"))
    cleanups.push(() => void drizzleDb.close())
    await roundTrip(DrizzleAdapter(drizzle({ client: drizzleDb })), true)
    await applyTwice(`sqlite:${join(dir, "kysely.db")}`, "--adapter", "kysely", "--with", "database-sessions,email")
    const kyselyDb = new Kysely<Database>({ dialect: new SqliteDialect({ database: new Sqlite(join(dir, "kysely.db")) }) })
    cleanups.push(() => kyselyDb.destroy())
    await roundTrip(KyselyAdapter(kyselyDb), false)
  }, 60_000)
})

describe("schema --apply on PostgreSQL", async () => {
  const reason = await probe("PostgreSQL", POSTGRES)()
  if (reason !== undefined) console.warn(`[cli schema] PostgreSQL is skipped: ${reason}`)
  if (reason !== undefined && process.env.CI === "true") throw new Error(`PostgreSQL is required under CI: ${reason}`)

  const schemaOf = async () => {
    const schema = uniqueName()
    const admin = new pg.Client(POSTGRES)
    await admin.connect()
    await admin.query(`CREATE SCHEMA ${schema}`)
    cleanups.push(() => admin.query(`DROP SCHEMA ${schema} CASCADE`).then(() => admin.end()))
    return { schema, admin }
  }

  it.skipIf(reason !== undefined)("applies into ?schema= once, for each flavour", async () => {
    for (const adapter of ["pg", "kysely", "drizzle"]) {
      const { schema, admin } = await schemaOf()
      await applyTwice(`${POSTGRES_URL}?schema=${schema}`, "--adapter", adapter, "--with", "database-sessions,email")
      const { rows } = await admin.query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name", [schema])
      expect(rows.map((row: { table_name: string }) => row.table_name)).toHaveLength(4)
    }
  }, 60_000)

  it.skipIf(reason !== undefined)("adds only what is missing: a column to an existing table, and a new feature's table", async () => {
    const { schema, admin } = await schemaOf()
    await admin.query(`CREATE TABLE ${schema}."user" ("id" text PRIMARY KEY, "name" text, "email" text UNIQUE, "emailVerified" timestamp, "legacy" text)`)
    const url = `${POSTGRES_URL}?schema=${schema}`
    const app = host()
    expect(await run(app, "migrate", url, "--yes", "--with", "email")).toBe(0)
    const diff = app.out.join("\n")
    expect(diff).toMatch(/\+ add column user\.image text/)
    expect(diff).toMatch(/\+ create table account/)
    expect(diff).toMatch(/\+ create table verificationToken/)
    expect(diff).not.toMatch(/create table user /)
    const more = host()
    expect(await run(more, "migrate", url, "--yes", "--with", "email,database-sessions")).toBe(0)
    expect(more.out.filter((line) => line.startsWith("  +"))).toEqual([expect.stringMatching(/^  \+ create table session \(sessionToken, userId, expires\)$/)])
    const { rows } = await admin.query(`SELECT "legacy" FROM ${schema}."user"`)
    expect(rows).toEqual([])
  }, 60_000)

  it.skipIf(reason !== undefined)("a failing statement rolls the whole plan back", async () => {
    const { schema, admin } = await schemaOf()
    // An index name is schema-wide in PostgreSQL: this one makes the plan's CREATE INDEX fail after its tables.
    await admin.query(`CREATE TABLE ${schema}.other (x int); CREATE INDEX "account_userId_index" ON ${schema}.other (x)`)
    const app = host()
    expect(await run(app, "migrate", `${POSTGRES_URL}?schema=${schema}`, "--yes")).toBe(1)
    expect(app.err.join("\n")).toMatch(/The database refused: 42P07/)
    const { rows } = await admin.query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1", [schema])
    expect(rows.map((row: { table_name: string }) => row.table_name)).toEqual(["other"])
  }, 60_000)
})

describe("schema --apply on MariaDB", async () => {
  const reason = await probe("MariaDB", MARIADB)()
  if (reason !== undefined) console.warn(`[cli schema] MariaDB is skipped: ${reason}`)
  if (reason !== undefined && process.env.CI === "true") throw new Error(`MariaDB is required under CI: ${reason}`)

  it.skipIf(reason !== undefined)("applies once, statement by statement, and Drizzle uses the tables", async () => {
    const { database, drop } = await mariadbDatabase("")
    cleanups.push(drop)
    const { first } = await applyTwice(`${MARIADB_URL}/${database}`, "--with", "database-sessions,email,passkeys")
    expect(first.out.join("\n")).not.toMatch(/in one transaction/)
    const pool = mysql.createPool({ ...MARIADB, database, timezone: "Z", connectionLimit: 2 })
    cleanups.push(() => pool.end())
    await roundTrip(DrizzleAdapter(drizzleMysql(pool, { mode: "default" })), true)
  }, 60_000)
})

describe("drivers", () => {
  it("a missing driver is named with its install line", async () => {
    const app = host()
    const absent = (name: string) => import(`latchkey-test-absent-${name.replace(/\W/g, "-")}`)
    for (const [url, driver] of [[POSTGRES_URL, "pg"], [`${MARIADB_URL}/x`, "mysql2/promise"], ["pglite:./data", "@electric-sql/pglite"]] as const) {
      expect(await schemaCommand(["--apply", url], app.io, absent)).toBe(1)
      expect(app.err.pop()).toMatch(new RegExp(`ERR_MISSING_DEPENDENCY: .*Install it: npm install ${driver.replace(/[/.]/g, "\\$&")}`))
    }
  })

  it("an unknown URL scheme lists the ones understood", async () => {
    const app = host()
    expect(await run(app, "migrate", "mongodb://x")).toBe(1)
    expect(app.err.join("\n")).toMatch(/ERR_CLI_DATABASE_URL: .*postgres:\/\/.*sqlite:/)
  })
})
