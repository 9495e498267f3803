// docs/passkeys.md's code, as an app copies it: each ts block is typechecked against latchkey's
// source and run through createAuth's handler with real recorded passkey responses, on real
// PostgreSQL with @auth/drizzle-adapter (the page's adapter); the sql block runs there first; the
// html block's attributes are the ones the served script reads.
import { readFileSync } from "node:fs"
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { drizzle } from "drizzle-orm/node-postgres"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import * as latchkey from "../../src/index.js"
import GitHub from "../../src/providers/github.js"
import Passkey from "../../src/providers/passkey.js"
import * as webauthnModule from "../../src/webauthn/index.js"
import { TestBrowser } from "../servers/browser.js"
import { itTypechecks } from "../setup/typechecks.js"
import { callback, csrfOf, fixtures, ORIGIN, passkeyApp, plantChallenge, SECRET, sessionOf, signUp } from "../webauthn/support.js"
import { postgresSchema, postgresSkipReason, runSnippet, snippet, snippetsOf, typecheck } from "./support.js"

const PAGE = "passkeys.md"
const SETUP = snippet(PAGE, "ts", "Passkey({ allowSignUp: true })")
const SUBDOMAINS = snippet(PAGE, "ts", 'relayingParty: { id: "example.com"')
const EXTENSIONS = snippet(PAGE, "ts", "renameAuthenticator")
const NAME_COLUMN = snippet(PAGE, "sql", "add column name")
const MARKUP = snippet(PAGE, "html", "data-latchkey-passkey")
const INSTALL = snippet(PAGE, "sh", "@simplewebauthn/server")

describe("docs/passkeys.md", () => {
  it("has no ts, sql or html block that this file does not exercise", () => {
    const claimed = [SETUP, SUBDOMAINS, EXTENSIONS, NAME_COLUMN, MARKUP, INSTALL].map((block) => block.line)
    const blocks = snippetsOf(PAGE).filter((block) => block.lang !== "")
    expect(blocks.map((block) => block.line)).toEqual(blocks.map((block) => block.line).filter((line) => claimed.includes(line)))
  })

  it("the install block is the line a missing library's error names", () => {
    const missing = new latchkey.MissingDependencyError("latchkey/webauthn (passkeys)", "@simplewebauthn/server")
    expect(INSTALL.code.trim()).toBe(missing.install)
  })

  itTypechecks("every ts block compiles as an app writes it, and the extended adapter is a latchkey Adapter", () => {
    const diagnostics = typecheck({
      "db.ts": `import { drizzle } from "drizzle-orm/node-postgres"\nimport pg from "pg"\nexport const db = drizzle(new pg.Pool())\n`,
      "passkeys-setup.ts": `${SETUP.code}\n`,
      "passkeys-subdomains.ts": `import Passkey from "latchkey/providers/passkey"\nexport const provider = ${SUBDOMAINS.code}\n`,
      "passkeys-extensions.ts": `import { createAuth, type AuthConfig } from "latchkey"
import Passkey from "latchkey/providers/passkey"
import { webauthn } from "latchkey/webauthn"
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { drizzle } from "drizzle-orm/node-postgres"
import pg from "pg"
declare const pool: pg.Pool
${EXTENSIONS.code}
const checked: NonNullable<AuthConfig["adapter"]> = adapter
export const auth = createAuth({ providers: [Passkey()], adapter: checked, webauthn })
`,
    })
    expect(diagnostics).toEqual([])
  }, 60_000)

  it("the subdomains block: the options name the parent RP ID and its name", async () => {
    const provider = (await runSnippet(SUBDOMAINS.code, {}, { Passkey })).default
    // Sign-up on, so a signed-out browser is given registration options, which carry the RP's name.
    const app = passkeyApp({ providers: [{ ...provider, allowSignUp: true }] })
    const { response } = await app.browser().open(`${ORIGIN}/auth/webauthn-options/passkey?action=authenticate`)
    expect(((await response.json()) as { options: { rpId: string } }).options.rpId).toBe("example.com")
    const registration = await app.browser().open(`${ORIGIN}/auth/webauthn-options/passkey?action=register&email=new%40example.com`)
    expect(((await registration.response.json()) as { options: { rp: unknown } }).options.rp).toEqual({ id: "example.com", name: "Example" })
  })

  it("the html block uses only attributes the served script reads", () => {
    const script = readFileSync(new URL("../../src/webauthn/browser/client.ts", import.meta.url), "utf8")
    const attributes = [...new Set(MARKUP.code.match(/data-[a-z-]+/g))]
    expect(attributes.length).toBeGreaterThan(0)
    expect(attributes.filter((attribute) => !script.includes(attribute))).toEqual([])
  })
})

const skip = await postgresSkipReason()
if (skip !== undefined) console.warn(`[docs/passkeys.md] skipping the PostgreSQL runs: ${skip}`)

describe.skipIf(skip !== undefined)(`docs/passkeys.md on PostgreSQL${skip ? ` (skipped: ${skip})` : ""}`, () => {
  let database: Awaited<ReturnType<typeof postgresSchema>>
  beforeAll(async () => {
    database = await postgresSchema("drizzle-pg.sql")
    await database.pool.query(NAME_COLUMN.code)
  })
  afterAll(() => database?.drop())
  afterEach(() => vi.unstubAllEnvs())

  it("the setup block: a passkey sign-up writes the user to the database and signs them in", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET)
    vi.stubEnv("AUTH_URL", `${ORIGIN}/auth`)
    vi.stubEnv("AUTH_GITHUB_ID", "github-client")
    vi.stubEnv("AUTH_GITHUB_SECRET", "github-secret")
    const modules = {
      latchkey,
      "latchkey/providers/github": { default: GitHub },
      "latchkey/providers/passkey": { default: Passkey },
      "latchkey/webauthn": webauthnModule,
      "@auth/drizzle-adapter": { DrizzleAdapter },
      "./db": { db: drizzle(database.pool) },
    }
    const { handler } = await runSnippet(SETUP.code, modules)
    const browser = new TestBrowser(undefined, (input, init) => handler(new Request(String(input), init as RequestInit)))
    await signUp(browser, "ada")
    expect((await sessionOf(browser))?.user).toMatchObject({ email: "ada@example.com" })
    const { rows } = await database.pool.query('select email, "emailVerified" from "user"')
    expect(rows).toEqual([{ email: "ada@example.com", emailVerified: null }])
  })

  it("the sql and extensions blocks: a passkey is added, renamed and deleted through the management API, and the last is kept", async () => {
    await database.pool.query('truncate "user" cascade')
    const adapter = (await runSnippet(EXTENSIONS.code, {}, { DrizzleAdapter, drizzle, pool: database.pool })).adapter
    const app = passkeyApp({ adapter })
    const browser = app.browser()
    await signUp(browser, "ada")
    const { rows: users } = await database.pool.query<{ id: string }>('select id from "user"')
    const grace = fixtures.registrations.grace
    await plantChallenge(browser, grace.challenge, "register", "passkey", { userId: users[0]!.id })
    expect((await callback(browser, "register", grace.response, { name: "Work laptop" })).body.passkey).toMatchObject({ id: grace.response.id, name: "Work laptop" })
    const change = async (fields: Record<string, string>) => {
      const { response } = await browser.open(`${ORIGIN}/auth/passkeys`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken: await csrfOf(browser), ...fields }).toString(),
      })
      return { status: response.status, body: (await response.json()) as { passkeys?: { id: string; name: string | null }[]; error?: string } }
    }
    const ada = fixtures.registrations.ada.response.id
    const renamed = await change({ action: "rename", id: ada, name: "Phone" })
    expect(renamed.body.passkeys?.find((passkey) => passkey.id === ada)?.name).toBe("Phone")
    expect((await database.pool.query("select name from authenticator order by name")).rows).toEqual([{ name: "Phone" }, { name: "Work laptop" }])
    const deleted = await change({ action: "delete", id: grace.response.id })
    expect(deleted.body.passkeys?.map((passkey) => passkey.id)).toEqual([ada])
    expect((await database.pool.query("select count(*)::int as n from authenticator")).rows).toEqual([{ n: 1 }])
    expect(await change({ action: "delete", id: ada })).toEqual({ status: 409, body: { error: "LastSignInMethod" } })
  })
})
