/**
 * The part of the generated auth module every framework shares: the provider imports (each with the
 * environment variables it reads, as a comment), and the database: an adapter over PostgreSQL
 * (`@auth/pg-adapter` on a `pg` pool), over PGlite (`@auth/drizzle-adapter`, as `npm run demo --
 * --db` runs it), or none (JWT sessions). Password accounts add the `Password` provider (its mails
 * printed in development until the app connects a mailer), the `passwords` plug-in, and the two
 * adapter methods that read and write the hash, as docs/passwords.md shows them for each adapter.
 * The framework templates put these lines around their own call. SvelteKit's module reads its
 * variables from `$env/dynamic/private`: that has `.env.local` in `vite dev`, and an app made by
 * `sv create` has no Node types for `process`.
 */
import { envName } from "../../providers/index.js"
import { hasPasswords } from "./choose.js"
import type { CatalogProvider } from "./provider-catalog.js"
import type { AppLayout, Database, InitChoices } from "./plan.js"

/** The lines of the generated module, by where they go. */
export interface ConfigSource {
  imports: string[]
  /** Statements between the imports and the configuration call. */
  setup: string[]
  /** The configuration object's fields, indented by two spaces. */
  fields: string[]
}

/** What Next.js's and SvelteKit's `Latchkey()` return for password accounts, as their guides import them from the auth module. */
export const PASSWORD_ACTIONS = ["signUp", "requestPasswordReset", "resetPassword", "changePassword", "changeEmail"]

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

/** The type packages a TypeScript app needs beside them: `pg` ships none of its own. */
export const DATABASE_TYPE_PACKAGES: Record<Database, string[]> = {
  postgres: ["@types/pg"],
  pglite: [],
  none: [],
}

const ADAPTER_COMMENT = "// with an adapter, sessions are rows in the database"

/** The adapter field: the adapter alone, or spread with the two methods that read and write the password hash. */
function adapterField(adapter: string, passwordMethods: string[] | undefined): string[] {
  if (passwordMethods === undefined) return [`  adapter: ${adapter}, ${ADAPTER_COMMENT}`]
  return [`  adapter: {`, `    ...${adapter}, ${ADAPTER_COMMENT}`, "    // Where each user's password hash lives: the users table's password column (docs/passwords.md).", ...passwordMethods.map((line) => `    ${line}`), "  },"]
}

/** How the module reads a variable: `process.env.NAME`, or SvelteKit's `env.NAME`. */
type ReadEnv = (name: string) => string

/**
 * The PGlite client, one per folder in the process: Next.js bundles auth.ts twice (route handlers,
 * then server components and actions), and a second client on the same folder reads stale pages
 * (auth() answers null right after a sign-in) and can corrupt it.
 */
function pgliteSetup(typescript: boolean, readEnv: ReadEnv): string[] {
  const global = typescript ? "(globalThis as typeof globalThis & { pgliteClients?: Map<string, PGlite> })" : "globalThis"
  return [
    "// PGlite is PostgreSQL in this process; its files live in PGLITE_DIR.",
    "// One client per folder, kept on globalThis: frameworks may load auth.ts more than once (Next.js does).",
    `const dir = ${readEnv("PGLITE_DIR")} ?? ".data/pglite"`,
    `const clients = (${global}.pgliteClients ??= new Map())`,
    "const client = clients.get(dir) ?? new PGlite(dir)",
    "clients.set(dir, client)",
    "const db = drizzle({ client })",
  ]
}

function databaseSource(database: Database, passwords: boolean, typescript: boolean, readEnv: ReadEnv): ConfigSource {
  if (database === "postgres") {
    const methods = [
      'getUserPassword: async (id) => (await pool.query("select password from users where id = $1", [id])).rows[0]?.password ?? null,',
      "setUserPassword: async (id, hash) => {",
      '  await pool.query("update users set password = $2 where id = $1", [id, hash])',
      "},",
      "// A reset ends the user's other sessions first: @auth/pg-adapter has no method for it.",
      "deleteSessionsByUserId: async (id) => {",
      "  await pool.query('delete from sessions where \"userId\" = $1', [id])",
      "},",
    ]
    return {
      imports: ['import PostgresAdapter from "@auth/pg-adapter"', 'import pg from "pg"'],
      setup: [`const pool = new pg.Pool({ connectionString: ${readEnv("DATABASE_URL")} })`],
      fields: adapterField("PostgresAdapter(pool)", passwords ? methods : undefined),
    }
  }
  if (database === "pglite") {
    // The adapter's own tables have no password column; the two methods reach it through SQL.
    const methods = [
      `getUserPassword: async (id) => (await db.execute${typescript ? "<{ password: string | null }>" : ""}(sql\`select password from "user" where id = \${id}\`)).rows[0]?.password ?? null,`,
      "setUserPassword: async (id, hash) => {",
      '  await db.execute(sql`update "user" set password = ${hash} where id = ${id}`)',
      "},",
      "// A reset ends the user's other sessions first: the Drizzle adapter has no method for it.",
      "deleteSessionsByUserId: async (id) => {",
      '  await db.execute(sql`delete from "session" where "userId" = ${id}`)',
      "},",
    ]
    return {
      imports: ['import { DrizzleAdapter } from "@auth/drizzle-adapter"', 'import { PGlite } from "@electric-sql/pglite"', ...(passwords ? ['import { sql } from "drizzle-orm"'] : []), 'import { drizzle } from "drizzle-orm/pglite"'],
      setup: pgliteSetup(typescript, readEnv),
      fields: adapterField("DrizzleAdapter(db)", passwords ? methods : undefined),
    }
  }
  return { imports: [], setup: [], fields: ["  // No adapter: sessions are sealed in the cookie (JWT). See docs/databases.md to keep users in a database."] }
}

/** The Password provider's lines: its mails printed in development until the app connects a mailer. */
const passwordProviderLines = (readEnv: ReadEnv) => [
  "    Password({",
  "      // Verification, reset and change-of-address links go out through sendEmail. Until you connect a",
  "      // mailer, they are printed here while AUTH_URL is on localhost; anywhere else this throws, so no",
  "      // link ever lands in a production log.",
  "      sendEmail: async ({ to, subject, text }) => {",
  `        if (!${readEnv("AUTH_URL")}?.startsWith("http://localhost")) throw new Error("Connect a mailer to sendEmail in Password() (docs/passwords.md).")`,
  "        console.log(`[latchkey] mail to ${to}: ${subject}\\n${text}`)",
  "      },",
  "    }),",
]

/** The shared lines for the user's choices, in the app's language and framework. */
export function configSource(choices: Pick<InitChoices, "providers" | "database"> & { layout: Pick<AppLayout, "typescript" | "framework"> }): ConfigSource {
  const passwords = hasPasswords(choices.providers)
  const sveltekit = choices.layout.framework === "sveltekit"
  const readEnv: ReadEnv = (name) => (sveltekit ? `env.${name}` : `process.env.${name}`)
  const providerImports = choices.providers.map((provider) => `import ${provider.exportName} from "latchkey/providers/${provider.file}"`)
  const providerLines = choices.providers.flatMap((provider) => (provider.type === "password" ? passwordProviderLines(readEnv) : [`    ${provider.exportName}, // ${providerEnvNames(provider).join(", ")}`]))
  const database = databaseSource(choices.database, passwords, choices.layout.typescript, readEnv)
  const readsEnv = passwords || choices.database !== "none"
  return {
    imports: [...providerImports, ...(passwords ? ['import { passwords } from "latchkey/passwords"'] : []), ...database.imports, ...(sveltekit && readsEnv ? ['import { env } from "$env/dynamic/private"'] : [])],
    setup: database.setup,
    fields: [
      "  providers: [",
      ...providerLines,
      "  ],",
      ...database.fields,
      ...(passwords ? ["  passwords, // the sign-up, verification, reset and change routes, and their pages"] : []),
      "  // secret: AUTH_SECRET and the public URL: AUTH_URL, both from the environment",
    ],
  }
}

/** A module's text: a header comment, the imports, the setup and the body, each block apart. */
export function moduleText(header: string, imports: string[], setup: string[], body: string[]): string {
  const blocks = [[`// ${header}`, ...imports], setup, body].filter((block) => block.length > 0)
  return `${blocks.map((block) => block.join("\n")).join("\n\n")}\n`
}
