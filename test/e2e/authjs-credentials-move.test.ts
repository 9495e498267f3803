// Issue #28: an Auth.js credentials app moves its users to latchkey's password accounts without a
// reset. Both blocks of docs/migrating-from-authjs.md ("Moving credentials users to password
// accounts") run on one real PostgreSQL database holding @auth/pg-adapter's documented tables and
// the app's own `password` column with bcryptjs hashes. Users sign in through the real @auth/core
// first (proving the fixture is an Auth.js app that works), then through latchkey on the same
// database: the bcrypt hash verifies through the legacy verifier and is replaced in place by a PHC
// scrypt hash, which the next sign-in verifies; the hash never reaches the session.
import { Auth, type AuthConfig as AuthjsConfig } from "@auth/core"
import AuthjsCredentials from "@auth/core/providers/credentials"
import PostgresAdapter from "@auth/pg-adapter"
import bcrypt from "bcryptjs"
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest"
import * as latchkey from "../../src/index.js"
import * as latchkeyPasswords from "../../src/passwords/index.js"
import Password from "../../src/providers/password.js"
import { appPage, csrf, postForm, session } from "../handler/support.js"
import { TestBrowser } from "../servers/browser.js"
import { postgresSchema, postgresSkipReason, runSnippet, snippet, snippetsOf, typecheck } from "../docs/support.js"

const PAGE = "migrating-from-authjs.md"
const HEADING = "Moving credentials users to password accounts"
const BEFORE = snippet(PAGE, "ts", "// Before: Auth.js")
const AFTER = snippet(PAGE, "ts", "// After: latchkey")
const ORIGIN = "http://localhost:3000"
const SECRET = "authjs-credentials-move-secret-0123456789abcdef"
const USERS = [
  { name: "Ada", email: "ada@example.com", password: "correct horse battery staple" },
  { name: "Grace", email: "grace@example.com", password: "a different long passphrase" },
]

const reason = await postgresSkipReason()
if (reason !== undefined) console.warn(`[authjs credentials move] PostgreSQL is skipped: ${reason}`)

let database: Awaited<ReturnType<typeof postgresSchema>> | undefined
beforeAll(async () => {
  if (reason !== undefined) return
  database = await postgresSchema("pg.sql")
  // The app's own migration from its Auth.js days: a password column for the credentials provider.
  await database.pool.query("ALTER TABLE users ADD COLUMN password text")
  for (const user of USERS) {
    const { rows } = await database.pool.query<{ id: number }>("INSERT INTO users (name, email) VALUES ($1, $2) RETURNING id", [user.name, user.email])
    await database.pool.query("UPDATE users SET password = $2 WHERE id = $1", [rows[0]!.id, await bcrypt.hash(user.password, 10)])
  }
}, 60_000)
afterAll(() => database?.drop())

/** A browser on ORIGIN whose requests under /auth reach `handler`, and the app's pages the rest. */
function browserOn(handler: (request: Request) => Promise<Response>): TestBrowser {
  return new TestBrowser(undefined, (input, init) => {
    const url = String(input)
    return new URL(url).pathname.startsWith("/auth") ? handler(new Request(url, init as RequestInit)) : Promise.resolve(appPage(url))
  })
}

const storedHash = async (email: string) => (await database!.pool.query<{ password: string | null }>("SELECT password FROM users WHERE email = $1", [email])).rows[0]!.password

describe("docs/migrating-from-authjs.md: an Auth.js credentials app moves its bcrypt users", () => {
  it("has no block under its heading that this file does not run", () => {
    const blocks = snippetsOf(PAGE).filter((block) => block.heading === HEADING && block.lang !== "")
    expect(blocks.map((block) => block.line)).toEqual([BEFORE.line, AFTER.line])
  })

  it.skipIf(reason !== undefined)("before: the users sign in through the real @auth/core with their bcrypt hashes", async () => {
    const { credentials } = await runSnippet(BEFORE.code, { "@auth/core/providers/credentials": { default: AuthjsCredentials } }, { pool: database!.pool, bcrypt })
    const config: AuthjsConfig = { secret: SECRET, trustHost: true, basePath: "/auth", adapter: PostgresAdapter(database!.pool), session: { strategy: "jwt" }, providers: [credentials], logger: { error: () => {}, warn: () => {}, debug: () => {} } }
    const authjs = (request: Request) => Auth(request, config)
    for (const user of USERS) {
      const browser = browserOn(authjs)
      const refused = await postForm(browser, "/auth/callback/credentials", { csrfToken: await csrf(browser, ORIGIN), email: user.email, password: "not the password at all", callbackUrl: `${ORIGIN}/home` }, ORIGIN)
      expect(refused.url.searchParams.get("error")).toBe("CredentialsSignin")
      const { url } = await postForm(browser, "/auth/callback/credentials", { csrfToken: await csrf(browser, ORIGIN), email: user.email, password: user.password, callbackUrl: `${ORIGIN}/home` }, ORIGIN)
      expect(url.href).toBe(`${ORIGIN}/home`)
      expect(await session(browser, ORIGIN)).toMatchObject({ user: { name: user.name, email: user.email } })
      expect(await storedHash(user.email)).toMatch(/^\$2[ab]\$10\$/)
    }
  }, 60_000)

  it.skipIf(reason !== undefined)("after: latchkey signs the same users in, re-hashes each to PHC scrypt in place, and the next sign-in uses the new hash", async () => {
    onTestFinished(() => void vi.unstubAllEnvs())
    vi.stubEnv("AUTH_SECRET", SECRET)
    vi.stubEnv("AUTH_URL", `${ORIGIN}/auth`)
    vi.stubEnv("NODE_ENV", "test")
    const outbox: unknown[] = []
    const modules = { "@auth/pg-adapter": { default: PostgresAdapter }, bcryptjs: { default: bcrypt }, latchkey, "latchkey/passwords": latchkeyPasswords, "latchkey/providers/password": { default: Password } }
    const { handler } = await runSnippet(AFTER.code, modules, { pool: database!.pool, sendEmail: async (mail: unknown) => void outbox.push(mail) })
    const signIn = async (browser: TestBrowser, email: string, password: string) =>
      (await postForm(browser, "/auth/callback/password", { csrfToken: await csrf(browser, ORIGIN), email, password, callbackUrl: `${ORIGIN}/home` }, ORIGIN)).url
    for (const user of USERS) {
      const bcryptHash = await storedHash(user.email)
      expect(bcryptHash).toMatch(/^\$2[ab]\$10\$/)
      const first = browserOn(handler)
      // A wrong password against the bcrypt hash: refused, and the hash stays as it was.
      expect((await signIn(first, user.email, "not the password at all")).searchParams.get("error")).toBe("CredentialsSignin")
      expect(await storedHash(user.email)).toBe(bcryptHash)
      expect((await signIn(first, user.email, user.password)).href).toBe(`${ORIGIN}/home`)
      const signedIn = await session(first, ORIGIN)
      expect(signedIn).toMatchObject({ user: { name: user.name, email: user.email } })
      expect(JSON.stringify(signedIn)).not.toMatch(/password|\$2[ab]\$|\$scrypt\$/)
      const rehashed = await storedHash(user.email)
      expect(rehashed).toMatch(/^\$scrypt\$ln=16,r=8,p=2\$/)
      // The second sign-in (another browser) verifies the new hash: the bcrypt one is gone, and nothing is re-written.
      const second = browserOn(handler)
      expect((await signIn(second, user.email, user.password)).href).toBe(`${ORIGIN}/home`)
      expect(await session(second, ORIGIN)).toMatchObject({ user: { email: user.email } })
      expect(await storedHash(user.email)).toBe(rehashed)
      expect((await signIn(browserOn(handler), user.email, "not the password at all")).searchParams.get("error")).toBe("CredentialsSignin")
    }
    expect(outbox).toEqual([])
    expect(await latchkeyPasswords.verifyPassword(USERS[0]!.password, (await storedHash(USERS[0]!.email))!)).toEqual({ valid: true, needsRehash: false })
  }, 120_000)

  it("both blocks compile as an app writes them", () => {
    const declarations = `import type { Pool } from "pg"\nimport type bcryptModule from "bcryptjs"\ndeclare const pool: Pool\ndeclare const bcrypt: typeof bcryptModule\n`
    const diagnostics = typecheck({
      "move-before.ts": `${declarations}${BEFORE.code}\n`,
      "move-after.ts": `import type { Pool } from "pg"\nimport type { PasswordEmail } from "latchkey/providers/password"\ndeclare const pool: Pool\ndeclare const sendEmail: (mail: PasswordEmail) => Promise<void>\n${AFTER.code}\n`,
    })
    expect(diagnostics).toEqual([])
  }, 120_000)
})
