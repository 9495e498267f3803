/**
 * Whether the chosen adapter can hold the schema on the chosen database: `@auth/pg-adapter` runs
 * on PostgreSQL only, and neither it nor the Kysely adapter stores passkeys. Refusals name an
 * adapter that can.
 */
import { SchemaOptionError } from "../errors.js"
import { FLAVOURS, type Dialect } from "./flavours.js"
import type { SchemaFeatures } from "./model.js"
import type { SchemaOptions } from "./options.js"
import { DIALECT_NAMES } from "./sql.js"

/** Refuses a combination the adapter cannot store, naming one that can. */
export function checkAdapterFits(options: SchemaOptions, features: SchemaFeatures, dialect: Dialect): void {
  if (options.format !== "sql") return
  const flavour = FLAVOURS[options.adapter]
  if (!flavour.dialects.includes(dialect)) {
    throw new SchemaOptionError(`${flavour.adapterPackage} runs on PostgreSQL only, not ${DIALECT_NAMES[dialect]}: use --adapter drizzle or --adapter kysely.`)
  }
  if (features.passkeys && !flavour.storesAuthenticators) {
    throw new SchemaOptionError(`${flavour.adapterPackage} cannot store passkeys (it has no authenticator methods): use --adapter drizzle, or the Prisma schema (--format prisma).`)
  }
}

