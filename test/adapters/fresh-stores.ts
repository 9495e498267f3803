/**
 * Fresh databases for one run, shared by the adapter matrix (`matrix.ts`), the password attack
 * suite (`test/security/password-support.ts`) and the CLI's schema suites: a new PostgreSQL schema,
 * MariaDB database or PGlite instance holding the documented tables of `sql/`, a name no other run
 * uses, and a teardown that drops it. Each caller puts its own adapter on top.
 */
import { PGlite } from "@electric-sql/pglite"
import { randomBytes } from "node:crypto"
import { readFile } from "node:fs/promises"
import { Kysely, MysqlDialect, sql } from "kysely"
import { createPool } from "mysql2"
import mysql from "mysql2/promise"
import pg from "pg"
import { MARIADB, POSTGRES } from "../setup/services.js"

/** The SQL of `sql/<file>`. */
export function schemaFile(file: string): Promise<string> {
  return readFile(new URL(`./sql/${file}`, import.meta.url), "utf8")
}

/** The data folder of a PGlite holding the tables of each SQL text, made once per test file. */
const pgliteDataDirs = new Map<string, Promise<Blob>>()

/**
 * A new PGlite instance holding the tables `sql` creates. The first call for a text pays for
 * initdb and the SQL (2.5 to 3.7 s on a 2-core machine) and keeps the data folder it left; every
 * later call loads a copy of that folder (about 0.5 s). Suites that take a fresh store per test
 * paid the initdb each time.
 */
export async function pgliteWith(sql: string): Promise<PGlite> {
  let dataDir = pgliteDataDirs.get(sql)
  if (dataDir === undefined) {
    dataDir = (async () => {
      const client = new PGlite()
      try {
        await client.exec(sql)
        return await client.dumpDataDir("none")
      } finally {
        await client.close()
      }
    })()
    pgliteDataDirs.set(sql, dataDir)
  }
  return new PGlite({ loadDataDir: await dataDir })
}

/** A name no other run uses: a schema, a database or a key prefix. Lowercase, so SQL needs no quotes. */
export function uniqueName(): string {
  return `lk_${randomBytes(6).toString("hex")}`
}

/**
 * A fresh PostgreSQL schema holding the tables of `file`, and a pool whose search_path is that
 * schema, so the adapter's unqualified table names land there. The caller ends the pool.
 */
export async function postgresSchema(file: string): Promise<{ pool: pg.Pool; dropSchema(): Promise<void> }> {
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

/**
 * A fresh MariaDB database holding the tables of `file` (then `migration`, when given), and Kysely
 * on a pool in it; `teardown` drops the database and closes the pool.
 */
export async function mariadbDatabase<D>(file: string, migration?: string): Promise<{ db: Kysely<D>; teardown(): Promise<void> }> {
  const database = uniqueName()
  const admin = await mysql.createConnection({ ...MARIADB, multipleStatements: true })
  try {
    await admin.query(`CREATE DATABASE ${database}; USE ${database}; ${await schemaFile(file)}`)
    if (migration !== undefined) await admin.query(migration)
  } finally {
    await admin.end()
  }
  // timezone "Z": DATETIME columns are written and read as UTC, whatever the process's TZ.
  const pool = createPool({ ...MARIADB, database, timezone: "Z", connectionLimit: 4 })
  const db = new Kysely<D>({ dialect: new MysqlDialect({ pool }) })
  return { db, teardown: () => sql.raw(`DROP DATABASE ${database}`).execute(db).then(() => undefined).finally(() => db.destroy()) }
}
