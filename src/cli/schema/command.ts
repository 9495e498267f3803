/**
 * `latchkey schema` and `latchkey migrate`: the tables an app's configuration needs, printed or
 * written for each database and ORM, or applied to a live database after showing the difference.
 * Messages go to stderr, so the schema on stdout can be piped into a file or a client.
 */
import { LatchkeyError } from "../../errors.js"
import { loadAppConfig } from "../app-config.js"
import { appDatabaseUrl, EMPTY_DATABASE_URL } from "../database-url.js"
import { DatabaseUrlError } from "../errors.js"
import type { CliIO } from "../io.js"
import { featuresOfConfig, NO_FEATURES, withFeatures } from "./features.js"
import { checkAdapterFits } from "./fits.js"
import { guessFlavour } from "./flavour-guess.js"
import { FLAVOURS, type Dialect } from "./flavours.js"
import { drizzleSchemaFile } from "./drizzle.js"
import type { SchemaFeatures } from "./model.js"
import { parseSchemaArgs, SCHEMA_USAGE, type SchemaOptions } from "./options.js"
import { physicalSchema } from "./physical.js"
import { applySchema } from "./apply.js"
import { prismaSchemaFile } from "./prisma.js"
import { schemaScript } from "./sql.js"
import { importPackage, type PackageLoader } from "./drivers/database.js"

/** Runs `latchkey schema` with `args`; `load` imports database drivers (the app's by default). */
export async function schemaCommand(args: string[], io: CliIO, load: PackageLoader = importPackage): Promise<number> {
  const options = parseSchemaArgs(args)
  if ("error" in options) {
    io.err(`${options.error}\n\nUsage:\n${SCHEMA_USAGE}`)
    return 2
  }
  try {
    // The URL first: a missing one stops before the app's module is imported.
    if (options.applyToAppDatabase) options.apply = appDatabaseUrl(io)
    if (options.apply?.trim() === "") throw new DatabaseUrlError(EMPTY_DATABASE_URL)
    const features = await schemaFeatures(io, options)
    if (options.apply !== undefined) return await applySchema(io, options, features, load)
    checkAdapterFits(options, features, options.dialect ?? "postgres")
    if (options.out !== undefined) return writeAll(io, options, features, options.out)
    io.out(render(options, features, options.dialect ?? "postgres").trimEnd())
    return 0
  } catch (failure) {
    io.err(failureLine(failure))
    return 1
  }
}

/** `latchkey migrate [url]`: `schema --apply [url]`; without a URL, the app's DATABASE_URL. */
export function migrateCommand(args: string[], io: CliIO, load: PackageLoader = importPackage): Promise<number> {
  return schemaCommand(["--apply", ...args], io, load)
}

/**
 * The features to write tables for: `--with` alone describes the app (no file is read, so a
 * TypeScript config on an old Node is no obstacle); otherwise the configuration, plus `--with`.
 */
async function schemaFeatures(io: CliIO, options: SchemaOptions): Promise<SchemaFeatures> {
  if (options.with !== undefined && options.config === undefined) return withFeatures(NO_FEATURES, options.with)
  const { config, path, searched } = await loadAppConfig(io, options.config)
  if (config === undefined) {
    io.err(`No latchkey configuration found (looked for ${searched.slice(0, 6).join(", ")} ...).`)
    io.err("Writing users and accounts only: pass --config FILE, or say what the app uses with --with database-sessions,email,passkeys,passwords.")
    return NO_FEATURES
  }
  const features = featuresOfConfig(config)
  const used = [features.databaseSessions && "database sessions", features.email && "an email provider", features.passkeys && "passkeys", features.passwords && "passwords"].filter(Boolean)
  io.err(`Read ${path}: ${used.length > 0 ? used.join(", ") : "users and accounts only (JWT sessions, no email provider, no passkeys, no passwords)"}.`)
  if (config.adapter === undefined) io.err("Note: this configuration has no adapter yet; pass one to createAuth so these tables are used.")
  const guessed = options.adapterGiven ? undefined : guessFlavour(config.adapter)
  if (guessed !== undefined) {
    // The tables must be the ones the configured adapter reads: its flavour replaces the default.
    options.adapter = guessed
    io.err(`The configured adapter looks like ${FLAVOURS[guessed].adapterPackage}; writing its tables (--adapter chooses another).`)
  }
  return options.with !== undefined ? withFeatures(features, options.with) : features
}

function render(options: SchemaOptions, features: SchemaFeatures, dialect: Dialect): string {
  if (options.format === "prisma") return prismaSchemaFile(dialect, features)
  if (options.format === "drizzle") return drizzleSchemaFile(dialect, features)
  return schemaScript(physicalSchema(options.adapter, dialect, features), FLAVOURS[options.adapter].adapterPackage)
}

/** `--out DIR`: the SQL of every dialect the adapter runs on, and the Prisma and Drizzle files. */
function writeAll(io: CliIO, options: SchemaOptions, features: SchemaFeatures, directory: string): number {
  const dialect = options.dialect ?? "postgres"
  const files: Array<[string, string]> = FLAVOURS[options.adapter].dialects.map((each) => [`${each}.sql`, render({ ...options, format: "sql" }, features, each)])
  files.push(["schema.prisma", prismaSchemaFile(dialect, features)], ["drizzle-schema.ts", drizzleSchemaFile(dialect, features)])
  let skipped = 0
  for (const [name, contents] of files) {
    const path = `${directory.replace(/\/+$/, "")}/${name}`
    // A file latchkey did not write (the app's own prisma/schema.prisma) is never replaced.
    const existing = io.readFile(path)
    if (existing !== undefined && !GENERATED.test(existing)) {
      io.err(`skipped ${path}: it exists and latchkey schema did not write it`)
      skipped++
      continue
    }
    io.writeFile(path, contents)
    io.out(`wrote ${path}`)
  }
  return skipped === 0 ? 0 : 1
}

/** The first line of every file `latchkey schema` writes. */
const GENERATED = /^(?:--|\/\/) latchkey schema for /

/** A failure as one line: a latchkey error by its code, a driver's by its code and message (never its data). */
function failureLine(failure: unknown): string {
  if (failure instanceof LatchkeyError) return `${failure.code}: ${failure.message}`
  const { code, message } = (failure ?? {}) as { code?: unknown; message?: unknown }
  return `The database refused: ${typeof code === "string" ? `${code} ` : ""}${typeof message === "string" ? message : String(failure)}`
}
