/**
 * SQLite through the app's `better-sqlite3`, or Node's own `node:sqlite` where this Node has it
 * (22.5+) and better-sqlite3 is missing or built for another Node. SQLite's DDL is transactional, so a plan applies entirely or not at all.
 */
import { defaultExport, loadDriver, type ExistingTables, type PackageLoader, type SchemaDatabase } from "./database.js"

/** What both drivers offer: statements without results, and rows of a query. */
interface SqliteHandle {
  exec(sql: string): void
  prepare(sql: string): { all(...values: unknown[]): unknown[] }
  close(): void
}

/**
 * `better-sqlite3` when it loads, else `node:sqlite`: a better-sqlite3 built for another Node's ABI
 * (ERR_DLOPEN_FAILED) falls back too. When neither works, the better-sqlite3 failure is the one
 * reported, as it carries the install line.
 */
async function openHandle(path: string, load: PackageLoader): Promise<SqliteHandle> {
  try {
    const Database = defaultExport<new (path: string) => SqliteHandle>(await loadDriver(load, "better-sqlite3", "latchkey schema --apply on SQLite"))
    return new Database(path)
  } catch (failure) {
    try {
      const { DatabaseSync } = (await load("node:sqlite")) as { DatabaseSync: new (path: string) => SqliteHandle }
      return new DatabaseSync(path)
    } catch {
      throw failure
    }
  }
}

/** Opens the SQLite file at `path` (created when missing). */
export async function openSqlite(path: string, load: PackageLoader): Promise<SchemaDatabase> {
  const db = await openHandle(path, load)
  return {
    dialect: "sqlite",
    label: `SQLite ${path}`,
    transactional: true,
    async readColumns(names) {
      const tables: ExistingTables = new Map()
      for (const name of names) {
        const rows = db.prepare("SELECT name FROM pragma_table_info(?)").all(name) as Array<{ name: string }>
        if (rows.length > 0) tables.set(name, new Map(rows.map((row) => [row.name, {}])))
      }
      return tables
    },
    async apply(statements) {
      db.exec("BEGIN")
      try {
        for (const statement of statements) db.exec(statement)
        db.exec("COMMIT")
      } catch (failure) {
        db.exec("ROLLBACK")
        throw failure
      }
    },
    close: async () => db.close(),
  }
}
