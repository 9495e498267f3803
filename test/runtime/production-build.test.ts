// A production build (a bundler that sets the `production` condition, as webpack, Vite, Parcel and
// Turbopack do) takes `#development` from dist/handler/production.js: the error page's development
// hint and the origin-mismatch warning are not in its bundle, and do nothing even when the app then
// runs with NODE_ENV unset. Every other build (Node without a bundler, esbuild without the
// condition) keeps them. Both bundles are built from dist/ and run here, side by side.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { build } from "esbuild"
import { afterAll, describe, expect, it } from "vitest"

const NO_BUILD = existsSync("dist/handler/production.js") ? undefined : "no build in dist/ (run npm run build, or npm test, which builds first)"
const HINT = "Development: the cause is in the server"
const APP = "http://localhost:3000"
const folder = mkdtempSync(join(tmpdir(), "latchkey-production-build-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** The bundle of createAuth for Workers, with or without the `production` condition. */
async function bundle(production: boolean): Promise<string> {
  const result = await build({
    stdin: { contents: `export { createAuth } from "latchkey"`, resolveDir: process.cwd(), sourcefile: "entry.js" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    conditions: production ? ["worker", "browser", "production"] : ["worker", "browser"],
    mainFields: ["module", "main"],
    tsconfig: "test/runtime/tsconfig.bundle.json",
    logLevel: "silent",
  })
  return result.outputFiles[0]!.text
}

/** Runs `code` as a module and answers an error page and an off-origin request in development (NODE_ENV unset). */
async function runInDevelopment(code: string, name: string): Promise<{ page: string; warnings: string[] }> {
  const file = join(folder, `${name}.mjs`)
  writeFileSync(file, code)
  const { createAuth } = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as typeof import("../../src/index.js")
  const warnings: string[] = []
  const { handler } = createAuth({
    providers: [],
    secret: "a-test-secret-that-is-long-enough-for-the-check",
    env: { AUTH_URL: `${APP}/auth` },
    logger: { warn: (code) => void warnings.push(code), error: () => {}, debug: () => {} },
  })
  const page = await (await handler(new Request(`${APP}/auth/error?error=Configuration`))).text()
  await handler(new Request("http://127.0.0.1:3000/auth/session"))
  return { page, warnings }
}

describe("the production build", () => {
  // Two bundles built and run: more than the default 5 s on a busy machine.
  it("carries no development-only hint, and shows none in development", { timeout: 60_000 }, async (context) => {
    if (NO_BUILD) {
      console.warn(`the production build is not checked: ${NO_BUILD}`)
      context.skip(NO_BUILD)
    }
    const [production, development] = await Promise.all([bundle(true), bundle(false)])
    expect(production).not.toContain(HINT)
    expect(production).not.toContain("ORIGIN_MISMATCH")
    expect(development).toContain(HINT)
    expect(development).toContain("ORIGIN_MISMATCH")

    const built = await runInDevelopment(production, "production")
    expect(built.page).toContain("Sign-in is not available right now")
    expect(built.page).not.toContain(HINT)
    expect(built.warnings).not.toContain("ORIGIN_MISMATCH")
    const unbuilt = await runInDevelopment(development, "development")
    expect(unbuilt.page).toContain(HINT)
    expect(unbuilt.warnings).toContain("ORIGIN_MISMATCH")
  })
})
