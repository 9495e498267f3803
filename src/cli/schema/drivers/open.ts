/**
 * A database URL to an open {@link SchemaDatabase}, by its scheme: `postgres://` and
 * `postgresql://` (pg), `mysql://` and `mariadb://` (mysql2), `sqlite:<file>` and Prisma's
 * `file:<file>` (better-sqlite3 or node:sqlite), `pglite:<directory>` (@electric-sql/pglite).
 */
import { EMPTY_DATABASE_URL } from "../../database-url.js"
import { DatabaseUrlError } from "../../errors.js"
import { importPackage, type PackageLoader, type SchemaDatabase } from "./database.js"
import { openMysql } from "./mysql.js"
import { openPglite, openPostgres } from "./postgres.js"
import { openSqlite } from "./sqlite.js"

/** The schemes understood, for the message when none matches. */
export const DATABASE_URL_FORMS = "postgres://user@host:5432/db[?schema=name], mysql://user@host:3306/db, sqlite:./app.db, pglite:./data"

/** Opens `text` with the app's driver for its scheme. */
export async function openDatabase(text: string, load: PackageLoader = importPackage): Promise<SchemaDatabase> {
  if (text.trim() === "") throw new DatabaseUrlError(EMPTY_DATABASE_URL)
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase()
  const rest = scheme === undefined ? "" : text.slice(scheme.length + 1)
  switch (scheme) {
    case "postgres":
    case "postgresql":
      return openPostgres(parseUrl(text), load)
    case "mysql":
    case "mariadb":
      return openMysql(parseUrl(text), load)
    case "sqlite":
    case "file":
      return openSqlite(rest.replace(/^\/\/(?=\.|\/)/, ""), load)
    case "pglite":
      return openPglite(rest.replace(/^\/\/(?=\.|\/)/, ""), load)
    default:
      throw new DatabaseUrlError(`The database URL has no scheme latchkey knows. Use one of: ${DATABASE_URL_FORMS}.`)
  }
}

function parseUrl(text: string): URL {
  try {
    return new URL(text)
  } catch {
    throw new DatabaseUrlError(`The database URL is not a URL. Use one of: ${DATABASE_URL_FORMS}.`)
  }
}
