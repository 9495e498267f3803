/**
 * Which `@auth/*` adapter a configured adapter object is, recognised by the table its `createUser`
 * writes: `INSERT INTO users` is `@auth/pg-adapter`, `insertInto("User")` is Kysely's, and the
 * `usersTable` of a table set is Drizzle's. A guess, used only when `--adapter` is not given and
 * always printed; a bundled or wrapped adapter matches nothing and the default stays.
 */
import type { FlavourId } from "./flavours.js"

const SIGNATURES: ReadonlyArray<[FlavourId, RegExp]> = [
  ["pg", /INSERT INTO users\b/i],
  ["kysely", /insertInto\(\s*["']User["']\s*\)/],
  ["drizzle", /\busersTable\b/],
]

/** The flavour of `adapter`, when exactly one signature matches its `createUser`. */
export function guessFlavour(adapter: unknown): FlavourId | undefined {
  const createUser = (adapter as { createUser?: unknown } | null | undefined)?.createUser
  if (typeof createUser !== "function") return undefined
  const source = Function.prototype.toString.call(createUser)
  const matches = SIGNATURES.filter(([, pattern]) => pattern.test(source))
  return matches.length === 1 ? matches[0]![0] : undefined
}
