/**
 * Turns the flags, what was detected and (on a terminal) the user's answers into `init`'s choices.
 * Names are checked here: an unknown framework, provider or database is refused with the closest
 * known name ("did you mean"). A provider that is not OAuth or OpenID Connect is refused too, since
 * `init` only writes redirect providers. Without a terminal, or with `--yes`, every question takes
 * its default, and a framework that cannot be detected must be given with `--framework`.
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

function unknown(kind: string, name: string, known: readonly string[]): UnknownChoice {
  const guess = didYouMean(name, known)
  return new UnknownChoice(`Unknown ${kind} "${name}".${guess === undefined ? "" : ` Did you mean "${guess}"?`}`)
}

/** The framework a name means, or why it means none. */
export function parseFramework(name: string): Framework | UnknownChoice {
  return FRAMEWORK_NAMES[name.trim().toLowerCase()] ?? unknown("framework", name, Object.keys(FRAMEWORK_NAMES))
}

/** The database a name means, or why it means none. */
export function parseDatabase(name: string): Database | UnknownChoice {
  const wanted = name.trim().toLowerCase()
  const alias = wanted === "postgresql" || wanted === "pg" ? "postgres" : wanted
  return DATABASES.find((database) => database === alias) ?? unknown("database", name, DATABASES)
}

/** The providers named, in order and without repeats, or why one of them cannot be set up. */
export function parseProviders(names: string[]): CatalogProvider[] | UnknownChoice {
  const chosen: CatalogProvider[] = []
  for (const name of names) {
    const provider = findProvider(name)
    if (provider === undefined) return unknown("provider", name, providerCatalog().map((entry) => entry.file))
    if (provider.type !== "oauth" && provider.type !== "oidc") {
      // Password accounts need a mailer and the plug-in: their page walks through both, and `migrate` adds the column.
      const page = provider.type === "password" ? "docs/passwords.md" : "docs/providers.md"
      return new UnknownChoice(`"${name}" is a ${provider.type} provider; init sets up OAuth and OpenID Connect providers only. Add it by hand (see ${page}).`)
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
