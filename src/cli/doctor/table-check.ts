/**
 * The adapter's tables and columns, read from the database at `--database-url` (or
 * `DATABASE_URL`) and compared with the schema `latchkey schema` would write for the
 * configuration: the same model, the same plan, so doctor and `migrate` cannot disagree. An
 * address column whose collation folds (MySQL's default, on tables latchkey did not create) is a
 * problem of its own, fixed by the `ALTER TABLE … MODIFY` the plan writes for it.
 */
import { LatchkeyError } from "../../errors.js"
import { openDatabase } from "../schema/drivers/open.js"
import type { ExistingTables, PackageLoader } from "../schema/drivers/database.js"
import { adapterOfDependencies } from "../app-package.js"
import { featuresOfConfig, NO_FEATURES, withFeatures } from "../schema/features.js"
import { guessFlavour } from "../schema/flavour-guess.js"
import { isFlavourId, type FlavourId } from "../schema/flavours.js"
import { physicalSchema } from "../schema/physical.js"
import { describeFolding, isEmptyPlan, planChanges, type SchemaPlan } from "../schema/plan.js"
import type { DoctorContext } from "./context.js"
import type { DoctorReport } from "./report.js"

/** Checks the tables when there is a database to read. */
export async function checkTables(context: DoctorContext, report: DoctorReport, load: PackageLoader): Promise<void> {
  const url = context.options.databaseUrl ?? context.env.DATABASE_URL
  if (url === undefined || url === "") {
    if (context.config?.adapter !== undefined) report.note("The config has an adapter; pass --database-url (or set DATABASE_URL) to check its tables.")
    return
  }
  const adapter = adapterToCheck(context, report)
  if (adapter === undefined) return
  if (!isFlavourId(adapter)) return report.problem(`--adapter ${adapter} is not one latchkey knows.`, "use --adapter drizzle, kysely or pg.")
  const configured = context.config ? featuresOfConfig(context.config) : NO_FEATURES
  const features = context.options.with !== undefined ? withFeatures(configured, context.options.with) : configured
  let existing: ExistingTables
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
  reportPlan(report, planChanges(physicalSchema(adapter as FlavourId, dialect, features), existing), adapter)
}

/** The plan's missing tables and columns as one finding, and each address column whose collation folds as one more. */
function reportPlan(report: DoctorReport, plan: SchemaPlan, adapter: string): void {
  if (isEmptyPlan(plan)) {
    report.pass(`The database has every table and column the ${adapter} adapter reads.`)
  } else {
    const missing = [...plan.createTables.map((table) => `table ${table.name}`), ...plan.addColumns.map(({ table, column }) => `column ${table}.${column.name}`)]
    report.problem(`The database lacks ${missing.join(", ")}.`, `run \`npx latchkey migrate <database-url> --adapter ${adapter}\` to create ${missing.length === 1 ? "it" : "them"}.`)
  }
  // migrate alters no existing column, so the fix is the statement itself (its names in backquotes, so unquoted here).
  for (const folding of plan.foldingColumns) report.problem(describeFolding(folding), `run ${folding.fix};`)
}

/**
 * The adapter whose tables to look for: `--adapter`, else the configured adapter recognised, else
 * the one `@auth/*` adapter package.json names. Past that, a configuration that loaded keeps the
 * documented default (drizzle, as `schema`); one that did not load gets no guess, because advising
 * the wrong adapter's tables would have the app create a second set that nothing reads.
 */
function adapterToCheck(context: DoctorContext, report: DoctorReport): string | undefined {
  const chosen = context.options.adapter ?? guessFlavour(context.config?.adapter)
  if (chosen !== undefined) return chosen
  const installed = adapterOfDependencies(context.dependencies)
  if (installed !== undefined) {
    report.note(`package.json depends on ${installed.adapterPackage}: checking its tables (--adapter chooses another).`)
    return installed.flavour
  }
  if (context.configFailure === undefined) return "drizzle"
  report.problem(
    `The tables were not checked: the configuration did not load (${context.configFailure}), and the check needs it to know the adapter.`,
    "make the configuration load, or pass --adapter with the adapter the app uses (and --with what it uses, as for `latchkey schema`).",
  )
  return undefined
}
