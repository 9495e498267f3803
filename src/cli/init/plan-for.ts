/**
 * Picks the framework's template and adds what every framework shares: the step that creates the
 * database tables when the app keeps users in a database.
 */
import type { FrameworkPlan, InitChoices } from "./plan.js"
import { nextPlan } from "./templates/next.js"
import { nodeServerPlan } from "./templates/node-server.js"
import { sveltekitPlan } from "./templates/sveltekit.js"

const DATABASE_STEPS = {
  // The flags name what the written config uses, so `migrate` needs no TypeScript loader (Node 20 has none).
  postgres: 'Point DATABASE_URL in .env.local at your PostgreSQL database, and create latchkey\'s tables there with `npx latchkey migrate "$DATABASE_URL" --adapter pg --with database-sessions` (see docs/cli.md).',
  pglite: "Create latchkey's tables in PGlite with `npx latchkey migrate pglite:.data/pglite --adapter drizzle --with database-sessions` (see docs/cli.md), and add its folder, .data/, to .gitignore.",
  none: undefined,
}

/** The files and next steps for the chosen framework and database. */
export function planFor(choices: InitChoices): FrameworkPlan {
  const { framework } = choices.layout
  const plan = framework === "next" ? nextPlan(choices) : framework === "sveltekit" ? sveltekitPlan(choices) : nodeServerPlan(choices)
  const databaseStep = DATABASE_STEPS[choices.database]
  return databaseStep === undefined ? plan : { ...plan, nextSteps: [databaseStep, ...plan.nextSteps] }
}
