// Review 7 of the setup-and-diagnose CLI (`latchkey secret|init|schema|migrate|doctor`), run as a
// user runs it: the built bin, in a throwaway folder, against real PostgreSQL and MariaDB in
// `latchkey_cli_*` schemas and databases dropped afterwards. A failing test is a finding.
import { randomBytes } from "node:crypto"
import mysql from "mysql2/promise"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { MARIADB, POSTGRES, mariadbDatabase, probe } from "../cli/schema-support.js"
import { binApp, HAS_BIN } from "./review7-cli-support.js"

const cleanups: Array<() => Promise<unknown> | unknown> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

if (!HAS_BIN) {
  console.warn("[review7 cli] no dist/cli.js: run npm run build")
  if (process.env.CI === "true") throw new Error("CI=true needs the built bin dist/cli.js")
}

const SECRET = "Zq3vN8xK1pR7mT2wY6bH9cJ4fL0sD5gA_e-uVkXoPiQ" // 43 characters, as `latchkey secret` makes
const NEXT_APP = { "package.json": JSON.stringify({ name: "app", dependencies: { next: "15.0.0", react: "19.0.0" } }), "tsconfig.json": "{}", "app/page.tsx": "" }
const name = () => `latchkey_cli_r7_${randomBytes(4).toString("hex")}`

describe.skipIf(!HAS_BIN)("review 7: the CLI without a database", () => {
  it("secret --write creates .env.local readable by its owner alone and never prints the secret", async () => {
    const app = binApp()
    const { code, stdout, stderr } = await app.run("secret", "--write")
    expect(code).toBe(0)
    const secret = app.appSees("AUTH_SECRET")!
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(stdout + stderr).not.toContain(secret)
    expect(app.mode(".env.local")).toBe(0o600)
  })

  it("secret --write into an existing world-readable .env.local leaves it readable by its owner alone (0600)", async () => {
    const app = binApp()
    app.write(".env.local", "DATABASE_URL=postgres://app@127.0.0.1:5432/app\n", 0o644)
    expect((await app.run("secret", "--write")).code).toBe(0)
    expect(app.appSees("AUTH_SECRET")).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // docs/cli-init.md: "The secret goes into .env.local only (readable by its owner alone)".
    expect(app.mode(".env.local") & 0o077).toBe(0)
  })

  it("secret --write never replaces the AUTH_SECRET the app reads from .env (a new one in .env.local would win and sign every user out)", async () => {
    const app = binApp({ ".env": `AUTH_SECRET=${SECRET}\n` })
    await app.run("secret", "--write")
    // Refusing (as for one already in .env.local) is fine; silently changing the secret the app uses is not.
    expect(app.appSees("AUTH_SECRET")).toBe(SECRET)
  })

  it("init never replaces the AUTH_SECRET or AUTH_URL the app reads from .env (one in .env.local would win)", async () => {
    const app = binApp({ ...NEXT_APP, ".env": `AUTH_SECRET=${SECRET}\nAUTH_URL=http://localhost:4000/auth\n` })
    const { code } = await app.run("init", "--yes")
    expect(code).toBe(0)
    expect(app.appSees("AUTH_SECRET")).toBe(SECRET)
    expect(app.appSees("AUTH_URL")).toBe("http://localhost:4000/auth")
  })

  it("doctor reads AUTH_SECRET=\"…\" # comment in .env.local as the app and `latchkey decode` do (43 characters, no quotes)", async () => {
    const app = binApp({
      ".env.local": `AUTH_SECRET="${SECRET}" # dev only\nAUTH_URL=http://localhost:3000/auth\n`,
      "auth.mjs": "export default { providers: [] }\n",
    })
    const { stdout } = await app.run("doctor", "--offline")
    expect(app.appSees("AUTH_SECRET")).toBe(SECRET) // what Node's own parser (and so `decode` and init) reads
    expect(stdout).toContain("AUTH_SECRET (from .env.local): 43 characters")
  })

  it("schema --out prisma never replaces the app's own prisma/schema.prisma (exit 1, its models kept)", async () => {
    const mine = 'generator client {\n  provider = "prisma-client-js"\n}\n\nmodel Invoice {\n  id    Int @id\n  total Int\n}\n'
    const app = binApp({ "prisma/schema.prisma": mine })
    const { code } = await app.run("schema", "--with", "email", "--out", "prisma")
    expect(app.read("prisma/schema.prisma")).toBe(mine)
    expect(code).not.toBe(0)
  })

  it("doctor, schema and migrate --help print their usage and exit 0, as init --help does", async () => {
    const app = binApp()
    const init = await app.run("init", "--help")
    expect(init.code).toBe(0)
    for (const command of ["doctor", "schema", "migrate"]) {
      const { code, stdout, stderr } = await app.run(command, "--help")
      expect({ command, code, unknown: /Unknown argument/.test(stdout + stderr) }).toEqual({ command, code: 0, unknown: false })
    }
  })

  it("bad or unreachable database URLs: migrate and doctor exit 1 with one typed line, no stack trace, no password", async () => {
    const app = binApp({ ".env.local": `AUTH_SECRET=${SECRET}\nAUTH_URL=http://localhost:3000/auth\n`, "auth.mjs": "export default { providers: [] }\n" })
    for (const url of ["postgres://u:hunter2secret@127.0.0.1:1/db", "mysql://root:hunter2secret@127.0.0.1:1/db", "postgres://u:hunter2secret@127.0.0.1:99999/db", "mysql://root:hunter2secret%ZZ@127.0.0.1:1/db", "redis://u:hunter2secret@h/0"]) {
      for (const args of [["migrate", url, "--yes", "--with", "email"], ["doctor", "--offline", "--adapter", "drizzle", "--database-url", url]]) {
        const { code, stdout, stderr } = await app.run(...args)
        const text = stdout + stderr
        expect(code, `${args[0]} ${url}`).toBe(1)
        expect(text).not.toContain("hunter2secret")
        expect(text).not.toMatch(/^\s+at /m)
      }
    }
  }, 40_000)
})

describe.skipIf(!HAS_BIN)("review 7: the CLI on PostgreSQL", async () => {
  const reason = await probe("PostgreSQL", POSTGRES)()
  if (reason !== undefined) console.warn(`[review7 cli] PostgreSQL is skipped: ${reason}`)
  if (reason !== undefined && process.env.CI === "true") throw new Error(`PostgreSQL is required under CI: ${reason}`)

  async function freshSchema(): Promise<{ schema: string; client: pg.Client; url: string }> {
    const schema = name()
    const client = new pg.Client(POSTGRES)
    await client.connect()
    await client.query(`CREATE SCHEMA ${schema}`)
    cleanups.push(async () => {
      await client.query(`DROP SCHEMA ${schema} CASCADE`)
      await client.end()
    })
    return { schema, client, url: `postgres://postgres:hunter2secret@127.0.0.1:5432/test?schema=${schema}` }
  }
  const tables = async (client: pg.Client, schema: string) =>
    (await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name", [schema])).rows.map((row) => row.table_name as string)

  it.skipIf(reason !== undefined)('migrate reads DATABASE_URL="…" # comment in .env.local as the URL, as the app (Node\'s parser) does', async () => {
    const { schema, client, url } = await freshSchema()
    const app = binApp({ ".env.local": `DATABASE_URL="${url}" # local database\n` })
    expect(app.appSees("DATABASE_URL")).toBe(url)
    const { code, stdout, stderr } = await app.run("migrate", "--yes", "--with", "database-sessions")
    expect(stdout + stderr).not.toContain("hunter2secret")
    expect(stderr).not.toMatch(/no scheme latchkey knows/)
    expect(await tables(client, schema)).toContain("user")
    expect(code).toBe(0)
  })

  it.skipIf(reason !== undefined)("migrate without --yes and without a terminal shows the plan, exits 1 and creates nothing", async () => {
    const { schema, client, url } = await freshSchema()
    const { code, stdout, stderr } = await binApp().run("migrate", url, "--with", "email")
    expect(code).toBe(1)
    expect(stdout).toMatch(/\+ create table user/)
    expect(stderr).toMatch(/Nothing was changed/)
    expect(stdout + stderr).not.toContain("hunter2secret")
    expect(await tables(client, schema)).toEqual([])
  })

  it.skipIf(reason !== undefined)("?schema= with quotes and SQL is one quoted identifier: nothing is injected", async () => {
    const { schema, client } = await freshSchema()
    await client.query(`CREATE TABLE ${schema}.sentinel (x int)`)
    const evil = `${schema}"; DROP TABLE ${schema}.sentinel; --`
    const url = `postgres://postgres@127.0.0.1:5432/test?schema=${encodeURIComponent(evil)}`
    const { code } = await binApp().run("migrate", url, "--yes")
    expect(code).toBe(1)
    expect(await tables(client, schema)).toEqual(["sentinel"])
  })

  it.skipIf(reason !== undefined)("migrate adds a missing column, keeps existing columns and rows, and a second run has nothing to do; doctor then passes", async () => {
    const { schema, client, url } = await freshSchema()
    await client.query(`CREATE TABLE ${schema}."user" ("id" text PRIMARY KEY, "name" text, "email" text UNIQUE, "emailVerified" timestamp, "image" text, "nickname" varchar(20) NOT NULL)`)
    await client.query(`INSERT INTO ${schema}."user" ("id", "email", "nickname") VALUES ('u1', 'ada@example.com', 'ada')`)
    const first = await binApp().run("migrate", url, "--yes", "--with", "passwords")
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/\+ add column user\.password text/)
    const columns = (await client.query(`SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'user' ORDER BY ordinal_position`, [schema])).rows
    expect(columns.map((column) => column.column_name)).toEqual(["id", "name", "email", "emailVerified", "image", "nickname", "password"])
    expect((await client.query(`SELECT "nickname" FROM ${schema}."user"`)).rows).toEqual([{ nickname: "ada" }])
    const second = await binApp().run("migrate", url, "--yes", "--with", "passwords")
    expect(second.code).toBe(0)
    expect(second.stdout).toMatch(/nothing to do/)
    const doctor = await binApp({ ".env.local": `AUTH_SECRET=${SECRET}\nAUTH_URL=http://localhost:3000/auth\n` }).run("doctor", "--offline", "--adapter", "drizzle", "--with", "passwords", "--database-url", url)
    expect(doctor.stdout).toMatch(/✓ The database has every table and column the drizzle adapter reads\./)
    expect(doctor.code).toBe(0)
    await client.query(`ALTER TABLE ${schema}."user" DROP COLUMN "password"`)
    const sick = await binApp({ ".env.local": `AUTH_SECRET=${SECRET}\nAUTH_URL=http://localhost:3000/auth\n` }).run("doctor", "--offline", "--adapter", "drizzle", "--with", "passwords", "--database-url", url)
    expect(sick.stdout).toMatch(/✗ The database lacks column user\.password/)
    expect(sick.code).toBe(1)
  }, 30_000)
})

describe.skipIf(!HAS_BIN)("review 7: the CLI on MariaDB", async () => {
  const reason = await probe("MariaDB", MARIADB)()
  if (reason !== undefined) console.warn(`[review7 cli] MariaDB is skipped: ${reason}`)
  if (reason !== undefined && process.env.CI === "true") throw new Error(`MariaDB is required under CI: ${reason}`)

  it.skipIf(reason !== undefined)("migrate adds a missing column, keeps existing columns and rows, and a second run has nothing to do, as on PostgreSQL", async () => {
    const { database, drop } = await mariadbDatabase(
      "CREATE TABLE `user` (`id` varchar(255) NOT NULL PRIMARY KEY, `name` text, `email` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin UNIQUE, `emailVerified` datetime(3), `image` text, `nickname` varchar(20) NOT NULL);" +
        "INSERT INTO `user` (`id`, `email`, `nickname`) VALUES ('u1', 'ada@example.com', 'ada');",
    )
    cleanups.push(drop)
    const url = `mysql://root@127.0.0.1:3306/${database}`
    const first = await binApp().run("migrate", url, "--yes", "--with", "passwords")
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/\+ add column user\.password text/)
    const connection = await mysql.createConnection({ ...MARIADB, database })
    try {
      const [columns] = await connection.query("SELECT COLUMN_NAME AS c FROM information_schema.columns WHERE table_schema = DATABASE() AND TABLE_NAME = 'user' ORDER BY ORDINAL_POSITION")
      expect((columns as Array<{ c: string }>).map((row) => row.c)).toEqual(["id", "name", "email", "emailVerified", "image", "nickname", "password"])
      const [rows] = await connection.query("SELECT `nickname` FROM `user`")
      expect(rows).toEqual([{ nickname: "ada" }])
    } finally {
      await connection.end()
    }
    const second = await binApp().run("migrate", url, "--yes", "--with", "passwords")
    expect(second.code).toBe(0)
    expect(second.stdout).toMatch(/nothing to do/)
  }, 30_000)
})
