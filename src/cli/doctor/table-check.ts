/**
 * The adapter's tables and columns, read from the database at `--database-url` (or
 * `DATABASE_URL`) and compared with the schema `latchkey schema` would write for the
 * configuration: the same model, the same plan, so doctor and `migrate` cannot disagree.
 */
import { LatchkeyError } from "../../errors.js"
import { openDatabase } from "../schema/drivers/open.js"
import type { PackageLoader } from "../schema/drivers/database.js"
import { featuresOfConfig, NO_FEATURES } from "../schema/features.js"
import { guessFlavour } from "../schema/flavour-guess.js"
import { isFlavourId, type FlavourId } from "../schema/flavours.js"
import { physicalSchema } from "../schema/physical.js"
import { isEmptyPlan, planChanges } from "../schema/plan.js"
import type { DoctorContext } from "./context.js"
import type { DoctorReport } from "./report.js"

/** Checks the tables when there is a database to read. */
export async function checkTables(context: DoctorContext, report: DoctorReport, load: PackageLoader): Promise<void> {
  const url = context.options.databaseUrl ?? context.env.DATABASE_URL
  if (url === undefined || url === "") {
    if (context.config?.adapter !== undefined) report.note("The config has an adapter; pass --database-url (or set DATABASE_URL) to check its tables.")
    return
  }
  const adapter = context.options.adapter ?? guessFlavour(context.config?.adapter) ?? "drizzle"
  if (!isFlavourId(adapter)) return report.problem(`--adapter ${adapter} is not one latchkey knows.`, "use --adapter drizzle, kysely or pg.")
  const features = context.config ? featuresOfConfig(context.config) : NO_FEATURES
  let existing: Map<string, Set<string>>
  let dialect
  try {
    const database = await openDatabase(url, load)
    try {
      dialect = database.dialect
      existing = await database.readColumns(physicalSchema(adapter as FlavourId, dialect, features).tables.map((table) => table.name))
    } finally {
      await database.close()
    }
  } catch (failure) {
    const code = failure instanceof LatchkeyError ? failure.code : (failure as { code?: string }).code
    return report.problem(`The database could not be read: ${code ?? ""} ${(failure as Error).message}`.trim(), "check --database-url (or DATABASE_URL) and that the database is running.")
  }
  const plan = planChanges(physicalSchema(adapter as FlavourId, dialect, features), existing)
  if (isEmptyPlan(plan)) return report.pass(`The database has every table and column the ${adapter} adapter reads.`)
  const missing = [...plan.createTables.map((table) => `table ${table.name}`), ...plan.addColumns.map(({ table, column }) => `column ${table}.${column.name}`)]
  report.problem(`The database lacks ${missing.join(", ")}.`, `run \`npx latchkey migrate <database-url> --adapter ${adapter}\` to create ${missing.length === 1 ? "it" : "them"}.`)
}
