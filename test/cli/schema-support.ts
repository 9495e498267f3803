/**
 * Stores made from the SQL `latchkey schema` writes: a fresh PostgreSQL schema, MariaDB database,
 * PGlite instance or SQLite file each, named `latchkey_cli_*` so parallel runs never collide, and
 * dropped afterwards. The adapter matrix of test/adapters is rebuilt over them, with the same entry
 * names so the contract's written-down quirks apply unchanged, except MariaDB's: its generated
 * `email` compares exactly (utf8mb4_bin), a departure of the hand-written schema's it does not share.
 */
import { randomBytes } from "node:crypto"
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { KyselyAdapter, type Database } from "@auth/kysely-adapter"
import PostgresAdapter from "@auth/pg-adapter"
import { drizzle as drizzleNodePostgres } from "drizzle-orm/node-postgres"
import { drizzle as drizzlePglite } from "drizzle-orm/pglite"
import { Kysely, MysqlDialect, PostgresDialect, sql } from "kysely"
import { createPool } from "mysql2"
import mysql from "mysql2/promise"
import pg from "pg"
import { pgliteWith } from "../adapters/fresh-stores.js"
import type { MatrixEntry } from "../adapters/matrix.js"
import { physicalSchema } from "../../src/cli/schema/physical.js"
import { FLAVOURS, type Dialect, type FlavourId } from "../../src/cli/schema/flavours.js"
import { schemaScript } from "../../src/cli/schema/sql.js"

import { MARIADB, POSTGRES } from "../setup/services.js"
export { MARIADB, POSTGRES }
export const POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test"
export const MARIADB_URL = "mysql://root@127.0.0.1:3306"

/** Every table each flavour can store. */
export function generatedSql(flavour: FlavourId, dialect: Dialect): string {
  const features = { databaseSessions: true, email: true, passkeys: FLAVOURS[flavour].storesAuthenticators, passwords: true }
  return schemaScript(physicalSchema(flavour, dialect, features), FLAVOURS[flavour].adapterPackage)
}

/** A name no other run uses, lowercase so SQL needs no quotes. */
export function uniqueName(): string {
  return `latchkey_cli_${randomBytes(5).toString("hex")}`
}

import { skipReasonFor as probe } from "../setup/services.js"
export { probe }

/** A fresh PostgreSQL schema holding `script`, with a pool whose search_path is that schema. */
export async function postgresSchema(script: string): Promise<{ pool: pg.Pool; schema: string; dropSchema(): Promise<void> }> {
  const schema = uniqueName()
  const pool = new pg.Pool({ ...POSTGRES, options: `-c search_path=${schema}`, max: 4 })
  try {
    await pool.query(`CREATE SCHEMA ${schema}`)
    if (script !== "") await pool.query(script)
  } catch (failure) {
    await pool.end()
    throw failure
  }
  return { pool, schema, dropSchema: () => pool.query(`DROP SCHEMA ${schema} CASCADE`).then(() => undefined) }
}

/** A fresh MariaDB database holding `script`. */
export async function mariadbDatabase(script: string): Promise<{ database: string; drop(): Promise<void> }> {
  const database = uniqueName()
  const admin = await mysql.createConnection({ ...MARIADB, multipleStatements: true })
  try {
    await admin.query(`CREATE DATABASE ${database}; USE ${database}; ${script}`)
  } finally {
    await admin.end()
  }
  const drop = async () => {
    const connection = await mysql.createConnection(MARIADB)
    await connection.query(`DROP DATABASE IF EXISTS ${database}`).finally(() => connection.end())
  }
  return { database, drop }
}

const never = async (): Promise<undefined> => undefined

/** The adapter matrix over generated schemas; names match test/adapters/contract.test.ts's quirks. */
export const generatedMatrix: MatrixEntry[] = [
  {
    name: "pg",
    skipReason: probe("PostgreSQL", POSTGRES),
    async setup() {
      const { pool, dropSchema } = await postgresSchema(generatedSql("pg", "postgres"))
      return { adapter: PostgresAdapter(pool), teardown: () => dropSchema().finally(() => pool.end()) }
    },
  },
  {
    name: "drizzle-pg",
    skipReason: probe("PostgreSQL", POSTGRES),
    async setup() {
      const { pool, dropSchema } = await postgresSchema(generatedSql("drizzle", "postgres"))
      return { adapter: DrizzleAdapter(drizzleNodePostgres({ client: pool })), teardown: () => dropSchema().finally(() => pool.end()) }
    },
  },
  {
    name: "drizzle-pglite",
    skipReason: never,
    async setup() {
      const client = await pgliteWith(generatedSql("drizzle", "postgres"))
      return { adapter: DrizzleAdapter(drizzlePglite({ client })), teardown: () => client.close() }
    },
  },
  {
    name: "kysely-pg",
    skipReason: probe("PostgreSQL", POSTGRES),
    async setup() {
      const { pool, dropSchema } = await postgresSchema(generatedSql("kysely", "postgres"))
      const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
      return { adapter: KyselyAdapter(db), teardown: () => dropSchema().finally(() => db.destroy()) }
    },
  },
  {
    name: "kysely-mariadb (latchkey schema)",
    skipReason: probe("MariaDB", MARIADB),
    async setup() {
      const { database, drop } = await mariadbDatabase(generatedSql("kysely", "mysql"))
      const pool = createPool({ ...MARIADB, database, timezone: "Z", connectionLimit: 4 })
      const db = new Kysely<Database>({ dialect: new MysqlDialect({ pool }) })
      return { adapter: KyselyAdapter(db), teardown: () => db.destroy().finally(drop) }
    },
  },
]

export { sql }
