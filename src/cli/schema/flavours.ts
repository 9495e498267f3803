/**
 * The adapter flavours: how each `@auth/*` adapter names the logical tables and which column types
 * it reads back correctly on each database. They differ in more than names (`users` for
 * `@auth/pg-adapter`, `User` for Kysely, `user` for Drizzle): pg-adapter counts ids with `SERIAL`,
 * Kysely keeps uuid surrogate ids on accounts and sessions, Drizzle stores SQLite dates as epoch
 * milliseconds and Kysely as ISO text. Every choice below follows the adapter's source in
 * node_modules and its documented schema, and is proven by the adapter contract tests.
 */
import type { ColumnKind, TableId } from "./model.js"

/** The databases the CLI writes SQL for. MariaDB takes the MySQL output. */
export type Dialect = "postgres" | "mysql" | "sqlite"

/** The adapters the CLI writes schemas for. */
export type FlavourId = "drizzle" | "kysely" | "pg"

/** One adapter's view of the model. */
export interface Flavour {
  id: FlavourId
  /** The npm package of the adapter. */
  adapterPackage: string
  /** The databases the adapter runs on. */
  dialects: readonly Dialect[]
  /** Whether the adapter stores passkeys (has the authenticator methods). */
  storesAuthenticators: boolean
  tableName(table: TableId): string
  /** The tables that carry a generated `id` primary key of their own (the natural key stays unique). */
  surrogateIdTables: readonly TableId[]
  /** The SQL type of a column kind; `userId` also covers surrogate ids. */
  sqlType(kind: ColumnKind, dialect: Dialect): string
}

type TypeTable = Record<ColumnKind, string>

const DRIZZLE_TYPES: Record<Dialect, TypeTable> = {
  // drizzle-adapter lib/pg.ts: text ids set by $defaultFn, timestamp without time zone (written in UTC).
  postgres: { userId: "text", userRef: "text", key: "text", text: "text", date: "timestamp", epochSeconds: "integer", integer: "integer", boolean: "boolean" },
  // lib/mysql.ts: varchar(255) ids; DATETIME(3) holds what its timestamp({ fsp: 3 }) writes, past 2038.
  mysql: { userId: "varchar(255)", userRef: "varchar(255)", key: "varchar(255)", text: "text", date: "datetime(3)", epochSeconds: "int", integer: "int", boolean: "boolean" },
  // lib/sqlite.ts: integer({ mode: "timestamp_ms" }) dates and integer({ mode: "boolean" }).
  sqlite: { userId: "text", userRef: "text", key: "text", text: "text", date: "integer", epochSeconds: "integer", integer: "integer", boolean: "integer" },
}

const KYSELY_TYPES: Record<Dialect, TypeTable> = {
  // The adapter's own PostgreSQL test schema: uuid ids (it makes them with crypto.randomUUID()), timestamptz.
  postgres: { userId: "uuid", userRef: "uuid", key: "text", text: "text", date: "timestamptz", epochSeconds: "bigint", integer: "integer", boolean: "boolean" },
  mysql: { userId: "varchar(36)", userRef: "varchar(36)", key: "varchar(255)", text: "text", date: "datetime(3)", epochSeconds: "bigint", integer: "int", boolean: "boolean" },
  // On SQLite the adapter writes dates as ISO strings and reads them back with new Date().
  sqlite: { userId: "text", userRef: "text", key: "text", text: "text", date: "text", epochSeconds: "integer", integer: "integer", boolean: "integer" },
}

// The schema of the pg-adapter's Auth.js page: SERIAL ids, so the adapter hands back numeric ids.
const PG_TYPES: TypeTable = { userId: "serial", userRef: "integer", key: "varchar(255)", text: "text", date: "timestamptz", epochSeconds: "bigint", integer: "integer", boolean: "boolean" }

const AUTH_JS_MODEL_NAMES: Record<TableId, string> = { user: "User", account: "Account", session: "Session", verificationToken: "VerificationToken", authenticator: "Authenticator" }

/** Every flavour, by id. */
export const FLAVOURS: Record<FlavourId, Flavour> = {
  drizzle: {
    id: "drizzle",
    adapterPackage: "@auth/drizzle-adapter",
    dialects: ["postgres", "mysql", "sqlite"],
    storesAuthenticators: true,
    tableName: (table) => table,
    surrogateIdTables: [],
    sqlType: (kind, dialect) => DRIZZLE_TYPES[dialect][kind],
  },
  kysely: {
    id: "kysely",
    adapterPackage: "@auth/kysely-adapter",
    dialects: ["postgres", "mysql", "sqlite"],
    storesAuthenticators: false,
    tableName: (table) => AUTH_JS_MODEL_NAMES[table],
    surrogateIdTables: ["account", "session"],
    sqlType: (kind, dialect) => KYSELY_TYPES[dialect][kind],
  },
  pg: {
    id: "pg",
    adapterPackage: "@auth/pg-adapter",
    dialects: ["postgres"],
    storesAuthenticators: false,
    tableName: (table) => ({ user: "users", account: "accounts", session: "sessions", verificationToken: "verification_token", authenticator: "authenticators" })[table],
    surrogateIdTables: ["account", "session"],
    sqlType: (kind) => PG_TYPES[kind],
  },
}

/** Whether `value` names a flavour. */
export function isFlavourId(value: string): value is FlavourId {
  return value in FLAVOURS
}

/** Whether `value` names a dialect. */
export function isDialect(value: string): value is Dialect {
  return value === "postgres" || value === "mysql" || value === "sqlite"
}
