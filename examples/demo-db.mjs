// `npm run demo -- --db`: the demo's users, accounts and sessions in PGlite (PostgreSQL compiled to
// WebAssembly, in this process), through the real @auth/drizzle-adapter, with database sessions.
// The tables are the ones that adapter documents, as the adapter tests create them.
import { readFile } from "node:fs/promises"
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { PGlite } from "@electric-sql/pglite"
import { drizzle } from "drizzle-orm/pglite"

/** A fresh in-memory PGlite database with the Auth.js Drizzle tables, and its adapter. */
export async function demoDatabase() {
  const client = new PGlite()
  await client.exec(await readFile(new URL("../test/adapters/sql/drizzle-pg.sql", import.meta.url), "utf8"))
  return { adapter: DrizzleAdapter(drizzle({ client })), close: () => client.close() }
}
