/**
 * Turns the flags, what was detected and (on a terminal) the user's answers into `init`'s choices.
 * Names are checked here: an unknown framework, provider or database is refused with the closest
 * known name ("did you mean"). Besides OAuth and OpenID Connect providers, `init` sets up password
 * accounts (they keep users in a database, so `none` is refused beside them and the default database
 * becomes PGlite); email, credentials and passkey providers are refused with the page that shows how
 * to add them. Without a terminal, or with `--yes`, every question takes its default, and a framework
 * that cannot be detected must be given with `--framework`.
 */
import { didYouMean } from "./did-you-mean.js"
import { FRAMEWORK_NAMES, type Database, type Framework } from "./plan.js"
import { findProvider, providerCatalog, type CatalogProvider } from "./provider-catalog.js"

/** Asks the user one question on the terminal and answers the reply. */
export type Ask = (question: string) => Promise<string>

/** A name that is not known, with the message that says so. */
export class UnknownChoice {
  constructor(readonly message: string) {}
}

const DATABASES: Database[] = ["postgres", "pglite", "none"]
/** How many times a question is asked again after an answer that is not known. */
const RETRIES = 2

export const DEFAULT_PROVIDERS = ["github"]
export const DEFAULT_DATABASE: Database = "none"
/** With password accounts, users and their hashes need a database: PGlite needs no server. */
export const PASSWORD_DEFAULT_DATABASE: Database = "pglite"

/** Whether the chosen providers include password accounts. */
export function hasPasswords(providers: readonly CatalogProvider[]): boolean {
  return providers.some((provider) => provider.type === "password")
}

function unknown(kind: string, name: string, known: readonly string[]): UnknownChoice {
  const guess = didYouMean(name, known)
  return new UnknownChoice(`Unknown ${kind} "${name}".${guess === undefined ? "" : ` Did you mean "${guess}"?`}`)
}

/** The framework a name means, or why it means none. */
export function parseFramework(name: string): Framework | UnknownChoice {
  return FRAMEWORK_NAMES[name.trim().toLowerCase()] ?? unknown("framework", name, Object.keys(FRAMEWORK_NAMES))
}

/** The database a name means, or why it means none (or why `none` cannot keep password accounts). */
export function parseDatabase(name: string, passwords = false): Database | UnknownChoice {
  const wanted = name.trim().toLowerCase()
  const alias = wanted === "postgresql" || wanted === "pg" ? "postgres" : wanted
  const database = DATABASES.find((known) => known === alias)
  if (database === undefined) return unknown("database", name, DATABASES)
  if (database === "none" && passwords) return new UnknownChoice('Password accounts keep each user and their password hash in a database: choose "pglite" (PostgreSQL in the process, no server) or "postgres".')
  return database
}

/** The providers named, in order and without repeats, or why one of them cannot be set up. */
export function parseProviders(names: string[]): CatalogProvider[] | UnknownChoice {
  const chosen: CatalogProvider[] = []
  for (const name of names) {
    const provider = findProvider(name)
    if (provider === undefined) return unknown("provider", name, providerCatalog().map((entry) => entry.file))
    if (provider.type !== "oauth" && provider.type !== "oidc" && provider.type !== "password") {
      const page = provider.type === "webauthn" ? "docs/passkeys.md" : "docs/providers.md"
      return new UnknownChoice(`"${name}" is a ${provider.type} provider; init sets up OAuth and OpenID Connect providers and password accounts. Add it by hand (see ${page}).`)
    }
    if (!chosen.includes(provider)) chosen.push(provider)
  }
  return chosen.length > 0 ? chosen : new UnknownChoice("Name at least one provider.")
}

/**
 * Asks until `parse` accepts the reply (an empty reply takes `fallback`, when there is one), or
 * answers the last refusal.
 */
export async function askUntilKnown<T>(ask: Ask, question: string, parse: (reply: string) => T | UnknownChoice, report: (line: string) => void, fallback?: string): Promise<T | UnknownChoice> {
  let answer: T | UnknownChoice = new UnknownChoice("No answer.")
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    const reply = (await ask(question)).trim()
    answer = parse(reply === "" && fallback !== undefined ? fallback : reply)
    if (!(answer instanceof UnknownChoice)) return answer
    report(answer.message)
  }
  return answer
}

/** The provider names of a comma-separated reply. */
export function splitNames(reply: string): string[] {
  return reply.split(",").map((name) => name.trim()).filter((name) => name !== "")
}
