/**
 * The part of the generated auth module every framework shares: the provider imports (each with the
 * environment variables it reads, as a comment), and the database: an adapter over PostgreSQL
 * (`@auth/pg-adapter` on a `pg` pool), over PGlite (`@auth/drizzle-adapter`, as `npm run demo --
 * --db` runs it), or none (JWT sessions). The framework templates put these lines around their own call.
 */
import { envName } from "../../providers/index.js"
import type { CatalogProvider } from "./provider-catalog.js"
import type { Database, InitChoices } from "./plan.js"

/** The lines of the generated module, by where they go. */
export interface ConfigSource {
  imports: string[]
  /** Statements between the imports and the configuration call. */
  setup: string[]
  /** The configuration object's fields, indented by two spaces. */
  fields: string[]
}

/** The environment variables a provider reads. */
export function providerEnvNames(provider: CatalogProvider): string[] {
  const names = [envName(provider.id, "ID"), envName(provider.id, "SECRET")]
  return provider.needsIssuer ? [...names, envName(provider.id, "ISSUER")] : names
}

/** The packages a database choice needs beside latchkey. */
export const DATABASE_PACKAGES: Record<Database, string[]> = {
  postgres: ["@auth/pg-adapter", "pg"],
  pglite: ["@auth/drizzle-adapter", "drizzle-orm", "@electric-sql/pglite"],
  none: [],
}

function databaseSource(database: Database): ConfigSource {
  if (database === "postgres") {
    return {
      imports: ['import PostgresAdapter from "@auth/pg-adapter"', 'import pg from "pg"'],
      setup: ["const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL })"],
      fields: ["  adapter: PostgresAdapter(pool), // with an adapter, sessions are rows in the database"],
    }
  }
  if (database === "pglite") {
    return {
      imports: ['import { DrizzleAdapter } from "@auth/drizzle-adapter"', 'import { PGlite } from "@electric-sql/pglite"', 'import { drizzle } from "drizzle-orm/pglite"'],
      setup: ['// PGlite is PostgreSQL in this process; its files live in PGLITE_DIR.', 'const db = drizzle({ client: new PGlite(process.env.PGLITE_DIR ?? ".data/pglite") })'],
      fields: ["  adapter: DrizzleAdapter(db), // with an adapter, sessions are rows in the database"],
    }
  }
  return { imports: [], setup: [], fields: ["  // No adapter: sessions are sealed in the cookie (JWT). See docs/databases.md to keep users in a database."] }
}

/** The shared lines for the user's choices. */
export function configSource(choices: Pick<InitChoices, "providers" | "database">): ConfigSource {
  const providerImports = choices.providers.map((provider) => `import ${provider.exportName} from "latchkey/providers/${provider.file}"`)
  const providerLines = choices.providers.map((provider) => `    ${provider.exportName}, // ${providerEnvNames(provider).join(", ")}`)
  const database = databaseSource(choices.database)
  return {
    imports: [...providerImports, ...database.imports],
    setup: database.setup,
    fields: ["  providers: [", ...providerLines, "  ],", ...database.fields, "  // secret: AUTH_SECRET and the public URL: AUTH_URL, both from the environment"],
  }
}

/** A module's text: a header comment, the imports, the setup and the body, each block apart. */
export function moduleText(header: string, imports: string[], setup: string[], body: string[]): string {
  const blocks = [[`// ${header}`, ...imports], setup, body].filter((block) => block.length > 0)
  return `${blocks.map((block) => block.join("\n")).join("\n\n")}\n`
}
