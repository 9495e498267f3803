// docs/rate-limits.md's code, as an app copies it: every ts block compiles (the lockout line with
// the set-up it belongs to), the set-up block runs and limits what it says it limits, and the
// database-table store runs against the real PostgreSQL and counts atomically.
import { randomBytes } from "node:crypto"
import pg from "pg"
import { afterEach, describe, expect, it, vi } from "vitest"
import * as latchkey from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import * as rateLimitsModule from "../../src/rate-limits/index.js"
import { attempt } from "../rate-limits/support.js"
import { itTypechecks } from "../setup/typechecks.js"
import { POSTGRES, postgresSkipReason, runSnippet, snippet, snippetsOf, typecheck } from "./support.js"

const PAGE = "rate-limits.md"
const SETUP = snippet(PAGE, "ts", "credentials: { identifier: { limit: 5, windowSeconds: 15 * 60 } },")
const LOCKOUT = snippet(PAGE, "ts", 'await clearLockout("Ada@Example.com")')
const TABLE = snippet(PAGE, "ts", "export function tableStore(pool: Pool): RateLimitStore")

afterEach(() => vi.unstubAllEnvs())

describe("docs/rate-limits.md", () => {
  itTypechecks("every ts block compiles", () => {
    const blocks = snippetsOf(PAGE).filter((block) => block.lang === "ts" && block !== LOCKOUT && !block.code.includes("clearLockout(\"Ada"))
    const files = Object.fromEntries(blocks.map((block, index) => [`rate-limits-doc-${index}.ts`, block.code]))
    files["rate-limits-doc-lockout.ts"] = `${SETUP.code}\n${LOCKOUT.code}\n`
    expect(typecheck(files)).toEqual([])
  }, 120_000)

  it("the set-up block limits an address to 5 attempts, and clearLockout lifts it", async () => {
    // The app's environment: its secret, and its public URL.
    vi.stubEnv("AUTH_SECRET", "latchkey-docs-secret-0123456789abcdef")
    vi.stubEnv("AUTH_URL", "https://app.example.com/auth")
    const app: { handler: (request: Request) => Promise<Response>; clearLockout: (identifier: string) => Promise<void> } = await runSnippet(SETUP.code, { latchkey, "latchkey/rate-limits": rateLimitsModule, "latchkey/providers/credentials": { default: Credentials } }) as never
    const statuses = []
    for (let index = 0; index < 7; index++) statuses.push((await attempt(app, { headers: { "x-real-ip": `198.51.100.${index + 1}` } })).status)
    expect(statuses).toEqual([302, 302, 302, 302, 302, 429, 429])
    await app.clearLockout("Ada@Example.com")
    expect((await attempt(app, { headers: { "x-real-ip": "198.51.100.9" }, password: "lovelace" })).status).toBe(302)
  })

  it("the table store counts atomically on PostgreSQL", async (test) => {
    const reason = await postgresSkipReason()
    if (reason) return test.skip()
    const schema = `lk_rate_limits_${randomBytes(6).toString("hex")}`
    const pool = new pg.Pool({ ...POSTGRES, options: `-c search_path=${schema}` })
    try {
      await pool.query(`create schema ${schema}`)
      await pool.query("create table rate_limits (key text primary key, count integer not null, reset_at timestamptz not null)")
      const { tableStore } = await runSnippet(TABLE.code, {})
      const store = tableStore(pool)
      const counts = await Promise.all(Array.from({ length: 20 }, () => store.consume("k", { limit: 5, windowSeconds: 60 })))
      expect(counts.map(({ count }: { count: number }) => count).sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1))
      expect(counts[0].resetInMs).toBeGreaterThan(0)
      await store.clear("k")
      expect((await store.consume("k", { limit: 5, windowSeconds: 60 })).count).toBe(1)
    } finally {
      await pool.query(`drop schema if exists ${schema} cascade`).finally(() => pool.end())
    }
  })
})
