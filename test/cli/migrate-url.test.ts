// `latchkey migrate` without a URL takes DATABASE_URL as the app sees it (the environment, then
// .env.local, then .env) and says where from, never printing the password; an empty URL (an unset
// `$DATABASE_URL` pasted from init's hint) is named as such (bug M3). Against real PostgreSQL, in
// `latchkey_cli_*` schemas dropped afterwards.
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { runCli } from "../../src/cli/commands.js"
import { parseEnvText } from "../../src/cli/env-files.js"
import { directoryHost, type DirectoryHost } from "./schema-support-io.js"
import { POSTGRES, probe, uniqueName } from "./schema-support.js"

const cleanups: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

function host(env: Record<string, string> = {}, files: Record<string, string> = {}): DirectoryHost {
  const made = directoryHost(env)
  cleanups.push(made.remove)
  for (const [name, contents] of Object.entries(files)) made.write(name, contents)
  return made
}
const run = (made: DirectoryHost, ...args: string[]) => runCli(args, made.io, parseEnvText)
const printed = (made: DirectoryHost) => [...made.out, ...made.err].join("\n")

describe("migrate's database URL", async () => {
  const reason = await probe("PostgreSQL", POSTGRES)()
  if (reason !== undefined) console.warn(`[cli migrate-url] PostgreSQL is skipped: ${reason}`)
  if (reason !== undefined && process.env.CI === "true") throw new Error(`PostgreSQL is required under CI: ${reason}`)
  async function schemaUrl(): Promise<string> {
    const schema = uniqueName()
    const admin = new pg.Client(POSTGRES)
    await admin.connect()
    await admin.query(`CREATE SCHEMA ${schema}`)
    cleanups.push(() => admin.query(`DROP SCHEMA ${schema} CASCADE`).then(() => admin.end()))
    // A password the server (trust authentication) ignores, and that must never be printed.
    return `postgres://postgres:hunter2-secret@127.0.0.1:5432/test?schema=${schema}`
  }

  it.skipIf(reason !== undefined)("no URL: DATABASE_URL from .env.local, named, without its password", async () => {
    const url = await schemaUrl()
    const app = host({}, { ".env": "DATABASE_URL=postgres://nobody@127.0.0.1:1/none", ".env.local": `DATABASE_URL=${url}` })
    expect(await run(app, "migrate", "--yes", "--with", "database-sessions")).toBe(0)
    expect(printed(app)).toMatch(/Using DATABASE_URL from \.env\.local/)
    expect(printed(app)).toMatch(/Applied \d+ statements/)
    expect(printed(app)).not.toContain("hunter2")
  })

  it.skipIf(reason !== undefined)("the environment wins over the files; schema --apply with no URL does the same", async () => {
    const url = await schemaUrl()
    const app = host({ DATABASE_URL: url }, { ".env.local": "DATABASE_URL=postgres://nobody@127.0.0.1:1/none" })
    expect(await run(app, "schema", "--apply", "--yes")).toBe(0)
    expect(printed(app)).toMatch(/Using DATABASE_URL from the environment/)
    expect(printed(app)).not.toContain("hunter2")
  })

  it("no URL anywhere: says where it looked", async () => {
    const app = host()
    expect(await run(app, "migrate")).not.toBe(0)
    expect(printed(app)).toMatch(/ERR_CLI_DATABASE_URL: No database URL: pass one .* or set DATABASE_URL in the environment, \.env\.local or \.env/)
  })

  it("an empty URL argument: asks whether DATABASE_URL is set in this shell", async () => {
    const app = host()
    expect(await run(app, "migrate", "", "--yes")).toBe(1)
    expect(printed(app)).toMatch(/ERR_CLI_DATABASE_URL: The database URL is empty: is DATABASE_URL set in this shell\?/)
    expect(printed(app)).not.toMatch(/no scheme/)
  })
})
