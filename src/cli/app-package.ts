/**
 * What the app's package.json says about it, for the advice the CLI gives when the configuration
 * alone cannot say: which `@auth/*` adapter it installed (the tables differ per adapter, and
 * advising the wrong one creates a second set nobody reads) and which framework serves it in
 * development (Vite's port is 5173, Next's 3000). Only a clear answer is taken: no package.json,
 * one that does not parse, or two adapters, and the caller says it does not know.
 */
import type { CliIO } from "./io.js"
import { FLAVOURS, type FlavourId } from "./schema/flavours.js"

const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]

/** The names of every package the app's package.json depends on; empty without a readable one. */
export function appDependencies(io: CliIO): ReadonlySet<string> {
  const text = io.readFile("package.json")
  if (text === undefined) return new Set()
  let manifest: unknown
  try {
    manifest = JSON.parse(text)
  } catch {
    return new Set()
  }
  const names = new Set<string>()
  for (const field of DEPENDENCY_FIELDS) {
    const listed = typeof manifest === "object" && manifest !== null ? (manifest as Record<string, unknown>)[field] : undefined
    if (typeof listed === "object" && listed !== null) for (const name of Object.keys(listed)) names.add(name)
  }
  return names
}

/**
 * The adapter flavour the dependencies name, when they name exactly one `@auth/*` adapter and the
 * CLI writes tables for it (`@auth/pg-adapter`, `@auth/drizzle-adapter`, `@auth/kysely-adapter`).
 * An app with a second adapter (a Prisma one beside pg, say) gets no answer: either may be in use.
 */
export function adapterOfDependencies(dependencies: ReadonlySet<string>): { flavour: FlavourId; adapterPackage: string } | undefined {
  const adapters = [...dependencies].filter((name) => /^@auth\/[a-z0-9-]+-adapter$/.test(name))
  if (adapters.length !== 1) return undefined
  const flavour = Object.values(FLAVOURS).find((candidate) => candidate.adapterPackage === adapters[0])
  return flavour === undefined ? undefined : { flavour: flavour.id, adapterPackage: flavour.adapterPackage }
}

/** The origin the app's dev server answers on: Vite's (SvelteKit and other Vite apps) or Next's. */
export function devServerOrigin(dependencies: ReadonlySet<string>): string {
  const vite = dependencies.has("@sveltejs/kit") || (dependencies.has("vite") && !dependencies.has("next"))
  return vite ? "http://localhost:5173" : "http://localhost:3000"
}
