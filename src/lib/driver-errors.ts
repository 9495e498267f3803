/**
 * What a database driver's error says, in words that point at the fix, built from its stable code
 * alone: PostgreSQL's SQLSTATE (`42P01`), MySQL's and MariaDB's `ER_…` names, SQLite's `SQLITE_…`
 * and Node's network codes. A driver message may quote the values it was handed (MySQL's duplicate
 * entry quotes the email), so no message is passed on: only a table or column name is read out of
 * the few messages that name one, and only when it has the shape of an identifier.
 *
 * @module
 */

/** A table or column name as schemas write them; anything else read from a message is dropped. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,62}(?:\.[A-Za-z_][A-Za-z0-9_$]{0,62})?$/

/** What a code means, by kind; `{name}` is where the missing table or column goes. */
const MISSING_TABLE = "the table {name} is missing: create the tables with `latchkey schema`"
const MISSING_COLUMN = "the column {name} is missing: compare the table with `latchkey schema`"
const NO_DATABASE = "the database named in the connection URL does not exist"
const REFUSED_LOGIN = "the database refused the user name or password"
const DUPLICATE = "a unique column already holds this value"

/** The known codes: PostgreSQL's (and PGlite's) SQLSTATE, MySQL's and MariaDB's names, Node's network codes. */
const HINTS: Record<string, string> = {
  "42P01": MISSING_TABLE,
  "42703": MISSING_COLUMN,
  "3D000": NO_DATABASE,
  "28P01": REFUSED_LOGIN,
  "42501": "the database user may not use this table",
  "23505": DUPLICATE,
  ER_NO_SUCH_TABLE: MISSING_TABLE,
  ER_BAD_FIELD_ERROR: MISSING_COLUMN,
  ER_BAD_DB_ERROR: NO_DATABASE,
  ER_ACCESS_DENIED_ERROR: REFUSED_LOGIN,
  ER_DUP_ENTRY: DUPLICATE,
  ECONNREFUSED: "nothing accepts connections at the database's address: is it running?",
  ENOTFOUND: "the database's host name does not resolve",
}

/** Messages that name the missing table or column, per driver: PostgreSQL, MySQL, SQLite. */
const NAMED_IN_MESSAGE = [/^relation "([^"]+)" does not exist/, /^column "([^"]+)"/, /^Table '(?:[^'.]+\.)?([^'.]+)' doesn't exist/, /^Unknown column '([^']+)'/, /^no such (?:table|column): (\S+)/, /has no column named (\S+)/]

/** SQLite has one code for every error; its message says which table or column is missing. */
const SQLITE_MISSING = [
  { pattern: /^no such table: /, hint: MISSING_TABLE },
  { pattern: /^no such column: |has no column named /, hint: MISSING_COLUMN },
]

function driverOf(code: string): string {
  if (code.startsWith("ER_")) return "MySQL"
  if (code.startsWith("SQLITE_")) return "SQLite"
  if (/^E[A-Z]+$/.test(code)) return "network"
  return "PostgreSQL"
}

/** The table or column a driver message names, quoted, when it names one that looks like an identifier. */
function nameIn(message: unknown): string {
  if (typeof message !== "string") return "(named in the driver's error)"
  for (const pattern of NAMED_IN_MESSAGE) {
    const name = pattern.exec(message.slice(0, 200))?.[1]
    if (name !== undefined && IDENTIFIER.test(name)) return `"${name}"`
  }
  return "(named in the driver's error)"
}

/** The driver's code of a failure, when it has one of the known shapes. */
export function driverCode(failure: unknown): string | undefined {
  const code = typeof failure === "object" && failure !== null ? (failure as { code?: unknown }).code : undefined
  if (typeof code !== "string") return undefined
  // Node's own codes (ENOSPC, EACCES…) are not the database's: only the network ones named above count.
  const network = /^E[A-Z]{3,20}$/.test(code) && Object.hasOwn(HINTS, code)
  // A SQLSTATE is five characters with at least one digit (42P01, XX000), which Node's EPIPE is not.
  const sqlstate = /^[0-9A-Z]{5}$/.test(code) && /[0-9]/.test(code)
  return sqlstate || /^(ER_|SQLITE_)[A-Z0-9_]{1,60}$/.test(code) || network ? code : undefined
}

/**
 * One clause for a log line about a failed database call: the driver, its code and what it means,
 * such as `PostgreSQL 42P01: the table "sessions" is missing: create the tables with \`latchkey schema\``.
 * Undefined for a failure that carries no driver code.
 */
export function driverErrorHint(failure: unknown): string | undefined {
  const code = driverCode(failure)
  if (code === undefined) return undefined
  const message = (failure as { message?: unknown }).message
  const sqlite = code.startsWith("SQLITE_") && typeof message === "string" ? SQLITE_MISSING.find(({ pattern }) => pattern.test(message)) : undefined
  const hint = sqlite?.hint ?? HINTS[code]
  const meaning = hint === undefined ? "" : `: ${hint.replace("{name}", nameIn(message))}`
  return `${driverOf(code)} ${code}${meaning}`
}
