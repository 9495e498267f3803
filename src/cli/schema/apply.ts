/**
 * `--apply`: connects with the app's driver, reads which tables and columns exist, shows what
 * will be created or added, asks (or takes `--yes`), and applies the plan, as one transaction where
 * the database allows. A second run finds nothing to do and says so. An address column whose
 * collation folds is warned of, with the statement that fixes it, and left as it is.
 */
import type { CliIO } from "../io.js"
import { checkAdapterFits } from "./fits.js"
import type { PackageLoader } from "./drivers/database.js"
import { openDatabase } from "./drivers/open.js"
import { FLAVOURS } from "./flavours.js"
import type { SchemaFeatures } from "./model.js"
import type { SchemaOptions } from "./options.js"
import { physicalSchema } from "./physical.js"
import { describeFolding, describePlan, isEmptyPlan, planChanges, planStatements } from "./plan.js"
import { SchemaOptionError } from "../errors.js"

/** Applies the schema of `features` to `options.apply`; answers the exit code. */
export async function applySchema(io: CliIO, options: SchemaOptions, features: SchemaFeatures, load: PackageLoader): Promise<number> {
  const database = await openDatabase(options.apply!, load)
  try {
    if (options.dialect !== undefined && options.dialect !== database.dialect) {
      throw new SchemaOptionError(`--dialect ${options.dialect} does not match the database URL, which is ${database.dialect}; leave --dialect out with --apply.`)
    }
    checkAdapterFits({ ...options, format: "sql" }, features, database.dialect)
    const schema = physicalSchema(options.adapter, database.dialect, features)
    const plan = planChanges(schema, await database.readColumns(schema.tables.map((table) => table.name)))
    // Altering a column the app already has is its own decision: the statement is printed, not run.
    for (const folding of plan.foldingColumns) io.err(`Warning: ${describeFolding(folding)} latchkey alters no existing column; fix it with: ${folding.fix};`)
    if (isEmptyPlan(plan)) {
      io.out(`${database.label} already has every table and column ${FLAVOURS[options.adapter].adapterPackage} needs here: nothing to do.`)
      return 0
    }
    io.out(`Changes to ${database.label}:`)
    for (const line of describePlan(plan)) io.out(`  ${line}`)
    if (!options.yes && !(await io.confirm?.("Apply these changes?"))) {
      io.err("Nothing was changed. Run again with --yes to apply without asking.")
      return 1
    }
    const statements = planStatements(plan)
    await database.apply(statements)
    io.out(`Applied ${statements.length} statement${statements.length === 1 ? "" : "s"}${database.transactional ? " in one transaction" : ""}.`)
    return 0
  } finally {
    await database.close()
  }
}
