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

// A framework that bundles latchkey (SvelteKit's Vite plugin does, for its `svelte` condition)
// leaves latchkey's own imports to be resolved from the app's root at run time, where the app's
// tree may hold another major of the same package (SvelteKit 2 hoists `cookie` 0.6). So the build
// imports only its declared dependencies and the app's own optional peers; anything else is built
// in. (The CLI is left out: it loads the app's own database driver and adapter, on purpose.)
describe("the build's imports", () => {
  it("name only declared dependencies, optional peers, Node built-ins and its own # imports", async (context) => {
    if (NO_BUILD) context.skip(NO_BUILD)
    const { readdir, readFile } = await import("node:fs/promises")
    const manifest = JSON.parse(await readFile("package.json", "utf8")) as { dependencies: Record<string, string>; peerDependencies: Record<string, string> }
    const allowed = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)])
    const files = (await readdir("dist", { recursive: true })).filter((name) => name.endsWith(".js") && !/^cli[./-]/.test(name))
    const { metafile } = await build({ entryPoints: files.map((name) => `dist/${name}`), bundle: true, write: false, outdir: "out", format: "esm", platform: "node", packages: "external", external: ["#*"], metafile: true, logLevel: "silent" })
    const packageOf = (path: string) => path.split("/").slice(0, path.startsWith("@") ? 2 : 1).join("/")
    const imported = new Set(Object.values(metafile.inputs).flatMap((input) => input.imports.filter((edge) => edge.external && !edge.path.startsWith("node:") && !edge.path.startsWith("#")).map((edge) => packageOf(edge.path))))
    expect(imported.size).toBeGreaterThan(0)
    expect([...imported].filter((name) => !allowed.has(name))).toEqual([])
    // The one SvelteKit 2 hoists in another major: built in (tsup's noExternal), even if it is declared again.
    expect(imported).not.toContain("cookie")
  })
})
