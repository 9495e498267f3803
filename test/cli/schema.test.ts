import { afterEach, describe, expect, it, onTestFinished } from "vitest"
import { loadAppConfig } from "../../src/cli/app-config.js"
import { runCli } from "../../src/cli/commands.js"
import { parseEnvText } from "../../src/cli/env-files.js"
import { directoryHost, SRC, type DirectoryHost } from "./schema-support-io.js"

const hosts: DirectoryHost[] = []
afterEach(() => {
  for (const host of hosts.splice(0)) host.remove()
})

function host(env: Record<string, string> = {}, answers: boolean[] = []): DirectoryHost {
  const made = directoryHost(env, answers)
  hosts.push(made)
  return made
}

const run = (made: DirectoryHost, ...args: string[]) => runCli(args, made.io, parseEnvText)

/** An auth module as apps write it: createAuth's result exported destructured. */
const AUTH_MODULE = (options: string) => `
import { createAuth } from ${JSON.stringify(`${SRC}index.ts`)}
import { memoryAdapter } from ${JSON.stringify(`${SRC}adapters/memory-adapter.ts`)}
import GitHub from ${JSON.stringify(`${SRC}providers/github.ts`)}
const email = { id: "email", name: "Email", type: "email", from: "a@example.com", sendVerificationRequest: () => {} }
export const { handler, auth } = createAuth({ adapter: memoryAdapter(), providers: [GitHub, email], ${options} })
`

describe("latchkey schema: the app's configuration", () => {
  it("reads the config from what createAuth returned, exported destructured, with .env.local's secret", async () => {
    // node.ts hands the commands process.env, which is what the app's module reads on import.
    const app = host(process.env as Record<string, string>)
    const before = { ...process.env }
    onTestFinished(() => {
      for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name]
    })
    app.write("src/auth.ts", AUTH_MODULE(""))
    app.write(".env.local", "AUTH_SECRET=a-long-enough-secret-for-the-test-0123456789\nAUTH_GITHUB_ID=x\nAUTH_GITHUB_SECRET=y\n")
    const code = await run(app, "schema")
    expect(app.err.join("\n")).toMatch(/Read src\/auth\.ts: database sessions, an email provider/)
    expect(code).toBe(0)
    const sql = app.out.join("\n")
    expect(sql).toMatch(/CREATE TABLE "user"/)
    expect(sql).toMatch(/CREATE TABLE "session"/)
    expect(sql).toMatch(/CREATE TABLE "verificationToken"/)
    expect(sql).not.toMatch(/authenticator/)
  })

  it("writes no sessions table for JWT sessions and no verification tokens without an email provider", async () => {
    const app = host({ AUTH_SECRET: "a-long-enough-secret-for-the-test-0123456789" })
    app.write("lib/auth.mjs", `export default { providers: [{ id: "gh", type: "oauth" }], session: { strategy: "jwt" } }`)
    expect(await run(app, "schema", "--dialect", "sqlite")).toBe(0)
    const sql = app.out.join("\n")
    expect(sql).toMatch(/CREATE TABLE "account"/)
    expect(sql).not.toMatch(/"session"|verificationToken/)
  })

  it("the brand is invisible to spreading, JSON and key listing", async () => {
    const { createAuth } = await import("../../src/index.js")
    const made = createAuth({ providers: [], secret: "a-long-enough-secret-for-the-test-0123456789" })
    expect(Object.keys(made)).not.toContain(Symbol.for("latchkey.config").toString())
    expect(Object.getOwnPropertySymbols({ ...made })).toEqual([])
    expect(JSON.stringify(made)).not.toMatch(/providers/)
    // It holds the secret: printing what an app exports must not show it.
    const { inspect } = await import("node:util")
    expect(inspect(made, { depth: 5 }) + inspect(made.handler) + inspect(made.auth)).not.toContain("a-long-enough-secret")
    const app = host()
    app.write("auth.mjs", "export const ignored = 1")
    await expect(loadAppConfig(app.io)).rejects.toMatchObject({ code: "ERR_CLI_CONFIG_LOAD", message: expect.stringMatching(/exports no latchkey configuration/) })
  })

  it("--config naming a missing file is an error naming it; no file at all falls back to users and accounts", async () => {
    const app = host()
    expect(await run(app, "schema", "--config", "nope.ts")).toBe(1)
    expect(app.err.join("\n")).toMatch(/ERR_CLI_CONFIG_NOT_FOUND: --config nope\.ts/)
    const bare = host()
    expect(await run(bare, "schema")).toBe(0)
    expect(bare.err.join("\n")).toMatch(/No latchkey configuration found .*auth\.ts/)
    expect(bare.out.join("\n")).toMatch(/CREATE TABLE "account"/)
  })

  it("--with describes the app without reading a file", async () => {
    const app = host()
    app.write("auth.ts", "throw new Error('must not be imported')")
    expect(await run(app, "schema", "--with", "passkeys,email")).toBe(0)
    expect(app.out.join("\n")).toMatch(/CREATE TABLE "authenticator"[\s\S]*"credentialBackedUp" boolean NOT NULL/)
    expect(await run(app, "schema", "--with", "sms")).toBe(1)
    expect(app.err.join("\n")).toMatch(/--with sms: unknown/)
  })

  it("a module that throws on import is reported with its cause", async () => {
    const app = host()
    app.write("auth.mjs", "throw Object.assign(new Error('boom at start-up'), { code: 'E_APP' })")
    expect(await run(app, "schema")).toBe(1)
    expect(app.err.join("\n")).toMatch(/ERR_CLI_CONFIG_LOAD: auth\.mjs failed to load: E_APP: boom at start-up/)
  })
})

describe("latchkey schema: outputs", () => {
  it("refuses passkeys for adapters that cannot store them, and pg-adapter off PostgreSQL", async () => {
    const app = host()
    expect(await run(app, "schema", "--with", "passkeys", "--adapter", "kysely")).toBe(1)
    expect(app.err.join("\n")).toMatch(/@auth\/kysely-adapter cannot store passkeys.*--adapter drizzle/)
    expect(await run(app, "schema", "--with", "email", "--adapter", "pg", "--dialect", "mysql")).toBe(1)
    expect(app.err.join("\n")).toMatch(/runs on PostgreSQL only/)
  })

  it("names tables as each adapter reads them", async () => {
    const names: Record<string, RegExp> = { pg: /CREATE TABLE "users"[\s\S]*"id" serial/, kysely: /CREATE TABLE "User"[\s\S]*"id" uuid NOT NULL DEFAULT gen_random_uuid\(\)/, drizzle: /CREATE TABLE "user"/ }
    for (const [adapter, pattern] of Object.entries(names)) {
      const app = host()
      expect(await run(app, "schema", "--with", "email", "--adapter", adapter)).toBe(0)
      expect(app.out.join("\n")).toMatch(pattern)
    }
    const mysql = host()
    expect(await run(mysql, "schema", "--with", "email", "--dialect", "mysql")).toBe(0)
    expect(mysql.out.join("\n")).toMatch(/CREATE TABLE `verificationToken` \(\n  `identifier` varchar\(255\) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL/)
  })

  it("--out writes every dialect, the Prisma schema and the Drizzle file", async () => {
    const app = host()
    expect(await run(app, "schema", "--with", "database-sessions,passkeys", "--out", "db")).toBe(0)
    for (const file of ["postgres.sql", "mysql.sql", "sqlite.sql", "schema.prisma", "drizzle-schema.ts"]) expect(app.read(`db/${file}`)).toBeDefined()
    const prisma = app.read("db/schema.prisma")!
    expect(prisma).toMatch(/model Authenticator \{[\s\S]*@@id\(\[userId, credentialID\]\)/)
    expect(prisma).toMatch(/model Session \{/)
    expect(prisma).not.toMatch(/VerificationToken/)
    expect(prisma).toMatch(/sessions\s+Session\[\]/)
  })

  it("rejects unknown flags with usage", async () => {
    for (const args of [["schema", "--nope"], ["schema", "--adapter"], ["schema", "--adapter", "prisma"]]) {
      const app = host()
      expect(await run(app, ...args)).toBe(2)
      expect(app.err.join("\n")).toMatch(/Usage:/)
    }
  })
})

describe("latchkey schema: the configured adapter", () => {
  it("recognises @auth/pg-adapter, Kysely's and Drizzle's adapters and writes their tables", async () => {
    for (const [module, pattern] of [
      ['import PostgresAdapter from "@auth/pg-adapter"\nexport default { providers: [], adapter: PostgresAdapter({}) }', /@auth\/pg-adapter[\s\S]*CREATE TABLE "users"/],
      ['import { KyselyAdapter } from "@auth/kysely-adapter"\nimport { Kysely, PostgresDialect } from "kysely"\nexport default { providers: [], adapter: KyselyAdapter(new Kysely({ dialect: new PostgresDialect({ pool: {} }) })) }', /@auth\/kysely-adapter[\s\S]*CREATE TABLE "User"/],
      ['import { DrizzleAdapter } from "@auth/drizzle-adapter"\nimport { drizzle } from "drizzle-orm/pglite"\nexport default { providers: [], adapter: DrizzleAdapter(drizzle.mock()) }', /@auth\/drizzle-adapter[\s\S]*CREATE TABLE "user"/],
    ] as const) {
      // Inside the worktree, so the module's package imports resolve.
      const app = host()
      const file = new URL(`./generated-${crypto.randomUUID()}.mjs`, import.meta.url).pathname
      const { writeFileSync, rmSync } = await import("node:fs")
      writeFileSync(file, module)
      onTestFinished(() => rmSync(file))
      const { existsSync, readFileSync } = await import("node:fs")
      app.io.readFile = (name) => (existsSync(name) ? readFileSync(name, "utf8") : undefined)
      app.io.importModule = (name) => import(name)
      const code = await run(app, "schema", "--config", file)
      expect([...app.err].join("\n")).not.toMatch(/ERR_/)
      expect(code).toBe(0)
      expect([...app.err, ...app.out].join("\n")).toMatch(pattern)
    }
  })
})
