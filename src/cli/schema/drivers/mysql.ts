/**
 * MySQL and MariaDB through the app's `mysql2`. Their `CREATE TABLE` commits on its own, so a plan
 * cannot be one transaction: statements run in order and the first failure stops the rest, which
 * leaves the tables made so far; running the command again completes the plan. Columns are read
 * with their collations, so a plan can name an address column whose collation folds (plan.ts).
 */
import { defaultExport, loadDriver, safeLabel, type ExistingColumn, type ExistingTables, type PackageLoader, type SchemaDatabase } from "./database.js"

interface MysqlConnection {
  query(text: string, values?: unknown[]): Promise<[unknown, unknown]>
  end(): Promise<void>
}

/** The columns of the tables named, with the collation of each string column (NULL for others). */
const COLUMNS_QUERY =
  "SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name, COLLATION_NAME AS collation_name, COLUMN_TYPE AS column_type, IS_NULLABLE AS is_nullable " +
  "FROM information_schema.columns WHERE table_schema = DATABASE() AND TABLE_NAME IN (?)"

interface ColumnRow {
  table_name: string
  column_name: string
  collation_name: string | null
  column_type: string
  is_nullable: string
}

function groupColumns(rows: ColumnRow[]): ExistingTables {
  const tables: ExistingTables = new Map()
  for (const row of rows) {
    const columns = tables.get(row.table_name) ?? new Map<string, ExistingColumn>()
    const existing: ExistingColumn = { type: row.column_type, nullable: row.is_nullable === "YES", ...(row.collation_name !== null ? { collation: row.collation_name } : {}) }
    tables.set(row.table_name, columns.set(row.column_name, existing))
  }
  return tables
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
      const [rows] = await connection.query(COLUMNS_QUERY, [names])
      return groupColumns(rows as ColumnRow[])
    },
    async apply(statements) {
      for (const statement of statements) await connection.query(statement)
    },
    close: () => connection.end(),
  }
}
