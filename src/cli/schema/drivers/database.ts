/**
 * A database the CLI reads and changes, whatever the driver: which columns each table has, and
 * running statements (in one transaction where the dialect allows). The driver is the app's own,
 * loaded by name when needed, so latchkey depends on none of them; a missing one is a
 * `MissingDependencyError` with its install line.
 */
import { MissingDependencyError } from "../../../errors.js"
import type { Dialect } from "../flavours.js"

/**
 * What is read of a column that exists. MySQL and MariaDB report the collation of each string
 * column (`utf8mb4_general_ci`), with its type as written (`varchar(255)`) and nullability, for a
 * statement that changes the collation alone; the other drivers read names only.
 */
export interface ExistingColumn {
  collation?: string
  type?: string
  nullable?: boolean
}

/** The columns of each table that exists, by table name, then by column name. */
export type ExistingTables = Map<string, Map<string, ExistingColumn>>

/** An open database. */
export interface SchemaDatabase {
  dialect: Dialect
  /** Where it is, for messages: never the password. */
  label: string
  /** Whether `apply` is one transaction (MySQL commits every `CREATE TABLE` on its own). */
  transactional: boolean
  /** The columns of each table of `names` that exists. */
  readColumns(names: readonly string[]): Promise<ExistingTables>
  /** Runs `statements` in order; all or none where `transactional`. */
  apply(statements: readonly string[]): Promise<void>
  close(): Promise<void>
}

/** Loads a package by name; the default imports it from the app's node_modules. */
export type PackageLoader = (name: string) => Promise<unknown>

/** Node's import, through a variable so bundlers leave the drivers out of latchkey's build. */
export const importPackage: PackageLoader = (name) => import(name)

/**
 * `name` loaded, or a `MissingDependencyError` naming its install line when the app does not have it.
 * Other failures (a driver that is there but broken, a native build for another Node) keep their cause.
 */
export async function loadDriver(load: PackageLoader, name: string, feature: string): Promise<unknown> {
  try {
    return await load(name)
  } catch (failure) {
    const code = (failure as { code?: unknown } | null)?.code
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") throw new MissingDependencyError(feature, name, { cause: failure })
    throw failure
  }
}

/** The default export of a CommonJS package loaded through `import()`, or the module itself. */
export function defaultExport<T>(module: unknown): T {
  const value = module as { default?: unknown }
  return (value.default ?? value) as T
}

/** A URL's place without its credentials, for messages. */
export function safeLabel(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`
}
