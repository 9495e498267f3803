/**
 * The model made concrete for one adapter flavour on one database: real table names, SQL types
 * (with a binary collation for addresses where the default folds them), surrogate ids with their
 * database-side defaults, keys, foreign keys and indexes. The SQL renderer, the diff against a
 * live database and `doctor`'s table check all read this one shape, so what is created, what is
 * compared and what is checked cannot drift apart.
 */
import { tablesFor, type ColumnModel, type SchemaFeatures, type TableModel } from "./model.js"
import { FLAVOURS, type Dialect, type Flavour, type FlavourId } from "./flavours.js"

/** A character set and one of its collations, as a column's type names them. */
export interface Collation {
  characterSet: string
  name: string
}

/** A column as created. */
export interface PhysicalColumn {
  name: string
  type: string
  nullable: boolean
  /** A database-side default expression, for ids the adapter does not supply. */
  defaultExpression?: string
  /** The collation the column is created with, where the database's default would fold addresses. */
  collation?: Collation
}

/** A table as created. */
export interface PhysicalTable {
  name: string
  columns: PhysicalColumn[]
  primaryKey: string[]
  /** Column sets that are unique besides the primary key. */
  uniques: string[][]
  foreignKeys: Array<{ column: string; table: string; references: string }>
  /** Columns that get an index of their own (references that do not lead the primary key). */
  indexes: string[]
}

/** A whole schema for one flavour on one database. */
export interface PhysicalSchema {
  flavour: FlavourId
  dialect: Dialect
  tables: PhysicalTable[]
}

/** How each dialect makes an id the adapter leaves to the database (Kysely's accounts and sessions). */
const GENERATED_ID: Record<Dialect, string> = {
  postgres: "gen_random_uuid()",
  mysql: "(uuid())",
  sqlite: "(lower(hex(randomblob(16))))",
}

/**
 * The collation of address columns where the dialect's default folds them: MySQL 8's
 * `utf8mb4_0900_ai_ci` and MariaDB's `utf8mb4_general_ci` ignore accents (and case). A binary
 * collation loses nothing, as latchkey stores addresses normalised (lower case, NFKC). PostgreSQL
 * and SQLite compare exactly by default.
 */
const EXACT_COLLATION: Partial<Record<Dialect, Collation>> = {
  mysql: { characterSet: "utf8mb4", name: "utf8mb4_bin" },
}

/** The schema of `features` for `flavour` on `dialect`. */
export function physicalSchema(flavourId: FlavourId, dialect: Dialect, features: SchemaFeatures): PhysicalSchema {
  const flavour = FLAVOURS[flavourId]
  const userTable = flavour.tableName("user")
  const tables = tablesFor(features).map((table) => physicalTable(table, flavour, dialect, userTable))
  return { flavour: flavourId, dialect, tables }
}

function physicalColumn(column: ColumnModel, flavour: Flavour, dialect: Dialect): PhysicalColumn {
  const collation = column.address ? EXACT_COLLATION[dialect] : undefined
  return { name: column.name, type: flavour.sqlType(column.kind, dialect), nullable: column.nullable, ...(collation ? { collation } : {}) }
}

function physicalTable(table: TableModel, flavour: Flavour, dialect: Dialect, userTable: string): PhysicalTable {
  const columns = table.columns.map((column) => physicalColumn(column, flavour, dialect))
  const uniques = table.columns.filter((column) => column.unique).map((column) => [column.name])
  let primaryKey = table.primaryKey
  if (flavour.surrogateIdTables.includes(table.id)) {
    const idType = flavour.sqlType("userId", dialect)
    // SERIAL makes its own values; a uuid column needs a default, as the adapter inserts none.
    const defaultExpression = idType === "serial" ? undefined : GENERATED_ID[dialect]
    columns.unshift({ name: "id", type: idType, nullable: false, ...(defaultExpression ? { defaultExpression } : {}) })
    uniques.push(table.primaryKey)
    primaryKey = ["id"]
  } else if (table.id === "user" && flavour.id === "kysely") {
    // Kysely's createUser supplies the id; a default keeps rows written by hand or by other tools valid.
    columns[0] = { ...columns[0]!, defaultExpression: GENERATED_ID[dialect] }
  }
  const references = table.columns.filter((column) => column.kind === "userRef").map((column) => column.name)
  return {
    name: flavour.tableName(table.id),
    columns,
    primaryKey,
    uniques,
    foreignKeys: references.map((column) => ({ column, table: userTable, references: "id" })),
    indexes: references.filter((column) => primaryKey[0] !== column),
  }
}
