// The PostgreSQL the database benchmarks run on (127.0.0.1:5432, trust auth, as the adapter tests
// use it), a fresh schema per run holding @auth/pg-adapter's documented tables, and the machine line
// every table is printed under.
import { randomBytes } from "node:crypto"
import { readFile } from "node:fs/promises"
import pg from "pg"

export const POSTGRES = { host: "127.0.0.1", port: 5432, user: "postgres", database: "test" }
const CONNECT_TIMEOUT_MS = 2_000

export { machineLine } from "./method.mjs"

/** A pool whose unqualified table names land in `schema`; at most `max` connections. */
export function schemaPool(schema, max = 4) {
  return new pg.Pool({ ...POSTGRES, options: `-c search_path=${schema}`, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS })
}

/**
 * Creates a schema no other run uses, with the tables of test/adapters/sql/pg.sql, and answers its
 * name and `drop()`, which removes it (once; later calls do nothing). When PostgreSQL cannot be
 * reached, throws an error whose message says so and where.
 */
export async function freshSchema() {
  const schema = `lk_bench_${randomBytes(6).toString("hex")}`
  const admin = new pg.Client({ ...POSTGRES, connectionTimeoutMillis: CONNECT_TIMEOUT_MS })
  try {
    await admin.connect()
  } catch (error) {
    await admin.end().catch(() => {})
    throw new Error(`PostgreSQL is not reachable at ${POSTGRES.host}:${POSTGRES.port} as user ${POSTGRES.user}, database ${POSTGRES.database} (${error.code ?? error.message}); this run needs it`)
  }
  const tables = await readFile(new URL("../test/adapters/sql/pg.sql", import.meta.url), "utf8")
  let dropped = false
  const drop = async () => {
    if (dropped) return
    dropped = true
    try {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    } finally {
      await admin.end().catch(() => {})
    }
  }
  try {
    await admin.query(`CREATE SCHEMA ${schema}`)
    await admin.query(`SET search_path TO ${schema}`)
    await admin.query(tables)
  } catch (error) {
    await drop()
    throw error
  }
  return { schema, drop }
}

/** Inserts a user row and answers it, with pg's numeric id as the string latchkey returns from `authorize`. */
export async function createUser(pool, name) {
  const { rows } = await pool.query(`INSERT INTO users (name, email) VALUES ($1, $2) RETURNING id, name, email`, [name, `${name}@example.com`])
  return { id: String(rows[0].id), name: rows[0].name, email: rows[0].email }
}
