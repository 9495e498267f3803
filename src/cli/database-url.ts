/**
 * The database URL `migrate` and `schema --apply` use when none is given: `DATABASE_URL` as the app
 * sees it (the environment, then `.env.local`, then `.env`, as env-files.ts reads them). The shell
 * never reads those files, so `migrate "$DATABASE_URL"` passes an empty string where the app has a
 * URL; reading it here is what the developer meant. The source is named, the URL never printed
 * (the driver's label, without the password, is).
 */
import { appEnvironment } from "./env-files.js"
import { DatabaseUrlError } from "./errors.js"
import type { CliIO } from "./io.js"

/** The message for an empty URL argument: almost always a variable the shell does not have. */
export const EMPTY_DATABASE_URL =
  'The database URL is empty: is DATABASE_URL set in this shell? The shell expands "$DATABASE_URL" before latchkey runs and reads no .env file. ' +
  "Run `npx latchkey migrate` without a URL to use DATABASE_URL from the environment, .env.local or .env, or pass the URL itself."

/**
 * The app's `DATABASE_URL`, after saying on stderr where it came from.
 *
 * @throws DatabaseUrlError when the app has none (or an empty one).
 *
 * @example
 * ```ts
 * const url = appDatabaseUrl(io) // "Using DATABASE_URL from .env.local."
 * ```
 */
export function appDatabaseUrl(io: CliIO): string {
  const { env, sources } = appEnvironment(io)
  const url = env.DATABASE_URL?.trim()
  if (url === undefined || url === "") {
    const where = url === "" ? ` (DATABASE_URL in ${sources.DATABASE_URL} is empty)` : ""
    throw new DatabaseUrlError(`No database URL${where}: pass one (npx latchkey migrate postgres://user@host:5432/db) or set DATABASE_URL in the environment, .env.local or .env.`)
  }
  io.err(`Using DATABASE_URL from ${sources.DATABASE_URL}.`)
  return url
}
