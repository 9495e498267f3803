// Issue 29, item 7: `npm run demo` or `npm pack` in a second terminal rebuilt dist/ under a running
// `npm test`, and the suites that read dist/ (the runtime matrix, the Web build check, the CLI, the
// example apps) failed on missing files. The build now happens in a private folder and replaces
// dist/ in one step (scripts/build.mjs). This runs the real build, as those commands run it, while
// it reads every file package.json exports, as those suites do, the whole time.
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

/** Every file the package's exports and imports point at, such as dist/index.js and dist/jwt.d.ts. */
function exportedFiles(): string[] {
  const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { exports: Record<string, unknown>; imports: Record<string, unknown> }
  const targets = new Set<string>()
  const collect = (value: unknown): void => {
    if (typeof value === "string") {
      if (!value.includes("*") && value.startsWith("./dist/")) targets.add(value.slice(2))
    } else if (value !== null && typeof value === "object") Object.values(value).forEach(collect)
  }
  collect(pkg.exports)
  collect(pkg.imports)
  return [...targets]
}

const unbuilt = existsSync("dist/index.js") ? undefined : "no build in dist/ (run npm run build, or npm test, which builds first)"

describe.skipIf(unbuilt !== undefined)(`a rebuild of dist/ during the tests${unbuilt ? ` (skipped: ${unbuilt})` : ""}`, () => {
  it("never leaves an exported file missing while npm run build runs", async () => {
    const files = exportedFiles()
    expect(files.length).toBeGreaterThan(10)
    const build = spawn("npm", ["run", "--silent", "build"], { stdio: ["ignore", "ignore", "pipe"] })
    let stderr = ""
    build.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const finished = new Promise<number | null>((resolve) => build.once("exit", resolve))
    let done = false
    void finished.then(() => (done = true))
    const missing = new Set<string>()
    let reads = 0
    while (!done) {
      for (const file of files) {
        try {
          readFileSync(file)
        } catch {
          missing.add(file)
        }
      }
      reads++
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(await finished, stderr).toBe(0)
    expect(reads).toBeGreaterThan(10)
    expect([...missing].sort(), `missing at some point during the build (of ${files.length} files, read ${reads} times)`).toEqual([])
  }, 600_000)
})
