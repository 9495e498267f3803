/**
 * The Next.js (App Router) files, laid out as docs/frameworks/nextjs.md and examples/next-app have
 * them: `auth.ts` beside the `app` folder (at the root, or in `src/` when the app keeps its App
 * Router there), and the catch-all route at `app/auth/[...latchkey]/route.ts`, which is latchkey's
 * default base path `/auth`. On PGlite, the Next.js config keeps PGlite out of the bundle.
 */
import { hasPasswords } from "../choose.js"
import { configSource, moduleText, PASSWORD_ACTIONS } from "../config-source.js"
import type { FrameworkPlan, InitChoices } from "../plan.js"
import { pgliteNextConfig } from "./next-config.js"

/** The files and next steps for a Next.js app. */
export function nextPlan(choices: InitChoices): FrameworkPlan {
  const { typescript, srcDir } = choices.layout
  const extension = typescript ? "ts" : "js"
  const root = srcDir ? "src/" : ""
  const source = configSource(choices)
  // With password accounts, the server actions docs/frameworks/nextjs.md imports from auth.ts too.
  const members = ["handlers", "auth", "signIn", "signOut", "proxy", ...(hasPasswords(choices.providers) ? PASSWORD_ACTIONS : [])]
  const auth = moduleText(
    "The app's one latchkey instance: the route, auth(), the server actions and the proxy all come from here.",
    ['import { Latchkey } from "latchkey/next"', ...source.imports],
    source.setup,
    [`export const { ${members.join(", ")} } = Latchkey({`, ...source.fields, "})"]
  )
  const route = moduleText("Every request under /auth (latchkey's default basePath) goes to the handler.", ['import { handlers } from "../../../auth"'], [], ["export const { GET, POST } = handlers"])
  return {
    devOrigin: "http://localhost:3000",
    files: [
      { path: `${root}auth.${extension}`, contents: auth },
      { path: `${root}app/auth/[...latchkey]/route.${extension}`, contents: route },
      ...(choices.database === "pglite" ? [pgliteNextConfig(choices.layout.nextConfig, typescript)] : []),
    ],
    nextSteps: [
      "Start the app with `npm run dev` and open http://localhost:3000/auth/signin to sign in.",
      `Read the session with \`await auth()\` (import { auth } from "${srcDir ? "@/auth" : "./auth"}") in server components, route handlers and actions.`,
    ],
  }
}
