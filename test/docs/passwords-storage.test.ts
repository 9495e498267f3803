// docs/passwords.md's Storage section, as an app copies it. Each SQL line runs on a real database
// holding the Auth.js tables of the adapter it names (PostgreSQL and MariaDB on the machine, SQLite
// through better-sqlite3 where it loads), adds a nullable text column, and is the statement
// `latchkey migrate` writes for that adapter; the Prisma and Drizzle lines are what `latchkey
// schema` prints. The adapter methods run against the real adapters: pg-adapter on PostgreSQL,
// Kysely on MariaDB, Drizzle on PGlite. Prisma is not installed here: its snippet typechecks only.
import { readFile } from "node:fs/promises"
import { PGlite } from "@electric-sql/pglite"
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { KyselyAdapter, type Database } from "@auth/kysely-adapter"
import PostgresAdapter from "@auth/pg-adapter"
import * as drizzleOrm from "drizzle-orm"
import * as pgCore from "drizzle-orm/pg-core"
import { drizzle } from "drizzle-orm/pglite"
import { Kysely, MysqlDialect } from "kysely"
import { createPool } from "mysql2"
import mysql from "mysql2/promise"
import { afterAll, describe, expect, it } from "vitest"
import { drizzleSchemaFile } from "../../src/cli/schema/drizzle.js"
import type { Dialect, FlavourId } from "../../src/cli/schema/flavours.js"
import { NO_FEATURES } from "../../src/cli/schema/features.js"
import { physicalSchema } from "../../src/cli/schema/physical.js"
import { prismaSchemaFile } from "../../src/cli/schema/prisma.js"
import { addColumnStatement, schemaScript } from "../../src/cli/schema/sql.js"
import { MARIADB, mariadbDatabase, probe } from "../cli/schema-support.js"
import { sqliteUnavailable } from "../setup/services.js"
import { itTypechecks } from "../setup/typechecks.js"
import { postgresSchema, postgresSkipReason, runSnippet, snippet, snippetsOf, typecheck } from "./support.js"

const PAGE = "passwords.md"
const HEADINGS = ["Storage", "The two adapter methods"]
const SQL: Record<Dialect, ReturnType<typeof snippet>> = { postgres: snippet(PAGE, "sql", "-- PostgreSQL"), mysql: snippet(PAGE, "sql", "-- MySQL, MariaDB"), sqlite: snippet(PAGE, "sql", "-- SQLite") }
const PRISMA_MODEL = snippet(PAGE, "prisma", "password String?")
const DRIZZLE_TABLE = snippet(PAGE, "ts", 'password: text("password")')
const PG_METHODS = snippet(PAGE, "ts", "...PostgresAdapter(pool)")
const KYSELY_METHODS = snippet(PAGE, "ts", "...KyselyAdapter(db)")
const DRIZZLE_METHODS = snippet(PAGE, "ts", "...DrizzleAdapter(db,")
const PRISMA_METHODS = snippet(PAGE, "ts", "...PrismaAdapter(prisma)")
const HASH = "$scrypt$ln=16,r=8,p=2$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"

/** The adapter named in a line's comment, as a CLI flavour (Prisma reads Kysely's `User` table). */
const FLAVOUR_OF: Record<string, FlavourId> = { "@auth/pg-adapter": "pg", "@auth/kysely-adapter": "kysely", "@auth/drizzle-adapter": "drizzle" }

/** The statements of a SQL block, each with the flavour its comment names. */
function statementsOf(dialect: Dialect): Array<{ statement: string; flavour: FlavourId }> {
  return SQL[dialect].code
    .split("\n")
    .filter((line) => line.startsWith("ALTER"))
    .map((line) => {
      const [statement, comment] = line.split(/;\s*--\s*/)
      const flavour = FLAVOUR_OF[comment!.split(",")[0]!.trim()]
      if (flavour === undefined) throw new Error(`docs/${PAGE}: no adapter named in ${JSON.stringify(line)}`)
      return { statement: statement!.trim(), flavour }
    })
}

const quotesOff = (sql: string) => sql.replace(/["`]/g, "")
/** Every table an adapter stores, before passwords: what an Auth.js app has today. */
const beforePasswords = (flavour: FlavourId, dialect: Dialect) => schemaScript(physicalSchema(flavour, dialect, { ...NO_FEATURES, databaseSessions: true, email: true }), flavour)

const cleanups: Array<() => Promise<unknown> | unknown> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

describe("docs/passwords.md: Storage", () => {
  it("has no block under Storage that this file does not exercise", () => {
    const claimed = [...Object.values(SQL), PRISMA_MODEL, DRIZZLE_TABLE, PG_METHODS, KYSELY_METHODS, DRIZZLE_METHODS, PRISMA_METHODS].map((block) => block.line)
    const blocks = snippetsOf(PAGE).filter((block) => HEADINGS.includes(block.heading))
    expect(blocks.map((block) => block.line).filter((line) => !claimed.includes(line))).toEqual([])
  })

  it("each SQL line is the statement `latchkey migrate` writes for its adapter and database", () => {
    const lines = (Object.keys(SQL) as Dialect[]).flatMap((dialect) => statementsOf(dialect).map((entry) => ({ ...entry, dialect })))
    expect(lines).toHaveLength(7)
    for (const { statement, flavour, dialect } of lines) {
      const table = physicalSchema(flavour, dialect, { ...NO_FEATURES, passwords: true }).tables[0]!
      const column = table.columns.find((each) => each.name === "password")!
      expect(quotesOff(statement)).toBe(quotesOff(addColumnStatement(dialect, table.name, column)))
    }
  })

  it("the Prisma and Drizzle lines are what `latchkey schema` prints", () => {
    const field = PRISMA_MODEL.code.split("\n").find((line) => line.includes("password"))!.trim()
    expect(prismaSchemaFile("postgres", { ...NO_FEATURES, passwords: true })).toMatch(new RegExp(`model User \\{[^}]*\\n  ${field.replace(/\s+/, "\\s+").replace("?", "\\?")}\\n`))
    const line = DRIZZLE_TABLE.code.split("\n").find((each) => each.includes("password"))!.trim()
    expect(drizzleSchemaFile("postgres", { ...NO_FEATURES, passwords: true })).toContain(`\n    ${line}\n`)
  })

  itTypechecks("every ts block compiles as an app writes it", () => {
    const diagnostics = typecheck({
      "storage-schema-users.ts": DRIZZLE_TABLE.code,
      "storage-schema-others.ts": drizzleSchemaFile("postgres", { ...NO_FEATURES, databaseSessions: true, email: true }),
      "schema.ts": `export { users } from "./storage-schema-users"\nexport { accounts, sessions, verificationTokens } from "./storage-schema-others"\n`,
      "storage-pg.ts": `import type { Pool } from "pg"\ndeclare const pool: Pool\n${PG_METHODS.code}\n`,
      // Not exported here: the adapter's nested @auth/core copy cannot be named in a declaration file (TS2742),
      // which only a library emitting .d.ts files meets; an app's module compiles as written.
      "storage-kysely.ts": `import type { Kysely } from "kysely"\nimport type { Database } from "@auth/kysely-adapter"\ndeclare const db: Kysely<Database>\n${KYSELY_METHODS.code.replace("export const adapter", "const adapter")}\nvoid adapter\n`,
      "storage-drizzle.ts": `import type { PgliteDatabase } from "drizzle-orm/pglite"\ndeclare const db: PgliteDatabase\n${DRIZZLE_METHODS.code}\n`,
      // Prisma is not installed here: the adapter and the client are declared as their generated types read.
      "prisma-adapter.d.ts": PRISMA_ADAPTER,
      "storage-prisma.ts": `${PRISMA_CLIENT}\n${PRISMA_METHODS.code}\n`,
    })
    expect(diagnostics).toEqual([])
  }, 60_000)
})

/** `@auth/prisma-adapter` and a generated client's `user` delegate, as far as the snippet uses them. */
const PRISMA_ADAPTER = `declare module "@auth/prisma-adapter" { export function PrismaAdapter(prisma: unknown): import("@auth/core/adapters").Adapter }\n`
const PRISMA_CLIENT = `type UserRow = { id: string; password: string | null }
declare const prisma: { user: {
  findUnique(args: { where: { id: string }; select: { password: true } }): Promise<Pick<UserRow, "password"> | null>
  update(args: { where: { id: string }; data: { password: string | null } }): Promise<UserRow>
}; session: {
  deleteMany(args: { where: { userId: string } }): Promise<{ count: number }>
} }`

/** The two password methods of `adapter`, walked for `userId`: none, set, read back, removed. */
async function passwordTrip(adapter: { getUserPassword(id: string): Promise<string | null>; setUserPassword(id: string, hash: string | null): Promise<void> }, userId: string, unknownId: string) {
  expect(await adapter.getUserPassword(userId)).toBeNull()
  await adapter.setUserPassword(userId, HASH)
  expect(await adapter.getUserPassword(userId)).toBe(HASH)
  expect(await adapter.getUserPassword(unknownId)).toBeNull()
  await adapter.setUserPassword(userId, null)
  expect(await adapter.getUserPassword(userId)).toBeNull()
}

/** The snippet's `deleteSessionsByUserId` on the adapter's own session rows: the user's go, another user's stay. */
async function sessionsTrip(adapter: SessionRows, userId: string, otherId: string) {
  const expires = new Date(Date.now() + 3_600_000)
  for (const [sessionToken, owner] of [["trip-1", userId], ["trip-2", userId], ["trip-3", otherId]] as const) await adapter.createSession({ sessionToken, userId: owner, expires })
  await adapter.deleteSessionsByUserId(userId)
  expect(await adapter.getSessionAndUser("trip-1")).toBeNull()
  expect(await adapter.getSessionAndUser("trip-2")).toBeNull()
  expect((await adapter.getSessionAndUser("trip-3"))?.session.userId).toBe(otherId)
}

interface SessionRows {
  createSession(session: { sessionToken: string; userId: string; expires: Date }): Promise<unknown>
  getSessionAndUser(sessionToken: string): Promise<{ session: { userId: string } } | null>
  deleteSessionsByUserId(userId: string): Promise<void>
}

const otherUser = (adapter: { createUser(user: object): Promise<{ id: string }> }, id: string) => adapter.createUser({ id, name: "Grace", email: "grace@example.com", emailVerified: null, image: null })

describe("docs/passwords.md: Storage on PostgreSQL", async () => {
  const reason = await postgresSkipReason()
  if (reason !== undefined) console.warn(`[docs passwords storage] PostgreSQL is skipped: ${reason}`)

  it.skipIf(reason !== undefined)("each PostgreSQL line adds a nullable text column to its adapter's documented tables", async () => {
    const files: Record<FlavourId, string> = { pg: "pg.sql", kysely: "kysely-pg.sql", drizzle: "drizzle-pg.sql" }
    for (const { statement, flavour } of statementsOf("postgres")) {
      const { pool, schema, drop } = await postgresSchema(files[flavour])
      cleanups.push(drop)
      await pool.query(statement)
      const { rows } = await pool.query("SELECT table_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = $1 AND column_name = 'password'", [schema])
      expect(rows).toEqual([{ table_name: physicalSchema(flavour, "postgres", NO_FEATURES).tables[0]!.name, data_type: "text", is_nullable: "YES" }])
    }
  }, 60_000)

  it.skipIf(reason !== undefined)("the pg-adapter methods read and write users.password beside the real adapter", async () => {
    const { pool, drop } = await postgresSchema("pg.sql")
    cleanups.push(drop)
    await pool.query(statementsOf("postgres").find((entry) => entry.flavour === "pg")!.statement)
    const { adapter } = await runSnippet(PG_METHODS.code, { "@auth/pg-adapter": { default: PostgresAdapter } }, { pool })
    const user = await adapter.createUser({ id: "", name: "Ada", email: "ada@example.com", emailVerified: null, image: null })
    await passwordTrip(adapter, user.id, "999999")
    await sessionsTrip(adapter, user.id, (await otherUser(adapter, "")).id)
    await adapter.setUserPassword(user.id, HASH)
    // pg-adapter's `select *` hands the column back: what latchkey strips before callbacks see a user.
    expect(await adapter.getUserByEmail("ada@example.com")).toMatchObject({ id: user.id, password: HASH })
  }, 60_000)
})

describe("docs/passwords.md: Storage on MariaDB", async () => {
  const reason = await probe("MariaDB", MARIADB)()
  if (reason !== undefined) console.warn(`[docs passwords storage] MariaDB is skipped: ${reason}`)
  if (reason !== undefined && process.env.CI === "true") throw new Error(`MariaDB is required under CI: ${reason}`)

  it.skipIf(reason !== undefined)("each MySQL line adds a nullable text column; the Kysely methods run on the real adapter", async () => {
    const kyselyTables = await readFile(new URL("../adapters/sql/mariadb.sql", import.meta.url), "utf8")
    for (const { statement, flavour } of statementsOf("mysql")) {
      const { database, drop } = await mariadbDatabase(flavour === "kysely" ? kyselyTables : beforePasswords(flavour, "mysql").replace(/\n\n/g, "\n"))
      cleanups.push(drop)
      const connection = await mysql.createConnection({ ...MARIADB, database })
      await connection.query(statement)
      const [rows] = await connection.query("SELECT TABLE_NAME, DATA_TYPE, IS_NULLABLE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND COLUMN_NAME = 'password'", [database])
      await connection.end()
      expect(rows).toEqual([{ TABLE_NAME: physicalSchema(flavour, "mysql", NO_FEATURES).tables[0]!.name, DATA_TYPE: "text", IS_NULLABLE: "YES" }])
      if (flavour !== "kysely") continue
      const db = new Kysely<Database>({ dialect: new MysqlDialect({ pool: createPool({ ...MARIADB, database, timezone: "Z", connectionLimit: 2 }) }) })
      cleanups.push(() => db.destroy())
      const { adapter } = await runSnippet(KYSELY_METHODS.code, { "@auth/kysely-adapter": { KyselyAdapter } }, { db })
      const user = await adapter.createUser({ id: crypto.randomUUID(), name: "Ada", email: "ada@example.com", emailVerified: null, image: null })
      await passwordTrip(adapter, user.id, crypto.randomUUID())
      await sessionsTrip(adapter, user.id, (await otherUser(adapter, crypto.randomUUID())).id)
      expect(await adapter.getUser(user.id)).toMatchObject({ id: user.id, name: "Ada" })
    }
  }, 60_000)
})

describe("docs/passwords.md: Storage on SQLite", async () => {
  const reason = await sqliteUnavailable("it loads on Node 20")
  if (reason !== undefined) console.warn(`[docs passwords storage] SQLite is skipped: ${reason}`)

  it.skipIf(reason !== undefined)("each SQLite line adds a nullable text column to its adapter's tables", async () => {
    const Sqlite = (await import("better-sqlite3")).default
    for (const { statement, flavour } of statementsOf("sqlite")) {
      const db = new Sqlite(":memory:")
      cleanups.push(() => db.close())
      db.exec(beforePasswords(flavour, "sqlite"))
      db.exec(statement)
      const table = physicalSchema(flavour, "sqlite", NO_FEATURES).tables[0]!.name
      expect(db.prepare(`SELECT name, type, "notnull" FROM pragma_table_info(?) WHERE name = 'password'`).all(table)).toEqual([{ name: "password", type: "TEXT", notnull: 0 }])
    }
  })
})

describe("docs/passwords.md: Storage with Drizzle on PGlite", () => {
  it("the users table with its password line, and the Drizzle methods, run on the real adapter", async () => {
    const client = new PGlite()
    cleanups.push(() => client.close())
    await client.exec(await readFile(new URL("../adapters/sql/drizzle-pg.sql", import.meta.url), "utf8"))
    await client.exec(statementsOf("postgres").find((entry) => entry.flavour === "drizzle")!.statement)
    const { users } = await runSnippet(DRIZZLE_TABLE.code, { "drizzle-orm/pg-core": pgCore })
    const others = await runSnippet(drizzleSchemaFile("postgres", { ...NO_FEATURES, databaseSessions: true, email: true }), { "drizzle-orm/pg-core": pgCore })
    const schema = { users, accounts: others.accounts, sessions: others.sessions, verificationTokens: others.verificationTokens }
    const db = drizzle({ client })
    const { adapter } = await runSnippet(DRIZZLE_METHODS.code, { "@auth/drizzle-adapter": { DrizzleAdapter }, "drizzle-orm": drizzleOrm, "./schema": schema }, { db })
    const user = await adapter.createUser({ id: crypto.randomUUID(), name: "Ada", email: "ada@example.com", emailVerified: null, image: null })
    await passwordTrip(adapter, user.id, crypto.randomUUID())
    await sessionsTrip(adapter, user.id, (await otherUser(adapter, crypto.randomUUID())).id)
    await adapter.setUserPassword(user.id, HASH)
    expect((await client.query<{ password: string }>(`SELECT "password" FROM "user" WHERE "id" = $1`, [user.id])).rows).toEqual([{ password: HASH }])
  }, 60_000)
})
