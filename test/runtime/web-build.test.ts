// The Web build must carry no Node globals: bundled for workers (as wrangler would), no entry may
// contain a node: import, Buffer, require(, or process. outside the one guarded env lookup.
import { existsSync } from "node:fs"
import { build } from "esbuild"
import { describe, expect, it } from "vitest"

const ENTRIES = ["latchkey", "latchkey/jwt", "latchkey/oauth", "latchkey/providers", "latchkey/providers/github", "latchkey/types"]

const FORBIDDEN: [string, RegExp][] = [
  ["a node: import", /["']node:/],
  ["Buffer", /(?<![A-Za-z_$])Buffer(?![A-Za-z_$])/],
  ["require(", /(?<![A-Za-z_$.])require\(/],
  // The env lookup reads globalThis.process?.env, which is safe where process does not exist.
  ["process. outside the guarded env lookup", /(?<![A-Za-z_$.])process\.(?!env\b)|(?<!globalThis\.)(?<![A-Za-z_$.])process\?\./],
]

// The Web build is dist/: without it there is nothing to bundle, and the skip says so.
const NO_BUILD = existsSync("dist/index.js") ? undefined : "no build in dist/ (run npm run build, or npm test, which builds first)"

describe("the Web build", () => {
  it.for(ENTRIES)("%s has no Node globals", async (entry, context) => {
    if (NO_BUILD) {
      console.warn(`${entry} is not checked for Node globals: ${NO_BUILD}`)
      context.skip(NO_BUILD)
    }
    const result = await build({
      stdin: { contents: `export * from "${entry}"`, resolveDir: process.cwd() },
      bundle: true,
      write: false,
      format: "esm",
      platform: "neutral",
      conditions: ["workerd", "worker", "browser"],
      mainFields: ["module", "main"],
      tsconfig: "test/runtime/tsconfig.bundle.json",
      logLevel: "silent",
    })
    const code = result.outputFiles[0]!.text
    for (const [what, pattern] of FORBIDDEN) expect(code, `${entry} contains ${what}`).not.toMatch(pattern)
  })
})
