// Email addresses on MySQL and MariaDB: the schema `latchkey schema` writes and `migrate` creates
// gives the users' `email` and the verification tokens' `identifier` the binary collation
// utf8mb4_bin, so `ada@exämple.com` and `ada@example.com` stay two addresses. `migrate` and
// `doctor` read each existing column's collation: a schema the CLI made fits, and a column that
// folds (an Auth.js schema on the server's default collation) is named with the statement that
// fixes it. The databases are real MariaDB ones, `latchkey_cli_*`, dropped afterwards.
import { readFile } from "node:fs/promises"
import { KyselyAdapter, type Database } from "@auth/kysely-adapter"
import { Kysely, MysqlDialect } from "kysely"
import { createPool } from "mysql2"
import mysql from "mysql2/promise"
import { afterAll, describe, expect, it } from "vitest"
import { runCli } from "../../src/cli/commands.js"
import { doctorCommand } from "../../src/cli/doctor/command.js"
import { parseEnvText } from "../../src/cli/env-files.js"
import { physicalSchema } from "../../src/cli/schema/physical.js"
import { planChanges } from "../../src/cli/schema/plan.js"
import { directoryHost, type DirectoryHost } from "./schema-support-io.js"
import { MARIADB, MARIADB_URL, mariadbDatabase, probe } from "./schema-support.js"

const cleanups: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

function host(): DirectoryHost {
  const made = directoryHost()
  cleanups.push(made.remove)
  return made
}

const run = (made: DirectoryHost, ...args: string[]) => runCli(args, made.io, parseEnvText)
const EMAIL = { databaseSessions: false, email: true, passkeys: false, passwords: false }

describe("latchkey schema: address columns on MySQL", () => {
  it("email and identifier are utf8mb4_bin for every flavour with a MySQL dialect; other dialects are unchanged", async () => {
    for (const [adapter, users, tokens] of [["drizzle", "user", "verificationToken"], ["kysely", "User", "VerificationToken"]] as const) {
      const app = host()
      expect(await run(app, "schema", "--with", "email", "--adapter", adapter, "--dialect", "mysql")).toBe(0)
      const sql = app.out.join("\n")
      expect(sql).toContain(`CREATE TABLE \`${users}\` (`)
      expect(sql).toMatch(/\n {2}`email` varchar\(255\) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,\n/)
      expect(sql).toContain(`CREATE TABLE \`${tokens}\` (\n  \`identifier\` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,\n  \`token\` varchar(255) NOT NULL,`)
      expect(sql.match(/COLLATE/g)).toHaveLength(2)
    }
    for (const dialect of ["postgres", "sqlite"]) {
      const app = host()
      expect(await run(app, "schema", "--with", "email", "--dialect", dialect)).toBe(0)
      expect(app.out.join("\n")).not.toMatch(/COLLATE|CHARACTER SET/)
    }
  })

  it("the comparison flags a non-binary collation, accepts any binary one, and alters nothing", () => {
    const schema = physicalSchema("kysely", "mysql", EMAIL)
    const existing = (email: { collation?: string; type?: string; nullable?: boolean }) =>
      new Map(schema.tables.map((table) => [table.name, new Map(table.columns.map((column) => [column.name, column.name === "email" ? email : { collation: "utf8mb4_bin" }]))]))
    const folding = planChanges(schema, existing({ collation: "utf8mb4_0900_ai_ci", type: "varchar(191)", nullable: false }))
    expect(folding.createTables).toEqual([])
    expect(folding.addColumns).toEqual([])
    expect(folding.foldingColumns).toEqual([
      { table: "User", column: "email", collation: "utf8mb4_0900_ai_ci", fix: "ALTER TABLE `User` MODIFY `email` varchar(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL" },
    ])
    for (const collation of ["utf8mb4_bin", "utf8mb4_0900_bin", "utf8mb4_nopad_bin", "binary"]) expect(planChanges(schema, existing({ collation })).foldingColumns).toEqual([])
    expect(planChanges(schema, existing({})).foldingColumns).toEqual([])
    // PostgreSQL compares exactly by default: its schema asks for no collation, so nothing is flagged.
    const postgres = physicalSchema("kysely", "postgres", EMAIL)
    const read = new Map(postgres.tables.map((table) => [table.name, new Map(table.columns.map((column) => [column.name, { collation: "und-x-icu" }]))]))
    expect(planChanges(postgres, read).foldingColumns).toEqual([])
  })
})

describe("address columns on MariaDB", async () => {
  const reason = await probe("MariaDB", MARIADB)()
  if (reason !== undefined) console.warn(`[cli schema collation] MariaDB is skipped: ${reason}`)
  if (reason !== undefined && process.env.CI === "true") throw new Error(`MariaDB is required under CI: ${reason}`)

  async function freshDatabase(script: string): Promise<{ database: string; url: string; connection: mysql.Connection }> {
    const { database, drop } = await mariadbDatabase(script)
    cleanups.push(drop)
    const connection = await mysql.createConnection({ ...MARIADB, database })
    cleanups.push(() => connection.end())
    return { database, url: `${MARIADB_URL}/${database}`, connection }
  }

  async function collationOf(connection: mysql.Connection, table: string, column: string): Promise<string> {
    const [rows] = await connection.query("SELECT COLLATION_NAME AS collation FROM information_schema.columns WHERE table_schema = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ?", [table, column])
    return (rows as Array<{ collation: string }>)[0]!.collation
  }

  /** doctor on `url` for `adapter`'s tables with an email provider: the exit code and every line. */
  async function doctor(url: string, adapter: string): Promise<{ code: number; text: string }> {
    const app = host()
    app.write(".env.local", `AUTH_SECRET=Zq3vN8xK1pR7mT2wY6bH9cJ4fL0sD5gA_e-uVkXoPiQ\nAUTH_URL=http://localhost:3000/auth\nDATABASE_URL=${url}\n`)
    // JWT sessions: the tables are those `migrate --with email` creates.
    app.write("auth.mjs", 'export default { providers: [], adapter: {}, session: { strategy: "jwt" } }')
    const code = await doctorCommand(["--offline", "--adapter", adapter, "--with", "email"], app.io)
    return { code, text: [...app.out, ...app.err].join("\n") }
  }

  it.skipIf(reason !== undefined)("migrate creates utf8mb4_bin columns; two look-alike addresses are two users, and the schema fits", async () => {
    for (const [adapter, users, tokens] of [["drizzle", "user", "verificationToken"], ["kysely", "User", "VerificationToken"]] as const) {
      const { url, connection } = await freshDatabase("")
      expect(await run(host(), "migrate", url, "--yes", "--adapter", adapter, "--with", "email")).toBe(0)
      expect(await collationOf(connection, users, "email")).toBe("utf8mb4_bin")
      expect(await collationOf(connection, tokens, "identifier")).toBe("utf8mb4_bin")
      await connection.query(`INSERT INTO \`${users}\` (\`id\`, \`email\`) VALUES ('u1', 'ada@example.com'), ('u2', 'ada@exämple.com')`)
      const [rows] = await connection.query(`SELECT \`id\` FROM \`${users}\` WHERE \`email\` = 'ada@example.com'`)
      expect(rows).toEqual([{ id: "u1" }])
      const again = host()
      expect(await run(again, "migrate", url, "--yes", "--adapter", adapter, "--with", "email")).toBe(0)
      expect(again.out.join("\n")).toMatch(/nothing to do/)
      expect(again.err.join("\n")).not.toMatch(/collation/)
      const { code, text } = await doctor(url, adapter)
      expect(text).toMatch(new RegExp(`✓ The database has every table and column the ${adapter} adapter reads\\.`))
      expect(text).not.toMatch(/collation/)
      expect(code).toBe(0)
    }
  }, 60_000)

  it.skipIf(reason !== undefined)("a link's token is found under its own address only", async () => {
    const { database } = await freshDatabase("")
    expect(await run(host(), "migrate", `${MARIADB_URL}/${database}`, "--yes", "--adapter", "kysely", "--with", "email")).toBe(0)
    const db = new Kysely<Database>({ dialect: new MysqlDialect({ pool: createPool({ ...MARIADB, database, timezone: "Z", connectionLimit: 2 }) }) })
    cleanups.push(() => db.destroy())
    const adapter = KyselyAdapter(db)
    await adapter.createVerificationToken!({ identifier: "ada@exämple.com", token: "hashed", expires: new Date(Date.now() + 60_000) })
    expect(await adapter.useVerificationToken!({ identifier: "ada@example.com", token: "hashed" })).toBeNull()
    expect(await adapter.useVerificationToken!({ identifier: "ada@exämple.com", token: "hashed" })).toMatchObject({ identifier: "ada@exämple.com" })
  }, 60_000)

  it.skipIf(reason !== undefined)("an Auth.js schema on the default collation: doctor and migrate name each column and the statement that fixes it", async () => {
    const { url, connection } = await freshDatabase(await readFile(new URL("../adapters/sql/mariadb.sql", import.meta.url), "utf8"))
    const found = await collationOf(connection, "User", "email")
    expect(found).not.toMatch(/_bin$/)
    const emailFix = "ALTER TABLE `User` MODIFY `email` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL"
    const identifierFix = "ALTER TABLE `VerificationToken` MODIFY `identifier` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL"
    const sick = await doctor(url, "kysely")
    expect(sick.text).toContain(`✗ User.email has the collation ${found}, which can take two email addresses for one (ada@exämple.com for ada@example.com): see docs/databases.md, "Email addresses and collations". Fix: run ${emailFix};`)
    expect(sick.text).toContain(`✗ VerificationToken.identifier has the collation ${found},`)
    expect(sick.text).toContain(`Fix: run ${identifierFix};`)
    expect(sick.code).toBe(1)
    const migrate = host()
    expect(await run(migrate, "migrate", url, "--yes", "--adapter", "kysely", "--with", "email")).toBe(0)
    expect(migrate.out.join("\n")).toMatch(/nothing to do/)
    expect(migrate.err.join("\n")).toContain(`User.email has the collation ${found}`)
    expect(migrate.err.join("\n")).toContain(`alters no existing column; fix it with: ${emailFix};`)
    await connection.query(emailFix)
    await connection.query(identifierFix)
    expect(await collationOf(connection, "User", "email")).toBe("utf8mb4_bin")
    const healed = await doctor(url, "kysely")
    expect(healed.text).not.toMatch(/collation/)
    expect(healed.code).toBe(0)
  }, 60_000)
})
