/**
 * The tables latchkey's features store, written once and independent of any database: each table
 * is a list of columns of a logical kind (an id, a short indexed string, a long text, a date...),
 * and each feature names the tables it needs. Dialects and adapter flavours turn this model into
 * SQL, Prisma or Drizzle text elsewhere, so a feature (password hashes, later two-factor) adds its
 * flag to {@link SchemaFeatures} and its table or its columns here, in one place, and every output
 * (the three SQL dialects, Prisma, Drizzle, `--apply`'s diff and `doctor`'s table check) follows.
 */

/** What a column holds; a flavour maps each kind to a type per dialect. */
export type ColumnKind =
  /** The users table's primary key. */
  | "userId"
  /** A reference to a user's id. */
  | "userRef"
  /** A short string that is indexed, unique or part of a key (`varchar(255)` where it matters). */
  | "key"
  /** A string of any length: tokens, URLs. */
  | "text"
  /** A point in time. */
  | "date"
  /** A whole number of seconds since the epoch (an access token's `expires_at`). */
  | "epochSeconds"
  /** A small counter. */
  | "integer"
  | "boolean"

/** One column of a logical table; the name is what the `@auth/*` adapters read and write. */
export interface ColumnModel {
  name: string
  kind: ColumnKind
  nullable: boolean
  unique?: boolean
  /**
   * Holds an email address (alone or inside a key) that the adapter looks up by equality: it must
   * match that address only, never a look-alike a database's collation folds into it
   * (`ada@exämple.com` for `ada@example.com`). Physical schemas compare such columns exactly.
   */
  address?: boolean
}

/** The logical tables; a flavour names each one (`users`, `User`, `user`). */
export type TableId = "user" | "account" | "session" | "verificationToken" | "authenticator"

/** One logical table, with its natural key (flavours with surrogate ids keep it as a unique key). */
export interface TableModel {
  id: TableId
  columns: ColumnModel[]
  primaryKey: string[]
}

/** The features that decide which tables exist. */
export interface SchemaFeatures {
  /** `session.strategy: "database"`: sessions are rows. */
  databaseSessions: boolean
  /** An email (magic link) provider: verification tokens are rows. */
  email: boolean
  /** Passkeys (the WebAuthn provider): authenticators are rows. */
  passkeys: boolean
  /**
   * Password accounts (the Password provider): one nullable `password` column on the users table
   * holds each user's hash (a PHC string, or a legacy bcrypt hash until its owner's next sign-in).
   */
  passwords: boolean
}

const column = (name: string, kind: ColumnKind, nullable = false, unique = false): ColumnModel => ({ name, kind, nullable, ...(unique ? { unique } : {}) })
const address = (base: ColumnModel): ColumnModel => ({ ...base, address: true })

const USER: TableModel = {
  id: "user",
  columns: [column("id", "userId"), column("name", "text", true), address(column("email", "key", true, true)), column("emailVerified", "date", true), column("image", "text", true)],
  primaryKey: ["id"],
}

const ACCOUNT: TableModel = {
  id: "account",
  columns: [
    column("userId", "userRef"),
    column("type", "key"),
    column("provider", "key"),
    column("providerAccountId", "key"),
    column("refresh_token", "text", true),
    column("access_token", "text", true),
    column("expires_at", "epochSeconds", true),
    column("token_type", "text", true),
    column("scope", "text", true),
    column("id_token", "text", true),
    column("session_state", "text", true),
  ],
  primaryKey: ["provider", "providerAccountId"],
}

const SESSION: TableModel = {
  id: "session",
  columns: [column("sessionToken", "key"), column("userId", "userRef"), column("expires", "date")],
  primaryKey: ["sessionToken"],
}

/**
 * The identifier is an address too (a magic link's, or `latchkey-password:<kind>:<user>:<address>`).
 * The adapters find a token by `identifier = ? AND token = ?`, and the token's hash does not bind
 * the address: under a folding collation, a link mailed to `ada@exämple.com`, followed with
 * `email=ada@example.com`, would be used up as that address's. The token is a keyed hash the
 * handler computes: a fold could match another row's only by a hash collision, so it keeps the
 * default.
 */
const VERIFICATION_TOKEN: TableModel = {
  id: "verificationToken",
  columns: [address(column("identifier", "key")), column("token", "key"), column("expires", "date")],
  primaryKey: ["identifier", "token"],
}

const AUTHENTICATOR: TableModel = {
  id: "authenticator",
  columns: [
    column("credentialID", "key", false, true),
    column("userId", "userRef"),
    column("providerAccountId", "key"),
    column("credentialPublicKey", "text"),
    column("counter", "integer"),
    column("credentialDeviceType", "key"),
    column("credentialBackedUp", "boolean"),
    column("transports", "text", true),
  ],
  primaryKey: ["userId", "credentialID"],
}

/**
 * Which tables each feature adds, in creation order (a table follows those it references). A new
 * feature is one more line here and its table above.
 */
const TABLES_BY_FEATURE: ReadonlyArray<{ table: TableModel; needed(features: SchemaFeatures): boolean }> = [
  { table: USER, needed: () => true },
  { table: ACCOUNT, needed: () => true },
  { table: SESSION, needed: (features) => features.databaseSessions },
  // The single-use tokens of magic links, and of password accounts' mailed links (verification, reset, new address).
  { table: VERIFICATION_TOKEN, needed: (features) => features.email || features.passwords },
  { table: AUTHENTICATOR, needed: (features) => features.passkeys },
]

/**
 * Columns a feature adds to a table another feature owns, each appended to its table when the
 * feature is on; `--apply` adds such a column to a table that already exists. Password hashes live
 * on the users table, nullable (OAuth-only and passkey-only users have none), as `text`: an Auth.js
 * credentials app that already keeps bcrypt hashes in `users.password` needs no migration at all.
 */
const COLUMNS_BY_FEATURE: ReadonlyArray<{ table: TableId; column: ColumnModel; needed(features: SchemaFeatures): boolean }> = [
  { table: "user", column: column("password", "text", true), needed: (features) => features.passwords },
]

/** The tables an app with `features` stores, users first, each with the columns its features add. */
export function tablesFor(features: SchemaFeatures): TableModel[] {
  return TABLES_BY_FEATURE.filter((entry) => entry.needed(features)).map(({ table }) => {
    const added = COLUMNS_BY_FEATURE.filter((entry) => entry.table === table.id && entry.needed(features)).map((entry) => entry.column)
    return added.length === 0 ? table : { ...table, columns: [...table.columns, ...added] }
  })
}
