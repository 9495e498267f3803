/**
 * The adapter matrix: every Auth.js adapter latchkey is tested against, each on a store of its own.
 *
 * An entry's `setup()` makes a fresh store (a new PostgreSQL schema, MariaDB database, PGlite
 * instance or Redis key prefix), creates the adapter's documented tables from `sql/`, and returns
 * the adapter, typed as latchkey's `Adapter` without a cast, with a `teardown()` that drops the
 * store and closes its connections. `skipReason()` says why the entry cannot run here (its server
 * does not answer), or undefined; the in-process entries never skip.
 */
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { KyselyAdapter, type Database } from "@auth/kysely-adapter"
import PostgresAdapter from "@auth/pg-adapter"
import { UnstorageAdapter } from "@auth/unstorage-adapter"
import { drizzle as drizzleNodePostgres } from "drizzle-orm/node-postgres"
import { drizzle as drizzlePglite } from "drizzle-orm/pglite"
import { Kysely, PostgresDialect } from "kysely"
import { createStorage } from "unstorage"
import redisDriver from "unstorage/drivers/redis"
import type { Adapter } from "../../src/adapters/adapter.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { MARIADB, POSTGRES, PROBE_TIMEOUT_MS, REDIS, skipReasonFor as probe } from "../setup/services.js"
import { mariadbDatabase, pgliteWith, postgresSchema, schemaFile, uniqueName } from "./fresh-stores.js"


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
      const client = await pgliteWith(await schemaFile("drizzle-pg.sql"))
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
      const { db, teardown } = await mariadbDatabase<Database>("mariadb.sql")
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
