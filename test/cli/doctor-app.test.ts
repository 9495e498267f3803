// `latchkey doctor` in the app as the reviewer found it: a config that did not load must not send
// a pg-adapter user to create Drizzle's tables (bug H3), `--with` is accepted as the TypeScript
// error suggests (L2), and the AUTH_URL advice uses the framework's dev port and the basePath (L4).
// A TypeScript config that this Node cannot load is a problem only until the run says what the app
// uses (`--with`, `--adapter`), as that error advises: then it is a note, and the run can pass.
// The tables are read from real PostgreSQL, in a `latchkey_cli_*` schema dropped afterwards.
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { promisify } from "node:util"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { doctorCommand } from "../../src/cli/doctor/command.js"
import type { CliIO } from "../../src/cli/io.js"
import { directoryHost } from "./schema-support-io.js"
import { POSTGRES, POSTGRES_URL, probe, uniqueName } from "./schema-support.js"

const GOOD_SECRET = "Zq3vN8xK1pR7mT2wY6bH9cJ4fL0sD5gA_e-uVkXoPiQ"
const cleanups: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function doctor(files: Record<string, string>, args: string[] = [], io: Partial<CliIO> = {}): Promise<{ code: number; text: string }> {
  const app = directoryHost()
  cleanups.push(app.remove)
  for (const [name, contents] of Object.entries(files)) app.write(name, contents)
  const code = await doctorCommand(args, { ...app.io, ...io })
  return { code, text: [...app.out, ...app.err].join("\n") }
}

const env = (values: Record<string, string>) => Object.entries(values).map(([name, value]) => `${name}=${value}`).join("\n")
const manifest = (dependencies: Record<string, string>) => JSON.stringify({ name: "app", dependencies })
const BROKEN_CONFIG = 'throw new Error("the pool could not start")'

describe("doctor's table check when the configuration did not load", async () => {
  const reason = await probe("PostgreSQL", POSTGRES)()
  if (reason !== undefined) console.warn(`[cli doctor-app] PostgreSQL is skipped: ${reason}`)
  if (reason !== undefined && process.env.CI === "true") throw new Error(`PostgreSQL is required under CI: ${reason}`)
  async function emptySchema(): Promise<string> {
    const schema = uniqueName()
    const admin = new pg.Client(POSTGRES)
    await admin.connect()
    await admin.query(`CREATE SCHEMA ${schema}`)
    cleanups.push(() => admin.query(`DROP SCHEMA ${schema} CASCADE`).then(() => admin.end()))
    return `${POSTGRES_URL}?schema=${schema}`
  }
  const HEALTHY = { AUTH_SECRET: GOOD_SECRET, AUTH_URL: "http://localhost:3000/auth" }

  it.skipIf(reason !== undefined)("takes the adapter from package.json: @auth/pg-adapter means pg's tables", async () => {
    const url = await emptySchema()
    const { code, text } = await doctor({ ".env.local": env({ ...HEALTHY, DATABASE_URL: url }), "auth.mjs": BROKEN_CONFIG, "package.json": manifest({ "@auth/pg-adapter": "^1", pg: "^8" }) })
    expect(text).toMatch(/✗ ERR_CLI_CONFIG_LOAD: auth\.mjs failed to load/)
    expect(text).toMatch(/package\.json depends on @auth\/pg-adapter/)
    expect(text).toMatch(/✗ The database lacks table users, table accounts\b.*Fix: run `npx latchkey migrate <database-url> --adapter pg`/)
    expect(text).not.toMatch(/drizzle/)
    expect(code).toBe(1)
  })

  it.skipIf(reason !== undefined)("names no adapter when package.json does not say which (none, or two)", async () => {
    const url = await emptySchema()
    for (const dependencies of [{}, { "@auth/pg-adapter": "^1", "@auth/drizzle-adapter": "^1" }] as Array<Record<string, string>>) {
      const { text } = await doctor({ ".env.local": env({ ...HEALTHY, DATABASE_URL: url }), "auth.mjs": BROKEN_CONFIG, "package.json": manifest(dependencies) })
      expect(text).toMatch(/✗ The tables were not checked: the configuration did not load \(ERR_CLI_CONFIG_LOAD\), and the check needs it to know the adapter\..*Fix: make the configuration load, or pass --adapter/)
      expect(text).not.toMatch(/--adapter (drizzle|kysely|pg)\b/)
    }
  })

  it.skipIf(reason !== undefined)("accepts --with, and checks the tables it names", async () => {
    const url = await emptySchema()
    const { text } = await doctor({ ".env.local": env({ ...HEALTHY, DATABASE_URL: url }), "auth.mjs": BROKEN_CONFIG, "package.json": manifest({ "@auth/pg-adapter": "^1" }) }, ["--with", "database-sessions,email"])
    expect(text).not.toMatch(/Unknown argument/)
    expect(text).toMatch(/✗ The database lacks table users, table accounts, table sessions, table verification_token\b/)
  })

  it.skipIf(reason !== undefined)("a TypeScript config this Node cannot load, with --adapter and --with: their tables are checked", async () => {
    const url = await emptySchema()
    const files = { ".env.local": env({ ...HEALTHY, DATABASE_URL: url }), "auth.ts": TS_CONFIG, "package.json": manifest({}) }
    const { code, text } = await doctor(files, ["--adapter", "pg", "--with", "database-sessions"], NODE_WITHOUT_TYPES)
    expect(text).toMatch(/· auth\.ts is TypeScript/)
    expect(text).toMatch(/✗ The database lacks table users, table accounts, table sessions\..*--adapter pg/)
    expect(code).toBe(1)
    // --with alone cannot say which adapter's tables: that stays a problem, naming --adapter.
    const unnamed = await doctor(files, ["--with", "database-sessions"], NODE_WITHOUT_TYPES)
    expect(unnamed.text).toMatch(/✗ The tables were not checked: the configuration did not load \(ERR_CLI_TYPESCRIPT_CONFIG\).*pass --adapter/)
  })

  it("refuses an unknown --with feature as a usage error", async () => {
    const { code, text } = await doctor({ ".env.local": env(HEALTHY) }, ["--with", "sessionz"])
    expect(text).toMatch(/--with sessionz: unknown/)
    expect(code).toBe(2)
  })
})

describe("doctor's AUTH_URL advice follows the app", () => {
  const noUrl = { ".env.local": env({ AUTH_SECRET: GOOD_SECRET }) }

  it("SvelteKit (Vite): port 5173", async () => {
    const { text } = await doctor({ ...noUrl, "package.json": JSON.stringify({ devDependencies: { "@sveltejs/kit": "^2", vite: "^7" } }) })
    expect(text).toMatch(/✗ No AUTH_URL.*Fix: .*AUTH_URL=http:\/\/localhost:5173\/auth\b/)
  })

  it("Next.js: port 3000; and the configured basePath", async () => {
    const next = await doctor({ ...noUrl, "package.json": manifest({ next: "^16" }) })
    expect(next.text).toMatch(/Fix: .*AUTH_URL=http:\/\/localhost:3000\/auth\b/)
    const basePath = await doctor({ ...noUrl, "package.json": JSON.stringify({ devDependencies: { "@sveltejs/kit": "^2" } }), "auth.mjs": 'export default { providers: [], basePath: "/api/auth" }' })
    expect(basePath.text).toMatch(/Fix: .*AUTH_URL=http:\/\/localhost:5173\/api\/auth\b/)
  })
})

// Node 20 (and 22 before 22.18 without --experimental-strip-types) refuses a .ts module with this
// error; vitest itself loads TypeScript on any Node, so the import is made to fail as Node's would.
const NODE_WITHOUT_TYPES: Partial<CliIO> = {
  importModule: async (name) => {
    throw Object.assign(new TypeError(`Unknown file extension ".ts" for /app/${name}`), { code: "ERR_UNKNOWN_FILE_EXTENSION" })
  },
}
const TS_CONFIG = 'import { Latchkey } from "latchkey/next"\nexport const { handlers, auth } = Latchkey({ providers: [] })\n'

describe("doctor with a TypeScript config this Node cannot load", () => {
  const app = { ".env.local": env({ AUTH_SECRET: GOOD_SECRET, AUTH_URL: "http://localhost:3000/auth" }), "auth.ts": TS_CONFIG, "package.json": manifest({ next: "^16" }) }

  it("without --with or --adapter: a problem, naming the fixes", async () => {
    const { code, text } = await doctor(app, [], NODE_WITHOUT_TYPES)
    expect(text).toMatch(/✗ ERR_CLI_TYPESCRIPT_CONFIG: auth\.ts is TypeScript, which Node \S+ cannot load\..*--with database-sessions/)
    expect(text).toMatch(/1 problem found\./)
    expect(code).toBe(1)
  })

  it("with --with, as the error advises: a note saying what was skipped, and the run passes", async () => {
    for (const args of [["--with", "database-sessions,passwords"], ["--adapter", "pg", "--with", "database-sessions,passwords"], ["--adapter", "pg"]]) {
      const { code, text } = await doctor(app, args, NODE_WITHOUT_TYPES)
      expect(text, args.join(" ")).not.toMatch(/✗/)
      expect(text).toMatch(/· auth\.ts is TypeScript, which Node \S+ cannot load: doctor skipped it, and takes what the app uses from --(with|adapter)\b.*not checked/)
      expect(text).toMatch(/No problems found\./)
      expect(code).toBe(0)
    }
  })

  it("with --with, the other checks still find their problems", async () => {
    const { code, text } = await doctor({ ...app, ".env.local": env({ AUTH_SECRET: "abc", AUTH_URL: "http://localhost:3000/auth" }) }, ["--with", "passwords"], NODE_WITHOUT_TYPES)
    expect(text).toMatch(/· auth\.ts is TypeScript/)
    expect(text).toMatch(/✗ AUTH_SECRET .* is 3 characters long/)
    expect(text).toMatch(/1 problem found\./)
    expect(code).toBe(1)
  })
})

// The built bin on this very Node, where it cannot load TypeScript (Node 20, as the reviewer ran it).
const BIN = new URL("../../dist/cli.js", import.meta.url).pathname
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number)
const stripsTypes =
  Boolean((process.features as { typescript?: unknown }).typescript) || major >= 24 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18) || process.execArgv.includes("--experimental-strip-types")
const binSkip = !existsSync(BIN) ? "no dist/cli.js (run npm run build)" : stripsTypes ? `Node ${process.versions.node} loads TypeScript, so the condition cannot arise` : undefined
if (binSkip !== undefined) console.warn(`[cli doctor-app] the built bin with auth.ts is not run: ${binSkip} (the forced test above covers it)`)

it.skipIf(binSkip !== undefined)("the built bin, with auth.ts on a Node that cannot load it and --with: exits 0", async () => {
  const dir = directoryHost()
  cleanups.push(dir.remove)
  for (const [name, contents] of Object.entries({ ".env.local": env({ AUTH_SECRET: GOOD_SECRET, AUTH_URL: "http://localhost:3000/auth" }), "auth.ts": TS_CONFIG, "package.json": manifest({ next: "^16" }) })) dir.write(name, contents)
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, [BIN, "doctor", "--offline", ...args], { cwd: dir.dir, env: { PATH: process.env.PATH ?? "" } }).then(
      (done) => ({ code: 0, text: done.stdout + done.stderr }),
      (failure: { code: number; stdout: string; stderr: string }) => ({ code: failure.code, text: failure.stdout + failure.stderr }),
    )
  const refused = await run([])
  expect(refused.text).toMatch(/✗ ERR_CLI_TYPESCRIPT_CONFIG/)
  expect(refused.code).toBe(1)
  const advised = await run(["--adapter", "pg", "--with", "database-sessions,passwords"])
  expect(advised.text).toMatch(/· auth\.ts is TypeScript/)
  expect(advised.text).toMatch(/No problems found\./)
  expect(advised.code).toBe(0)
}, 60_000)
