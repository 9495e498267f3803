/**
 * The adapter matrix: every Auth.js adapter latchkey is tested against, each on a store of its own.
 *
 * An entry's `setup()` makes a fresh store (a new PostgreSQL schema, MariaDB database, PGlite
 * instance or Redis key prefix), creates the adapter's documented tables from `sql/`, and returns
 * the adapter, typed as latchkey's `Adapter` without a cast, with a `teardown()` that drops the
 * store and closes its connections. `skipReason()` says why the entry cannot run here (its server
 * does not answer), or undefined; the in-process entries never skip.
 */
import { randomBytes } from "node:crypto"
import { readFile } from "node:fs/promises"
import { PGlite } from "@electric-sql/pglite"
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { KyselyAdapter, type Database } from "@auth/kysely-adapter"
import PostgresAdapter from "@auth/pg-adapter"
import { UnstorageAdapter } from "@auth/unstorage-adapter"
import { drizzle as drizzleNodePostgres } from "drizzle-orm/node-postgres"
import { drizzle as drizzlePglite } from "drizzle-orm/pglite"
import { Kysely, MysqlDialect, PostgresDialect, sql } from "kysely"
import { createPool } from "mysql2"
import mysql from "mysql2/promise"
import pg from "pg"
import { createStorage } from "unstorage"
import redisDriver from "unstorage/drivers/redis"
import type { Adapter } from "../../src/adapters/adapter.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { MARIADB, POSTGRES, PROBE_TIMEOUT_MS, REDIS, skipReasonFor as probe } from "../setup/services.js"


/** A live adapter on its own store. */
export interface AdapterStore {
  adapter: Adapter
  /** Drops the store (schema, database or keys) and closes every connection. */
  teardown(): Promise<void>
}

/** One adapter of the matrix. */
export interface MatrixEntry {
  name: string
  setup(): Promise<AdapterStore>
  /** Why this entry cannot run here, such as "PostgreSQL is not reachable at 127.0.0.1:5432 (ECONNREFUSED)". */
  skipReason(): Promise<string | undefined>
}

/** The entries, in the order they are reported. */
export const adapterMatrix: readonly MatrixEntry[] = [
  { name: "memory", setup: async () => ({ adapter: memoryAdapter(), teardown: async () => {} }), skipReason: never },
  {
    name: "pg",
    skipReason: probe("PostgreSQL", POSTGRES),
    async setup() {
      const { pool, dropSchema } = await postgresSchema("pg.sql")
      return { adapter: PostgresAdapter(pool), teardown: () => dropSchema().finally(() => pool.end()) }
    },
  },
  {
    name: "drizzle-pg",
    skipReason: probe("PostgreSQL", POSTGRES),
    async setup() {
      const { pool, dropSchema } = await postgresSchema("drizzle-pg.sql")
      return { adapter: DrizzleAdapter(drizzleNodePostgres({ client: pool })), teardown: () => dropSchema().finally(() => pool.end()) }
    },
  },
  {
    name: "drizzle-pglite",
    skipReason: never,
    async setup() {
      const client = new PGlite()
      await client.exec(await schemaFile("drizzle-pg.sql"))
      return { adapter: DrizzleAdapter(drizzlePglite({ client })), teardown: () => client.close() }
    },
  },
  {
    name: "kysely-pg",
    skipReason: probe("PostgreSQL", POSTGRES),
    async setup() {
      const { pool, dropSchema } = await postgresSchema("kysely-pg.sql")
      const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
      return { adapter: KyselyAdapter(db), teardown: () => dropSchema().finally(() => db.destroy()) }
    },
  },
  {
    name: "kysely-mariadb",
    skipReason: probe("MariaDB", MARIADB),
    async setup() {
      const database = uniqueName()
      const admin = await mysql.createConnection({ ...MARIADB, multipleStatements: true })
      try {
        await admin.query(`CREATE DATABASE ${database}; USE ${database}; ${await schemaFile("mariadb.sql")}`)
      } finally {
        await admin.end()
      }
      // timezone "Z": DATETIME columns are written and read as UTC, whatever the process's TZ.
      const pool = createPool({ ...MARIADB, database, timezone: "Z", connectionLimit: 4 })
      const db = new Kysely<Database>({ dialect: new MysqlDialect({ pool }) })
      const teardown = () => sql.raw(`DROP DATABASE ${database}`).execute(db).then(() => undefined).finally(() => db.destroy())
      return { adapter: KyselyAdapter(db), teardown }
    },
  },
  {
    name: "unstorage-redis",
    skipReason: probe("Redis", REDIS),
    async setup() {
      const storage = createStorage({ driver: redisDriver({ ...REDIS, base: uniqueName(), connectTimeout: PROBE_TIMEOUT_MS }) })
      // clear() removes only the keys under this run's base prefix.
      return { adapter: UnstorageAdapter(storage), teardown: () => storage.clear().finally(() => storage.dispose()) }
    },
  },
]

/** The skip probe of an in-process entry. */
async function never(): Promise<undefined> {
  return undefined
}

/** A probe that opens a TCP connection to the server and reports why it failed, if it did. */

/**
 * A fresh PostgreSQL schema holding the tables of `file`, and a pool whose search_path is that
 * schema, so the adapter's unqualified table names land there. The caller ends the pool.
 */
async function postgresSchema(file: string): Promise<{ pool: pg.Pool; dropSchema(): Promise<void> }> {
  const schema = uniqueName()
  const pool = new pg.Pool({ ...POSTGRES, options: `-c search_path=${schema}`, max: 4 })
  try {
    await pool.query(`CREATE SCHEMA ${schema}`)
    await pool.query(await schemaFile(file))
  } catch (failure) {
    await pool.end()
    throw failure
  }
  return { pool, dropSchema: () => pool.query(`DROP SCHEMA ${schema} CASCADE`).then(() => undefined) }
}

/** The SQL of `sql/<file>`. */
function schemaFile(file: string): Promise<string> {
  return readFile(new URL(`./sql/${file}`, import.meta.url), "utf8")
}

/** A name no other run uses: a schema, a database or a key prefix. Lowercase, so SQL needs no quotes. */
function uniqueName(): string {
  return `lk_${randomBytes(6).toString("hex")}`
}
