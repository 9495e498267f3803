// The Drizzle schema file `latchkey schema --format drizzle` writes, imported as an app would and
// handed to DrizzleAdapter over the tables of the generated SQL: the two outputs agree column for
// column, on PostgreSQL (PGlite) and on SQLite.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { PGlite } from "@electric-sql/pglite"
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { drizzle as drizzlePglite } from "drizzle-orm/pglite"
import { afterAll, expect, it } from "vitest"
import { drizzleSchemaFile } from "../../src/cli/schema/drizzle.js"
import type { Dialect } from "../../src/cli/schema/flavours.js"
import { generatedSql } from "./schema-support.js"
import { roundTrip } from "./schema-roundtrip.js"

// Inside the worktree, so the file's `drizzle-orm/*` imports resolve from its node_modules.
const dir = mkdtempSync(join(new URL(".", import.meta.url).pathname, "generated-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const ALL = { databaseSessions: true, email: true, passkeys: true, passwords: true }

/** The generated file's tables, loaded, in the shape DrizzleAdapter's second argument takes. */
async function generatedTables(dialect: Dialect): Promise<{ usersTable: never; accountsTable: never; sessionsTable: never; verificationTokensTable: never; authenticatorsTable: never }> {
  const file = join(dir, `${dialect}.ts`)
  writeFileSync(file, drizzleSchemaFile(dialect, ALL))
  const module = (await import(pathToFileURL(file).href)) as Record<string, never>
  return { usersTable: module.users!, accountsTable: module.accounts!, sessionsTable: module.sessions!, verificationTokensTable: module.verificationTokens!, authenticatorsTable: module.authenticators! }
}

it("the PostgreSQL file drives DrizzleAdapter over the generated SQL", async () => {
  const client = new PGlite()
  try {
    await client.exec(generatedSql("drizzle", "postgres"))
    await roundTrip(DrizzleAdapter(drizzlePglite({ client }), await generatedTables("postgres")), true)
  } finally {
    await client.close()
  }
}, 60_000)

it("the SQLite file drives DrizzleAdapter over the generated SQL", async (context) => {
  let Sqlite: typeof import("better-sqlite3")
  try {
    Sqlite = (await import("better-sqlite3")).default
    new Sqlite(":memory:").close()
  } catch (failure) {
    const reason = `better-sqlite3 cannot load on Node ${process.versions.node}: ${(failure as Error).message.split("\n")[0]}`
    console.warn(`[cli schema] ${reason}`)
    return context.skip(reason)
  }
  const { drizzle } = await import("drizzle-orm/better-sqlite3")
  const db = new Sqlite(":memory:")
  try {
    db.exec(generatedSql("drizzle", "sqlite"))
    await roundTrip(DrizzleAdapter(drizzle({ client: db }), await generatedTables("sqlite")), true)
  } finally {
    db.close()
  }
})

it("the MySQL file declares what the adapter's defaults declare", () => {
  const text = drizzleSchemaFile("mysql", ALL)
  expect(text).toMatch(/import \{ boolean, int, mysqlTable, primaryKey, text, timestamp, varchar \} from "drizzle-orm\/mysql-core"/)
  expect(text).toMatch(/emailVerified: timestamp\("emailVerified", \{ mode: "date", fsp: 3 \}\)/)
  expect(text).toMatch(/\(table\) => \[primaryKey\(\{ columns: \[table\.userId, table\.credentialID\] \}\)\]/)
})
