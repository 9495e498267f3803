/**
 * What a database lacks of a schema: the tables to create and the columns to add to tables that
 * exist. Nothing is ever dropped or altered: a column of another type, or one latchkey does not
 * know, is the app's to keep. An empty plan is the idempotence of `--apply`: a second run finds
 * nothing to do. `doctor` reads the same plan to say which tables and columns are missing.
 */
import type { Dialect } from "./flavours.js"
import type { PhysicalColumn, PhysicalSchema, PhysicalTable } from "./physical.js"
import { addColumnStatement, createTableStatements } from "./sql.js"

/** The changes that bring a database to a schema. */
export interface SchemaPlan {
  dialect: Dialect
  createTables: PhysicalTable[]
  addColumns: Array<{ table: string; column: PhysicalColumn }>
}

/** The plan for `schema` against the columns the database has, by table name. */
export function planChanges(schema: PhysicalSchema, existing: ReadonlyMap<string, ReadonlySet<string>>): SchemaPlan {
  const plan: SchemaPlan = { dialect: schema.dialect, createTables: [], addColumns: [] }
  for (const table of schema.tables) {
    const columns = existing.get(table.name)
    if (columns === undefined) {
      plan.createTables.push(table)
      continue
    }
    for (const column of table.columns) if (!columns.has(column.name)) plan.addColumns.push({ table: table.name, column })
  }
  return plan
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
