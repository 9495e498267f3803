// latchkey/passwords in the Web build: bundled as edge runtimes and browsers bundle it, it carries no
// node: import, Buffer, require( or process. at all; bundled for workerd, the one mention of node: is
// the run-time probe for nodejs_compat (an import whose specifier a bundler does not resolve), and
// nothing else. test/runtime/web-build.test.ts's rule, with that one probe named rather than excused.
import { existsSync } from "node:fs"
import { build } from "esbuild"
import { describe, expect, it } from "vitest"

const FORBIDDEN: [string, RegExp][] = [
  ["a node: import", /["']node:/],
  ["Buffer", /(?<![A-Za-z_$])Buffer(?![A-Za-z_$])/],
  ["require(", /(?<![A-Za-z_$.])require\(/],
  ["process.", /(?<![A-Za-z_$.])process[.?]/],
]
const PROBE = 'importAtRunTime("node:crypto")'

async function bundled(conditions: string[]): Promise<string> {
  const result = await build({ stdin: { contents: `export * from "latchkey/passwords"`, resolveDir: process.cwd() }, bundle: true, write: false, format: "esm", platform: "neutral", conditions, mainFields: ["module", "main"], tsconfig: "test/runtime/tsconfig.bundle.json", logLevel: "silent" })
  return result.outputFiles[0]!.text
}

describe("latchkey/passwords in the Web build", () => {
  it.skipIf(!existsSync("dist/passwords.js"))("edge and browser bundles have no Node globals and no node: import", async () => {
    const code = await bundled(["edge-light", "worker", "browser"])
    expect(code).toContain("PBKDF2")
    for (const [what, pattern] of FORBIDDEN) expect(code, `contains ${what}`).not.toMatch(pattern)
  })

  it.skipIf(!existsSync("dist/passwords.js"))("the workerd bundle mentions node: only in the run-time nodejs_compat probe", async () => {
    const code = await bundled(["workerd", "worker", "browser"])
    expect(code.split(PROBE)).toHaveLength(2)
    const rest = code.replace(PROBE, "")
    for (const [what, pattern] of FORBIDDEN) expect(rest, `contains ${what}`).not.toMatch(pattern)
    expect(code).not.toMatch(/import\s*\(\s*["']node:/)
  })
})
