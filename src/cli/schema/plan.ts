/**
 * What a database lacks of a schema: the tables to create and the columns to add to tables that
 * exist. Nothing is ever dropped or altered: a column of another type, or one latchkey does not
 * know, is the app's to keep. An empty plan is the idempotence of `--apply`: a second run finds
 * nothing to do. `doctor` reads the same plan to say which tables and columns are missing.
 * The plan also names each existing address column whose collation folds what the schema compares
 * exactly (an Auth.js table on MySQL's default collation), with the statement that fixes it: a
 * finding for `--apply` to warn of and `doctor` to report, never a change made here.
 */
import type { ExistingColumn } from "./drivers/database.js"
import type { Dialect } from "./flavours.js"
import type { PhysicalColumn, PhysicalSchema, PhysicalTable } from "./physical.js"
import { addColumnStatement, createTableStatements, modifyCollationStatement } from "./sql.js"

/** An existing column whose collation can take two addresses for one, and the statement that makes it exact. */
export interface FoldingColumn {
  table: string
  column: string
  collation: string
  fix: string
}

/** The changes that bring a database to a schema. */
export interface SchemaPlan {
  dialect: Dialect
  createTables: PhysicalTable[]
  addColumns: Array<{ table: string; column: PhysicalColumn }>
  /** Not changes: columns that exist with a collation that folds, reported with their fix. */
  foldingColumns: FoldingColumn[]
}

/** Whether a collation compares strings as stored: a binary one (`utf8mb4_bin`, MySQL 8's `utf8mb4_0900_bin`). */
const comparesExactly = (collation: string) => collation === "binary" || collation.endsWith("_bin")

/** The plan for `schema` against the columns the database has, by table name and column name. */
export function planChanges(schema: PhysicalSchema, existing: ReadonlyMap<string, ReadonlyMap<string, ExistingColumn>>): SchemaPlan {
  const plan: SchemaPlan = { dialect: schema.dialect, createTables: [], addColumns: [], foldingColumns: [] }
  for (const table of schema.tables) {
    const columns = existing.get(table.name)
    if (columns === undefined) {
      plan.createTables.push(table)
      continue
    }
    for (const column of table.columns) {
      const found = columns.get(column.name)
      if (found === undefined) {
        plan.addColumns.push({ table: table.name, column })
        continue
      }
      const folding = foldingColumn(schema.dialect, table.name, column, found)
      if (folding !== undefined) plan.foldingColumns.push(folding)
    }
  }
  return plan
}

/** The finding for `column` as `found`, when the schema sets its collation and the database reports one that folds. */
function foldingColumn(dialect: Dialect, table: string, column: PhysicalColumn, found: ExistingColumn): FoldingColumn | undefined {
  if (column.collation === undefined || found.collation === undefined || comparesExactly(found.collation)) return undefined
  const fix = modifyCollationStatement(dialect, table, column, { type: found.type ?? column.type, nullable: found.nullable ?? column.nullable })
  return { table, column: column.name, collation: found.collation, fix }
}

/** Whether the plan changes nothing. */
export function isEmptyPlan(plan: SchemaPlan): boolean {
  return plan.createTables.length === 0 && plan.addColumns.length === 0
}

/** The statements of the plan, in order. */
export function planStatements(plan: SchemaPlan): string[] {
  return [
    ...plan.createTables.flatMap((table) => createTableStatements(plan.dialect, table)),
    ...plan.addColumns.map(({ table, column }) => addColumnStatement(plan.dialect, table, column)),
  ]
}

/** One line per change, as the diff shown before applying. */
export function describePlan(plan: SchemaPlan): string[] {
  return [
    ...plan.createTables.map((table) => `+ create table ${table.name} (${table.columns.map((column) => column.name).join(", ")})`),
    ...plan.addColumns.map(({ table, column }) => `+ add column ${table}.${column.name} ${column.type}${column.nullable ? "" : " NOT NULL"}`),
  ]
}

/** What is wrong with a folding column, said alike by `--apply` and `doctor` (each adds the fix its own way). */
export function describeFolding(folding: FoldingColumn): string {
  return `${folding.table}.${folding.column} has the collation ${folding.collation}, which can take two email addresses for one (ada@exämple.com for ada@example.com): see docs/databases.md, "Email addresses and collations".`
}
