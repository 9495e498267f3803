/**
 * The SvelteKit files, as docs/frameworks/sveltekit.md and examples/sveltekit-app have them:
 * `src/auth.ts` with `Latchkey(config)`, the hook that hands `/auth` to latchkey in
 * `src/hooks.server.ts`, and `locals.auth()` declared in `src/app.d.ts`. An app that already has a
 * hook keeps it, and is told the lines to add. The app.d.ts that `sv create` writes (its interfaces
 * commented out) gets the declaration; any other app.d.ts is kept, with the lines printed.
 */
import { hasPasswords } from "../choose.js"
import { configSource, moduleText, PASSWORD_ACTIONS } from "../config-source.js"
import type { FileAddition, FrameworkPlan, InitChoices, PlannedFile } from "../plan.js"

const LOCALS_IMPORT = 'import type { LatchkeyLocals } from "latchkey/sveltekit"'
const LOCALS = "interface Locals extends LatchkeyLocals {}"

const APP_TYPES = `// See https://svelte.dev/docs/kit/types#app.d.ts
${LOCALS_IMPORT}

declare global {
  namespace App {
    ${LOCALS}
  }
}

export {}
`

/** sv create's placeholder for Locals, in `declare global { namespace App { ... } }`. */
const COMMENTED_LOCALS = /^([ \t]*)\/\/ interface Locals \{\}[ \t]*$/m

/** app.d.ts with latchkey's Locals in place of sv create's commented one, and its import after the header comment. */
function declareLocals(appTypes: string): string | undefined {
  if (appTypes.includes(LOCALS) && appTypes.includes(LOCALS_IMPORT)) return appTypes
  // Another Locals, live or half-added, is the app's own: merging into it is the user's call.
  const placeholder = COMMENTED_LOCALS.exec(appTypes)
  if (placeholder === null || !/namespace App\s*\{/.test(appTypes) || /^\s*(export\s+)?interface Locals\b/m.test(appTypes) || appTypes.includes("LatchkeyLocals")) return undefined
  const declared = appTypes.replace(COMMENTED_LOCALS, `${placeholder[1]}${LOCALS}`)
  const header = /^(?:\/\/.*\r?\n)*/.exec(declared)![0]
  return `${header}${LOCALS_IMPORT}\n\n${declared.slice(header.length)}`
}

const APP_TYPES_ADDITION: FileAddition = { what: "Locals extends LatchkeyLocals", addTo: declareLocals }

/** The files and next steps for a SvelteKit app. */
export function sveltekitPlan(choices: InitChoices): FrameworkPlan {
  const extension = choices.layout.typescript ? "ts" : "js"
  const source = configSource(choices)
  // With password accounts, the form actions docs/frameworks/sveltekit.md imports from auth.ts too.
  const members = ["handle", "signIn", "signOut", ...(hasPasswords(choices.providers) ? PASSWORD_ACTIONS : [])]
  const auth = moduleText(
    "The app's one latchkey instance: the hook and the sign-in and sign-out form actions come from here.",
    ['import { Latchkey } from "latchkey/sveltekit"', ...source.imports],
    source.setup,
    [`export const { ${members.join(", ")} } = Latchkey({`, ...source.fields, "})"]
  )
  const hook = moduleText("Requests under /auth go to latchkey; every other request gets locals.auth().", [], [], ['export { handle } from "./auth"'])
  const files: PlannedFile[] = [
    { path: `src/auth.${extension}`, contents: auth },
    {
      path: `src/hooks.server.${extension}`,
      contents: hook,
      ifExists: 'put latchkey\'s hook first in it: import { handle as latchkeyHandle } from "./auth", then export const handle = sequence(latchkeyHandle, yourHandle)',
    },
  ]
  if (choices.layout.typescript) {
    files.push({
      path: "src/app.d.ts",
      contents: APP_TYPES,
      ifExists: `declare latchkey's locals in it: ${LOCALS_IMPORT}, and \`${LOCALS}\` in namespace App`,
      addition: APP_TYPES_ADDITION,
    })
  }
  return {
    devOrigin: "http://localhost:5173",
    files,
    nextSteps: [
      "SvelteKit does not put .env.local into process.env: export the variables in your shell for `vite dev`, or run the build with `node --env-file=.env.local build`.",
      "Start the app with `npm run dev` and open http://localhost:5173/auth/signin to sign in; read the session with `await locals.auth()`.",
    ],
  }
}
