// `latchkey doctor` in the app as the reviewer found it: a config that did not load must not send
// a pg-adapter user to create Drizzle's tables (bug H3), `--with` is accepted as the TypeScript
// error suggests (L2), and the AUTH_URL advice uses the framework's dev port and the basePath (L4).
// The tables are read from real PostgreSQL, in a `latchkey_cli_*` schema dropped afterwards.
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { doctorCommand } from "../../src/cli/doctor/command.js"
import { directoryHost } from "./schema-support-io.js"
import { POSTGRES, POSTGRES_URL, probe, uniqueName } from "./schema-support.js"

const GOOD_SECRET = "Zq3vN8xK1pR7mT2wY6bH9cJ4fL0sD5gA_e-uVkXoPiQ"
const cleanups: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function doctor(files: Record<string, string>, args: string[] = []): Promise<{ code: number; text: string }> {
  const app = directoryHost()
  cleanups.push(app.remove)
  for (const [name, contents] of Object.entries(files)) app.write(name, contents)
  const code = await doctorCommand(args, app.io)
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
