/**
 * PostgreSQL through the app's `pg`, and PGlite (an embedded PostgreSQL in a directory) through
 * `@electric-sql/pglite`. A `?schema=name` parameter (Prisma's spelling) puts the tables in that
 * schema; PostgreSQL's DDL is transactional, so a plan applies entirely or not at all.
 */
import { defaultExport, loadDriver, safeLabel, type ExistingTables, type PackageLoader, type SchemaDatabase } from "./database.js"

interface PgClient {
  connect(): Promise<unknown>
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>
  end(): Promise<void>
}

/** The columns of `names` in the current schema, by one `information_schema` query. */
const COLUMNS_QUERY = "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ANY($1)"

function groupColumns(rows: Array<Record<string, unknown>>): ExistingTables {
  const tables: ExistingTables = new Map()
  for (const row of rows) {
    const table = String(row.table_name)
    const columns = tables.get(table) ?? new Map()
    columns.set(String(row.column_name), {})
    tables.set(table, columns)
  }
  return tables
}

/** Opens a `postgres://` or `postgresql://` URL with `pg`. */
export async function openPostgres(url: URL, load: PackageLoader): Promise<SchemaDatabase> {
  const pg = defaultExport<{ Client: new (options: object) => PgClient }>(await loadDriver(load, "pg", "latchkey schema --apply on PostgreSQL"))
  const schema = url.searchParams.get("schema")
  const connection = new URL(url)
  connection.searchParams.delete("schema")
  const client = new pg.Client({ connectionString: connection.href })
  await client.connect()
  if (schema !== null) await client.query(`SET search_path TO "${schema.replace(/"/g, '""')}"`)
  return {
    dialect: "postgres",
    label: `PostgreSQL ${safeLabel(url)}${schema !== null ? ` (schema ${schema})` : ""}`,
    transactional: true,
    readColumns: async (names) => groupColumns((await client.query(COLUMNS_QUERY, [names])).rows),
    async apply(statements) {
      await client.query("BEGIN")
      try {
        for (const statement of statements) await client.query(statement)
        await client.query("COMMIT")
      } catch (failure) {
        await client.query("ROLLBACK")
        throw failure
      }
    },
    close: () => client.end(),
  }
}

interface PGliteInstance {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>
  transaction<T>(run: (tx: { query(text: string): Promise<unknown> }) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** Opens the PGlite data directory `directory` (`memory:` for a throwaway one) with `@electric-sql/pglite`. */
export async function openPglite(directory: string, load: PackageLoader): Promise<SchemaDatabase> {
  const { PGlite } = (await loadDriver(load, "@electric-sql/pglite", "latchkey schema --apply on PGlite")) as { PGlite: new (dataDir?: string) => PGliteInstance }
  // PGlite makes its own folder but not the folders above it (`.data/` of `.data/pglite`, as init
  // writes it): make them, as the app itself would on its first start.
  if (directory !== "memory:") await (await import("node:fs/promises")).mkdir(directory, { recursive: true })
  // The app's auth.ts, loaded for its config, may hold this folder open already (init keeps one client
  // per folder on globalThis): a second client would be a second server on one data directory.
  const apps = directory === "memory:" ? undefined : await appsClientFor(directory)
  const db = apps ?? new PGlite(directory === "memory:" ? undefined : directory)
  return {
    dialect: "postgres",
    label: `PGlite ${directory}`,
    transactional: true,
    readColumns: async (names) => groupColumns((await db.query(COLUMNS_QUERY, [names])).rows),
    apply: (statements) =>
      db.transaction(async (tx) => {
        for (const statement of statements) await tx.query(statement)
      }),
    close: async () => {
      if (!apps) await db.close()
    },
  }
}

/** The PGlite client the app keeps for `directory` on globalThis (`pgliteClients`, keyed by the folder as the app spells it). */
async function appsClientFor(directory: string): Promise<PGliteInstance | undefined> {
  const clients = (globalThis as { pgliteClients?: unknown }).pgliteClients
  if (!(clients instanceof Map)) return undefined
  const { resolve } = await import("node:path")
  for (const [folder, client] of clients) if (typeof folder === "string" && resolve(folder) === resolve(directory)) return client as PGliteInstance
  return undefined
}
