/**
 * The flags of `latchkey schema` (and `migrate`), parsed into one typed record; a flag that is
 * unknown, repeated without need or missing its value is a usage error naming it.
 */
import { isDialect, isFlavourId, type Dialect, type FlavourId } from "./flavours.js"

/** The outputs `--format` selects. */
export type SchemaFormat = "sql" | "prisma" | "drizzle"

/** The parsed flags. */
export interface SchemaOptions {
  config?: string
  adapter: FlavourId
  /** Whether `--adapter` was given; if not, the configured adapter object may decide. */
  adapterGiven: boolean
  dialect?: Dialect
  with?: string
  format: SchemaFormat
  out?: string
  /** The database URL of `--apply URL`. */
  apply?: string
  /** `--apply` (or `migrate`) without a URL: the app's DATABASE_URL is used. */
  applyToAppDatabase: boolean
  yes: boolean
}

const VALUE_FLAGS = new Set(["--config", "--adapter", "--dialect", "--with", "--format", "--out", "--apply"])

/** The options of `args`, or the usage error to print. */
export function parseSchemaArgs(args: string[]): SchemaOptions | { error: string } {
  const options: SchemaOptions = { adapter: "drizzle", adapterGiven: false, format: "sql", applyToAppDatabase: false, yes: false }
  for (let index = 0; index < args.length; index++) {
    const flag = args[index]!
    if (flag === "--yes" || flag === "-y") {
      options.yes = true
      continue
    }
    if (!VALUE_FLAGS.has(flag)) return { error: `Unknown argument: ${flag}` }
    // `--apply` without a URL (the next argument is a flag, or there is none) reads DATABASE_URL.
    if (flag === "--apply" && (args[index + 1] === undefined || /^-./.test(args[index + 1]!))) {
      options.applyToAppDatabase = true
      continue
    }
    const value = args[++index]
    if (value === undefined || value.startsWith("--")) return { error: `${flag} needs a value` }
    const problem = setOption(options, flag, value)
    if (problem !== undefined) return { error: problem }
  }
  return options
}

function setOption(options: SchemaOptions, flag: string, value: string): string | undefined {
  switch (flag) {
    case "--adapter":
      if (!isFlavourId(value)) return `--adapter ${value}: use drizzle, kysely or pg`
      options.adapter = value
      options.adapterGiven = true
      return undefined
    case "--dialect":
      if (!isDialect(value)) return `--dialect ${value}: use postgres, mysql or sqlite`
      options.dialect = value
      return undefined
    case "--format":
      if (value !== "sql" && value !== "prisma" && value !== "drizzle") return `--format ${value}: use sql, prisma or drizzle`
      options.format = value
      return undefined
    default:
      options[flag.slice(2) as "config" | "with" | "out" | "apply"] = value
      return undefined
  }
}

/** The usage lines of `schema` and `migrate`, for the CLI's help. */
export const SCHEMA_USAGE = `  latchkey schema [--config FILE] [--adapter drizzle|kysely|pg] [--dialect postgres|mysql|sqlite]
                  [--with database-sessions,email,passkeys,passwords]
                  [--format sql|prisma|drizzle] [--out DIR]
                                    Print the tables the app's configuration needs (found at auth.ts,
                                    src/auth.ts, lib/auth.ts ... or --config), for the @auth adapter
                                    named (default: the configured one when
                                    recognised, else drizzle). --out writes every dialect and the Prisma
                                    and Drizzle schema files into DIR. --with names what is used when
                                    no configuration is read.
  latchkey schema --apply [DATABASE_URL] [--yes]   (or: latchkey migrate [DATABASE_URL] [--yes])
                                    Create the missing tables and columns after showing them;
                                    postgres://, mysql://, sqlite:FILE, pglite:DIR. Nothing is dropped.
                                    Without a URL, DATABASE_URL from the environment, .env.local or .env.`
