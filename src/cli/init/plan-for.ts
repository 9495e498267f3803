/**
 * Picks the framework's template and adds what every framework shares: the step that creates the
 * database tables when the app keeps users in a database, and, with password accounts, where to
 * make the first account and where its link shows up until a mailer is connected.
 */
import { hasPasswords } from "./choose.js"
import type { Database, FrameworkPlan, InitChoices } from "./plan.js"
import { nextPlan } from "./templates/next.js"
import { nodeServerPlan } from "./templates/node-server.js"
import { sveltekitPlan } from "./templates/sveltekit.js"

/** The step that creates the tables, naming what the written config uses (so `migrate` needs no TypeScript loader: Node 20 has none). */
function databaseStep(database: Database, passwords: boolean): string | undefined {
  const features = passwords ? "database-sessions,passwords" : "database-sessions"
  // No URL on the line: DATABASE_URL is in .env.local, not the shell, and `migrate` reads it from there.
  if (database === "postgres") return `Point DATABASE_URL in .env.local at your PostgreSQL database, and create latchkey's tables there with \`npx latchkey migrate --adapter pg --with ${features}\` (it reads DATABASE_URL from .env.local; see docs/cli.md).`
  if (database === "pglite") return `Create latchkey's tables in PGlite with \`npx latchkey migrate pglite:.data/pglite --adapter drizzle --with ${features}\` (see docs/cli.md), and add its folder, .data/, to .gitignore.`
  return undefined
}

/** The files and next steps for the chosen framework and database. */
export function planFor(choices: InitChoices): FrameworkPlan {
  const { framework } = choices.layout
  const plan = framework === "next" ? nextPlan(choices) : framework === "sveltekit" ? sveltekitPlan(choices) : nodeServerPlan(choices)
  const passwords = hasPasswords(choices.providers)
  const tables = databaseStep(choices.database, passwords)
  const signUp = passwords
    ? [`Create the first account at ${plan.devOrigin}/auth/password/sign-up. Until Password's sendEmail has a mailer, the verification link is printed in the server's output.`]
    : []
  return { ...plan, nextSteps: [...(tables === undefined ? [] : [tables]), ...plan.nextSteps, ...signUp] }
}
