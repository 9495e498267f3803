// The built `latchkey` bin (dist/cli.js) on this Node, in a fresh app directory: a JavaScript
// config that exports createAuth's result is read for real, `migrate` applies to PGlite, and a
// TypeScript config on a Node that cannot strip types is a typed error naming the fix.
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { promisify } from "node:util"
import { afterAll, expect, it } from "vitest"
import { directoryHost } from "./schema-support-io.js"

const BIN = join(new URL("../../dist/cli.js", import.meta.url).pathname)
const DIST_INDEX = pathToFileURL(new URL("../../dist/index.js", import.meta.url).pathname).href
const built = existsSync(BIN)
if (!built) console.warn("[cli schema] the built bin is not run: no dist/cli.js (run npx tsup, or npm test, which builds first)")

const app = directoryHost()
afterAll(app.remove)

/** Runs the bin in the app directory; answers the exit code and both streams. */
async function bin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: app.dir, env: { PATH: process.env.PATH ?? "" } })
    return { code: 0, stdout, stderr }
  } catch (failure) {
    const { code, stdout, stderr } = failure as { code: number; stdout: string; stderr: string }
    return { code, stdout, stderr }
  }
}

// SQLite through the app's better-sqlite3 on Node 20, through node:sqlite where better-sqlite3 was built for another Node.
it.skipIf(!built)("reads createAuth's result from auth.mjs with .env.local, and migrates SQLite once", async () => {
  app.write(".env.local", "AUTH_SECRET=Zq3vN8xK1pR7mT2wY6bH9cJ4fL0sD5gA_e-uVkXoPiQ\n")
  app.write("auth.mjs", `import { createAuth } from ${JSON.stringify(DIST_INDEX)}
const email = { id: "email", name: "Email", type: "email", from: "a@example.com", sendVerificationRequest() {} }
export const { handler, auth } = createAuth({ providers: [email], session: { strategy: "jwt" }, adapter: { createUser() {}, getUser() {}, getUserByEmail() {}, updateUser() {}, createVerificationToken() {}, useVerificationToken() {} } })`)
  const printed = await bin("schema", "--dialect", "sqlite")
  expect(printed.stderr).toMatch(/Read auth\.mjs: an email provider/)
  expect(printed.stdout).toMatch(/CREATE TABLE "verificationToken"/)
  expect(printed.stdout).not.toMatch(/CREATE TABLE "session"/)
  expect(printed.code).toBe(0)
  const first = await bin("migrate", "sqlite:./app.db", "--yes")
  expect(first.stdout).toMatch(/Applied \d+ statements in one transaction/)
  const second = await bin("migrate", "sqlite:./app.db", "--yes")
  expect(second.stdout).toMatch(/SQLite \.\/app\.db already has every table and column .*nothing to do/)
  const written = await bin("schema", "--out", "db/auth")
  expect(written.stdout).toMatch(/wrote db\/auth\/drizzle-schema\.ts/)
  expect(app.read("db/auth/sqlite.sql")).toMatch(/CREATE TABLE "verificationToken"/)
  const refused = await bin("migrate", "sqlite:./other.db")
  expect(refused.stderr).toMatch(/Nothing was changed\. Run again with --yes/)
  expect(refused.code).toBe(1)
}, 120_000)

// Node strips TypeScript types by default from 22.18 and 23.6 (process.features.typescript says so where it exists).
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number)
const stripsTypes =
  Boolean((process.features as { typescript?: unknown }).typescript) || major >= 24 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18) || process.execArgv.includes("--experimental-strip-types")

it.skipIf(!built || stripsTypes)("a TypeScript config on a Node that cannot strip types names the fix", async () => {
  const tsApp = directoryHost()
  try {
    tsApp.write("src/auth.ts", "export const config: { providers: unknown[] } = { providers: [] }\n")
    const { code, stderr } = await promisify(execFile)(process.execPath, [BIN, "schema"], { cwd: tsApp.dir }).then(
      (done) => ({ code: 0, ...done }),
      (failure: { code: number; stderr: string }) => failure,
    )
    expect(stderr).toMatch(/ERR_CLI_TYPESCRIPT_CONFIG: src\/auth\.ts is TypeScript, which Node \d+\.\d+\.\d+ cannot load\. Use Node 22\.18 or later/)
    expect(stderr).toMatch(/--with database-sessions,email,passkeys/)
    expect(code).toBe(1)
  } finally {
    tsApp.remove()
  }
})

// Vite resolves `./db` without its extension, so only the real bin shows what Node does.
it.skipIf(!built)("a config whose imports only a bundler resolves is named with the fix", async () => {
  const bundled = directoryHost()
  try {
    bundled.write("auth.mjs", 'import { db } from "./db"\nexport default { providers: [], adapter: db }')
    bundled.write("db.mjs", "export const db = {}")
    const { code, stderr } = await promisify(execFile)(process.execPath, [BIN, "schema"], { cwd: bundled.dir }).then(
      (done) => ({ code: 0, ...done }),
      (failure: { code: number; stderr: string }) => failure,
    )
    expect(stderr).toMatch(/ERR_CLI_CONFIG_LOAD: auth\.mjs failed to load: ERR_MODULE_NOT_FOUND: .*its imports need file extensions and no path aliases; or pass --with instead/)
    expect(code).toBe(1)
  } finally {
    bundled.remove()
  }
})
