import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { afterEach, describe, expect, it } from "vitest"
import { checkLayers, type Violation } from "../scripts/check-layers.mjs"

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** A synthetic src/ on disk, laid out with the real floor table's folder names. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "latchkey-layers-"))
  roots.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

const keys = (violations: Violation[]) => violations.map((violation) => violation.key)

describe("check-layers on synthetic trees", () => {
  it("catches an import from a higher floor, type-only included, and lets downward imports through", () => {
    const root = tree({
      "jwt/encode.ts": 'import type { Config } from "../handler/config.js"\nexport const a = 1',
      "handler/config.ts": 'import { c } from "../jwt/backend/node.js"\nimport { b } from "./index.js"\nexport type Config = { a: number }',
      "handler/index.ts": "export const b = 2",
      "jwt/backend/node.ts": 'import { u } from "../../lib/util.js"\nexport const c = u',
      "lib/util.ts": "export const u = 1",
    })
    const result = checkLayers({ root })
    expect(keys(result.violations)).toEqual(["jwt/encode.ts -> handler/config.ts (upward)"])
    expect(result.violations[0]).toMatchObject({ typeOnly: true, floors: [1, 7], pair: "jwt/ -> handler/" })
    expect(result.ok).toBe(false)
  })

  it("catches an import from a sibling folder or root file on the same floor", () => {
    const root = tree({
      "webauthn/host.ts": 'import { memo } from "../provider-tokens/memo.js"\nexport const host = memo',
      "provider-tokens/memo.ts": "export const memo = 1",
      "integrations/next/index.ts": 'import { run } from "../../cli/commands.js"\nimport { cookie } from "../set-cookie.js"\nexport const x = run + cookie',
      "integrations/set-cookie.ts": "export const cookie = 1",
      "cli/commands.ts": "export const run = 1",
      "index.ts": 'export { run } from "./cli/commands.js"',
    })
    expect(keys(checkLayers({ root }).violations)).toEqual([
      "index.ts -> cli/commands.ts (sibling)",
      "integrations/next/index.ts -> cli/commands.ts (sibling)",
      "webauthn/host.ts -> provider-tokens/memo.ts (sibling)",
    ])
  })

  it("catches a cycle made only of type imports and prints it as a path", () => {
    const root = tree({
      "lib/a.ts": 'import type { B } from "./b.js"\nexport type A = { b?: B }',
      "lib/b.ts": 'import type { C } from "./c.js"\nexport type B = { c?: C }',
      "lib/c.ts": 'import type { A } from "./a.js"\nexport type C = { a?: A }',
      "lib/d.ts": 'import type { A } from "./a.js"\nexport type D = A',
    })
    const [cycle, ...rest] = checkLayers({ root }).violations
    expect(rest).toEqual([])
    expect(cycle).toMatchObject({ rule: "cycle", members: ["lib/a.ts", "lib/b.ts", "lib/c.ts"] })
    expect(cycle?.key).toBe("lib/a.ts -> lib/b.ts -> lib/c.ts -> lib/a.ts (cycle)")
  })

  it("walks a component of two cycles through every member, the same way every run", () => {
    const root = tree({
      "handler/config.ts": 'import type { P } from "./proxy.js"\nimport type { T } from "./tokens.js"\nexport type C = P | T',
      "handler/proxy.ts": 'import type { C } from "./config.js"\nexport type P = { c?: C }',
      "handler/tokens.ts": 'import type { C } from "./config.js"\nexport type T = { c?: C }',
    })
    expect(keys(checkLayers({ root }).violations)).toEqual(["handler/config.ts -> handler/proxy.ts -> handler/config.ts -> handler/tokens.ts -> handler/config.ts (cycle)"])
  })

  it("counts `export * from` and `export type ... from` as edges", () => {
    const root = tree({
      "oauth/index.ts": 'export * from "../redis/index.js"\nexport type { Store } from "../adapters/store.js"',
      "redis/index.ts": "export const r = 1",
      "adapters/store.ts": "export type Store = {}",
    })
    expect(keys(checkLayers({ root }).violations)).toEqual(["oauth/index.ts -> adapters/store.ts (upward)", "oauth/index.ts -> redis/index.ts (upward)"])
  })

  it("counts a dynamic import() and a typeof import() type, and not an import in a comment or string", () => {
    const root = tree({
      "providers/github.ts": [
        '// import { x } from "../client/index.js"',
        'const text = "import(\\"../react/index.js\\")"',
        'export const load = () => import("../handler/index.js")',
        'export type Client = typeof import("../client/index.js")',
      ].join("\n"),
      "handler/index.ts": "export const h = 1",
      "client/index.ts": "export const c = 1",
      "react/index.ts": "export const r = 1",
    })
    const result = checkLayers({ root })
    expect(keys(result.violations)).toEqual(["providers/github.ts -> client/index.ts (upward)", "providers/github.ts -> handler/index.ts (upward)"])
    expect(result.imports).toBe(2)
  })

  it("fails on a file in a folder the floor table does not place, even when the baseline lists it", () => {
    const root = tree({ "widgets/button.ts": "export const b = 1", "lib/ok.ts": "export const ok = 1" })
    const result = checkLayers({ root, baseline: ["widgets/button.ts (unplaced)"] })
    expect(keys(result.fresh)).toEqual(["widgets/button.ts (unplaced)"])
    expect(result.ok).toBe(false)
  })

  it("fails on a relative import that names no source file, even when the baseline lists it", () => {
    const root = tree({ "lib/a.ts": 'import { gone } from "./gone.js"\nexport const a = gone' })
    const result = checkLayers({ root, baseline: ["lib/a.ts -> ./gone.js (unresolved)"] })
    expect(keys(result.fresh)).toEqual(["lib/a.ts -> ./gone.js (unresolved)"])
  })

  it("a baseline entry excuses exactly its own violation", () => {
    const root = tree({
      "jwt/a.ts": 'import "../handler/x.js"\nimport "../handler/y.js"',
      "handler/x.ts": "export {}",
      "handler/y.ts": "export {}",
    })
    const result = checkLayers({ root, baseline: ["jwt/a.ts -> handler/x.ts (upward)"] })
    expect(keys(result.violations)).toHaveLength(2)
    expect(keys(result.fresh)).toEqual(["jwt/a.ts -> handler/y.ts (upward)"])
    expect(result.stale).toEqual([])
    expect(result.ok).toBe(false)
    expect(checkLayers({ root, baseline: keys(result.violations) }).ok).toBe(true)
  })

  it("reports a baseline entry that no longer occurs, so the baseline only shrinks", () => {
    const root = tree({ "jwt/a.ts": 'import "../lib/x.js"', "lib/x.ts": "export {}" })
    const result = checkLayers({ root, baseline: ["jwt/a.ts -> handler/x.ts (upward)"] })
    expect(result.fresh).toEqual([])
    expect(result.stale).toEqual(["jwt/a.ts -> handler/x.ts (upward)"])
    expect(result.ok).toBe(false)
  })
})

describe("check-layers on the real src/", () => {
  it("passes against the committed baseline (exit 0)", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["scripts/check-layers.mjs"])
    expect(stdout).toMatch(/^layers: \d+ files, \d+ relative imports/)
    expect(stdout).toMatch(/violations: unplaced 0, unresolved 0,/)
  }, 60_000) // a child Node parsing all of src/: seconds on a busy machine
})
