// The `passwords` feature of `latchkey schema`: one nullable `password` text column on the users
// table, in every output (the three SQL dialects, Prisma, Drizzle), found in the configuration (a
// Password provider, or the `passwords` plug-in), added by `migrate` to an existing Auth.js schema
// on real PostgreSQL (the pg-adapter's documented tables) and MariaDB (Kysely's) as the one and
// only change, idempotently, with the rows already there kept; and named by `doctor` when missing.
import { readFile } from "node:fs/promises"
import PostgresAdapter from "@auth/pg-adapter"
import mysql from "mysql2/promise"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { runCli } from "../../src/cli/commands.js"
import { doctorCommand } from "../../src/cli/doctor/command.js"
import { parseEnvText } from "../../src/cli/env-files.js"
import { directoryHost, SRC, type DirectoryHost } from "./schema-support-io.js"
import { MARIADB, MARIADB_URL, mariadbDatabase, POSTGRES, POSTGRES_URL, probe, uniqueName } from "./schema-support.js"

const cleanups: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

function host(env: Record<string, string> = {}, answers: boolean[] = []): DirectoryHost {
  const made = directoryHost(env, answers)
  cleanups.push(made.remove)
  return made
}

const run = (made: DirectoryHost, ...args: string[]) => runCli(args, made.io, parseEnvText)
const authJsSql = (file: string) => readFile(new URL(`../adapters/sql/${file}`, import.meta.url), "utf8")
/** A Password provider as configured (the record's `type` is what the CLI reads). */
const PASSWORD_PROVIDER = `{ id: "password", type: "password" }`

describe("latchkey schema --with passwords: every output", () => {
  it("SQL: a nullable text column on the users table of each adapter, on each database", async () => {
    const expected: Array<[string[], RegExp]> = [
      [["--adapter", "pg"], /CREATE TABLE "users" \([\s\S]*"image" text,\n  "password" text,\n  PRIMARY KEY/],
      [["--adapter", "kysely"], /CREATE TABLE "User" \([\s\S]*"image" text,\n  "password" text,\n  PRIMARY KEY/],
      [["--adapter", "drizzle"], /CREATE TABLE "user" \([\s\S]*"image" text,\n  "password" text,\n  PRIMARY KEY/],
      [["--adapter", "kysely", "--dialect", "mysql"], /CREATE TABLE `User` \([\s\S]*`image` text,\n  `password` text,\n  PRIMARY KEY/],
      [["--adapter", "drizzle", "--dialect", "sqlite"], /CREATE TABLE "user" \([\s\S]*"image" text,\n  "password" text,\n  PRIMARY KEY/],
    ]
    for (const [flags, pattern] of expected) {
      const app = host()
      expect(await run(app, "schema", "--with", "passwords", ...flags)).toBe(0)
      const sql = app.out.join("\n")
      expect(sql).toMatch(pattern)
      // One column, on users only: no other table grows one.
      expect(sql.match(/password/g)).toHaveLength(1)
    }
    const without = host()
    expect(await run(without, "schema", "--with", "email")).toBe(0)
    expect(without.out.join("\n")).not.toMatch(/password/)
  })

  // The mailed links (verification, reset, new address) are verification-token rows: a password app
  // without an email provider still needs their table, or its first sign-up fails at createVerificationToken.
  it("brings the verification-token table the mailed links are stored in, without an email provider", async () => {
    const tables: Array<[string[], RegExp]> = [
      [["--adapter", "pg"], /CREATE TABLE "verification_token" \(/],
      [["--adapter", "kysely"], /CREATE TABLE "VerificationToken" \(/],
      [["--adapter", "drizzle", "--dialect", "sqlite"], /CREATE TABLE "verificationToken" \(/],
    ]
    for (const [flags, pattern] of tables) {
      const app = host()
      expect(await run(app, "schema", "--with", "passwords", ...flags)).toBe(0)
      expect(app.out.join("\n")).toMatch(pattern)
    }
    const configured = host()
    configured.write("auth.config.mjs", `export default { providers: [${PASSWORD_PROVIDER}], adapter: {} }`)
    expect(await run(configured, "schema", "--config", "auth.config.mjs", "--adapter", "pg")).toBe(0)
    expect(configured.out.join("\n")).toMatch(/CREATE TABLE "verification_token" \(/)
  })

  it("Prisma and Drizzle: `password String?` and `password: text(\"password\")` on the user", async () => {
    const app = host()
    expect(await run(app, "schema", "--with", "passwords", "--out", "db")).toBe(0)
    expect(app.read("db/schema.prisma")).toMatch(/model User \{[^}]*\n  password\s+String\?\n/)
    expect(app.read("db/drizzle-schema.ts")).toMatch(/export const users = pgTable\([^;]*\n    password: text\("password"\),\n/)
    const mysqlPrisma = host()
    expect(await run(mysqlPrisma, "schema", "--with", "passwords", "--format", "prisma", "--dialect", "mysql")).toBe(0)
    // MySQL's Prisma String is varchar(191): plenty for a PHC string, but the column is text like the others.
    expect(mysqlPrisma.out.join("\n")).toMatch(/\n  password\s+String\?\s+@db\.Text\n/)
  })

  it("reads the feature from the configuration: a Password provider, or the passwords plug-in", async () => {
    for (const config of [`export default { providers: [${PASSWORD_PROVIDER}], session: { strategy: "jwt" } }`, `export default { providers: [], passwords: {}, session: { strategy: "jwt" } }`]) {
      const app = host()
      app.write("auth.mjs", config)
      expect(await run(app, "schema")).toBe(0)
      expect(app.err.join("\n")).toMatch(/Read auth\.mjs: passwords\./)
      expect(app.out.join("\n")).toMatch(/"password" text,/)
    }
    // The real factory, uncalled as apps often list it, from a TypeScript module as apps write it.
    const real = host()
    real.write("auth.ts", `import Password from ${JSON.stringify(`${SRC}providers/password.ts`)}\nexport default { providers: [Password], session: { strategy: "jwt" as const } }\n`)
    expect(await run(real, "schema", "--config", "auth.ts")).toBe(0)
    expect(real.out.join("\n")).toMatch(/"password" text,/)
    const plain = host()
    plain.write("auth.mjs", `export default { providers: [{ id: "gh", type: "oauth" }], session: { strategy: "jwt" } }`)
    expect(await run(plain, "schema")).toBe(0)
    expect(plain.err.join("\n")).toMatch(/no passwords\)/)
    expect(plain.out.join("\n")).not.toMatch(/password/)
  })
})

describe("migrate: passwords on an existing Auth.js schema, PostgreSQL", async () => {
  const reason = await probe("PostgreSQL", POSTGRES)()
  if (reason !== undefined) console.warn(`[cli schema passwords] PostgreSQL is skipped: ${reason}`)
  if (reason !== undefined && process.env.CI === "true") throw new Error(`PostgreSQL is required under CI: ${reason}`)

  it.skipIf(reason !== undefined)("adds users.password and nothing else, keeps the users, is idempotent, and the two methods use it", async () => {
    const schema = uniqueName()
    const pool = new pg.Pool({ ...POSTGRES, options: `-c search_path=${schema}`, max: 2 })
    await pool.query(`CREATE SCHEMA ${schema}`)
    cleanups.push(() => pool.query(`DROP SCHEMA ${schema} CASCADE`).then(() => pool.end()))
    // The pg-adapter's documented schema, with a user signed up before passwords existed.
    await pool.query(await authJsSql("pg.sql"))
    const adapter = PostgresAdapter(pool)
    const before = await adapter.createUser!({ id: "", name: "Ada", email: "ada@example.com", emailVerified: null, image: null })
    const url = `${POSTGRES_URL}?schema=${schema}`
    const app = host()
    expect(await run(app, "migrate", url, "--yes", "--adapter", "pg", "--with", "database-sessions,email,passwords")).toBe(0)
    expect(app.out.filter((line) => line.startsWith("  +"))).toEqual(["  + add column users.password text"])
    expect(app.out.join("\n")).toMatch(/Applied 1 statement in one transaction/)
    const again = host()
    expect(await run(again, "migrate", url, "--yes", "--adapter", "pg", "--with", "database-sessions,email,passwords")).toBe(0)
    expect(again.out.join("\n")).toMatch(/nothing to do/)
    const { rows } = await pool.query("SELECT data_type, is_nullable FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'users' AND column_name = 'password'", [schema])
    expect(rows).toEqual([{ data_type: "text", is_nullable: "YES" }])
    // The user from before has no password; the contract's one-liners set and read one.
    const getUserPassword = async (id: string) => (await pool.query("select password from users where id = $1", [id])).rows[0]?.password ?? null
    const setUserPassword = async (id: string, hash: string | null) => {
      await pool.query("update users set password = $2 where id = $1", [id, hash])
    }
    expect(await getUserPassword(before.id)).toBeNull()
    await setUserPassword(before.id, "$scrypt$ln=16,r=8,p=2$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g")
    expect(await getUserPassword(before.id)).toMatch(/^\$scrypt\$/)
    expect(await adapter.getUserByEmail!("ada@example.com")).toMatchObject({ id: before.id, name: "Ada" })
  }, 60_000)
})

describe("migrate: passwords on an existing Auth.js schema, MariaDB", async () => {
  const reason = await probe("MariaDB", MARIADB)()
  if (reason !== undefined) console.warn(`[cli schema passwords] MariaDB is skipped: ${reason}`)
  if (reason !== undefined && process.env.CI === "true") throw new Error(`MariaDB is required under CI: ${reason}`)

  it.skipIf(reason !== undefined)("adds User.password to Kysely's tables and nothing else, and is idempotent", async () => {
    const { database, drop } = await mariadbDatabase(await authJsSql("mariadb.sql"))
    cleanups.push(drop)
    const connection = await mysql.createConnection({ ...MARIADB, database })
    cleanups.push(() => connection.end())
    await connection.query("INSERT INTO `User` (`id`, `name`, `email`) VALUES ('u1', 'Ada', 'ada@example.com')")
    const url = `${MARIADB_URL}/${database}`
    const refused = host({}, [false])
    expect(await run(refused, "migrate", url, "--adapter", "kysely", "--with", "database-sessions,email,passwords")).toBe(1)
    expect(refused.out.filter((line) => line.startsWith("  +"))).toEqual(["  + add column User.password text"])
    const app = host()
    expect(await run(app, "migrate", url, "--yes", "--adapter", "kysely", "--with", "database-sessions,email,passwords")).toBe(0)
    expect(app.out.join("\n")).toMatch(/Applied 1 statement\b/)
    const again = host()
    expect(await run(again, "migrate", url, "--yes", "--adapter", "kysely", "--with", "database-sessions,email,passwords")).toBe(0)
    expect(again.out.join("\n")).toMatch(/nothing to do/)
    const [rows] = await connection.query("SELECT `id`, `name`, `password` FROM `User`")
    expect(rows).toEqual([{ id: "u1", name: "Ada", password: null }])
  }, 60_000)
})

describe("doctor: the password column", async () => {
  const reason = await probe("PostgreSQL", POSTGRES)()
  if (reason !== undefined) console.warn(`[cli schema passwords] doctor on PostgreSQL is skipped: ${reason}`)

  it.skipIf(reason !== undefined)("a Password provider without users.password: names the column and migrate", async () => {
    const schema = uniqueName()
    const admin = new pg.Client(POSTGRES)
    await admin.connect()
    cleanups.push(() => admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).then(() => admin.end()))
    await admin.query(`CREATE SCHEMA ${schema}`)
    const url = `${POSTGRES_URL}?schema=${schema}`
    expect(await run(host(), "migrate", url, "--yes", "--with", "database-sessions")).toBe(0)
    const files = { ".env.local": `AUTH_SECRET=Zq3vN8xK1pR7mT2wY6bH9cJ4fL0sD5gA_e-uVkXoPiQ\nAUTH_URL=http://localhost:3000/auth\nDATABASE_URL=${url}`, "auth.mjs": `export default { providers: [${PASSWORD_PROVIDER}], passwords: {}, adapter: {} }` }
    const sick = host()
    for (const [name, contents] of Object.entries(files)) sick.write(name, contents)
    expect(await doctorCommand([], sick.io, {})).toBe(1)
    expect([...sick.out, ...sick.err].join("\n")).toMatch(/✗ The database lacks table verificationToken, column user\.password\. Fix: run `npx latchkey migrate <database-url> --adapter drizzle` to create them\./)
    expect(await run(host(), "migrate", url, "--yes", "--with", "database-sessions,passwords")).toBe(0)
    const healed = host()
    for (const [name, contents] of Object.entries(files)) healed.write(name, contents)
    expect(await doctorCommand([], healed.io, {})).toBe(0)
    expect(healed.out.join("\n")).toMatch(/✓ The database has every table and column the drizzle adapter reads/)
  }, 60_000)
})
