/**
 * MySQL and MariaDB through the app's `mysql2`. Their `CREATE TABLE` commits on its own, so a plan
 * cannot be one transaction: statements run in order and the first failure stops the rest, which
 * leaves the tables made so far; running the command again completes the plan.
 */
import { defaultExport, loadDriver, safeLabel, type PackageLoader, type SchemaDatabase } from "./database.js"

interface MysqlConnection {
  query(text: string, values?: unknown[]): Promise<[unknown, unknown]>
  end(): Promise<void>
}

/** Opens a `mysql://` or `mariadb://` URL; the path names the database. */
export async function openMysql(url: URL, load: PackageLoader): Promise<SchemaDatabase> {
  const mysql = defaultExport<{ createConnection(options: object): Promise<MysqlConnection> }>(await loadDriver(load, "mysql2/promise", "latchkey schema --apply on MySQL"))
  const connection = await mysql.createConnection({
    host: url.hostname,
    port: url.port === "" ? 3306 : Number(url.port),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.slice(1)) || undefined,
  })
  return {
    dialect: "mysql",
    label: `MySQL ${safeLabel(url)}`,
    transactional: false,
    async readColumns(names) {
      if (names.length === 0) return new Map()
      const [rows] = await connection.query(
        "SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name FROM information_schema.columns WHERE table_schema = DATABASE() AND TABLE_NAME IN (?)",
        [names],
      )
      const tables = new Map<string, Set<string>>()
      for (const row of rows as Array<{ table_name: string; column_name: string }>) {
        const columns = tables.get(row.table_name) ?? new Set<string>()
        tables.set(row.table_name, columns.add(row.column_name))
      }
      return tables
    },
    async apply(statements) {
      for (const statement of statements) await connection.query(statement)
    },
    close: () => connection.end(),
  }
}
