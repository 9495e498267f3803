/**
 * The SvelteKit files, as docs/frameworks/sveltekit.md and examples/sveltekit-app have them:
 * `src/auth.ts` with `Latchkey(config)`, the hook that hands `/auth` to latchkey in
 * `src/hooks.server.ts`, and `locals.auth()` declared in `src/app.d.ts`. An app that already has a
 * hook or an app.d.ts keeps it, and is told the lines to add.
 */
import { configSource, moduleText } from "../config-source.js"
import type { FrameworkPlan, InitChoices } from "../plan.js"

const APP_TYPES = `// See https://svelte.dev/docs/kit/types#app.d.ts
import type { LatchkeyLocals } from "latchkey/sveltekit"

declare global {
  namespace App {
    interface Locals extends LatchkeyLocals {}
  }
}

export {}
`

/** The files and next steps for a SvelteKit app. */
export function sveltekitPlan(choices: InitChoices): FrameworkPlan {
  const extension = choices.layout.typescript ? "ts" : "js"
  const source = configSource(choices)
  const auth = moduleText(
    "The app's one latchkey instance: the hook and the sign-in and sign-out form actions come from here.",
    ['import { Latchkey } from "latchkey/sveltekit"', ...source.imports],
    source.setup,
    ["export const { handle, signIn, signOut } = Latchkey({", ...source.fields, "})"]
  )
  const hook = moduleText("Requests under /auth go to latchkey; every other request gets locals.auth().", [], [], ['export { handle } from "./auth"'])
  const files = [
    { path: `src/auth.${extension}`, contents: auth },
    {
      path: `src/hooks.server.${extension}`,
      contents: hook,
      ifExists: 'put latchkey\'s hook first in it: import { handle as latchkeyHandle } from "./auth", then export const handle = sequence(latchkeyHandle, yourHandle)',
    },
  ]
  if (choices.layout.typescript) {
    files.push({ path: "src/app.d.ts", contents: APP_TYPES, ifExists: 'declare latchkey\'s locals in it: import type { LatchkeyLocals } from "latchkey/sveltekit", and `interface Locals extends LatchkeyLocals {}` in namespace App' })
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
