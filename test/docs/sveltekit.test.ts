// docs/frameworks/sveltekit.md's TypeScript, as an app copies it: the blocks that need nothing of
// SvelteKit's generated types (`./$types`) typecheck as the files they name, and so does the example
// app's session.svelte.ts, which the page's block mirrors. The runes are declared as Svelte
// declares them for a .svelte.ts file.
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { describe, expect } from "vitest"
import { itTypechecks } from "../setup/typechecks.js"
import { snippet, typecheck } from "./support.js"

const PAGE = "frameworks/sveltekit.md"
const RUNES = "declare function $state<T>(initial: T): T\ndeclare function $effect(fn: () => void | (() => void)): void\n"

describe("docs/frameworks/sveltekit.md", () => {
  itTypechecks("the configuration, the hook, app.d.ts and the form actions compile as the files they name", () => {
    const files = {
      "src/auth.ts": snippet(PAGE, "ts", "// src/auth.ts").code,
      "src/hooks.server.ts": snippet(PAGE, "ts", "// src/hooks.server.ts").code,
      "src/app.d.ts": snippet(PAGE, "ts", "// src/app.d.ts").code,
      "src/routes/+page.server.ts": snippet(PAGE, "ts", "// src/routes/+page.server.ts").code,
    }
    expect(typecheck(files)).toEqual([])
  }, 60_000)

  itTypechecks("the session in the browser compiles: its Session type comes from latchkey/client, in the page and in the example", () => {
    const block = snippet(PAGE, "ts", "// src/lib/session.svelte.ts").code
    expect(block).toContain('from "latchkey/client"')
    const example = readFileSync(resolve(import.meta.dirname, "../../examples/sveltekit-app/src/routes/session.svelte.ts"), "utf8")
    expect(typecheck({ "runes.d.ts": RUNES, "src/lib/session.svelte.ts": block, "example/session.svelte.ts": example })).toEqual([])
  }, 60_000)
})
