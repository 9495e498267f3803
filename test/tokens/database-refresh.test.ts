// Provider tokens kept fresh with database sessions: the tokens live in the account row. Run on the
// memory adapter (which has latchkey's updateAccount) and on PostgreSQL through @auth/pg-adapter
// (which has not: latchkey unlinks and re-links), extended only with the one-line
// listAccountsByUserId the docs tell users to add.
import { readFile } from "node:fs/promises"
import { randomBytes } from "node:crypto"
import { POSTGRES, unreachable } from "../setup/services.js"
import PostgresAdapter from "@auth/pg-adapter"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import type { Adapter, AdapterAccount } from "../../src/adapters/adapter.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { revokeToken } from "../../src/oauth/tokens.js"
import { SECRET } from "../security/support.js"
import { refreshingProvider, requestFrom, sessionRead, signedIn } from "./support.js"
import { providerTokens } from "../../src/provider-tokens/index.js"

const idp = refreshingProvider()

interface Store {
  adapter: Adapter
  /** The user's corp account row as stored now. */
  row(): Promise<AdapterAccount | undefined>
  teardown(): Promise<void>
}

const probePostgres = () => unreachable("PostgreSQL", POSTGRES)

const stores: { name: string; skipReason(): Promise<string | undefined>; setup(): Promise<Store> }[] = [
  {
    name: "memory (updateAccount)",
    skipReason: async () => undefined,
    async setup() {
      const adapter = memoryAdapter()
      return { adapter, row: async () => [...adapter.accounts.values()].find((account) => account.provider === "corp"), teardown: async () => {} }
    },
  },
  {
    name: "pg (Auth.js adapter: unlink and re-link)",
    skipReason: probePostgres,
    async setup() {
      const schema = `lk_tokens_${randomBytes(5).toString("hex")}`
      const pool = new pg.Pool({ host: "127.0.0.1", port: 5432, user: "postgres", database: "test", options: `-c search_path=${schema}`, max: 4 })
      await pool.query(`CREATE SCHEMA ${schema}`)
      await pool.query(await readFile(new URL("../adapters/sql/pg.sql", import.meta.url), "utf8"))
      const adapter: Adapter = {
        ...PostgresAdapter(pool),
        // The one line docs/provider-tokens.md asks an Auth.js adapter for.
        listAccountsByUserId: async (userId) => (await pool.query('select * from accounts where "userId" = $1', [userId])).rows,
      }
      return {
        adapter,
        row: async () => (await pool.query("select * from accounts where provider = 'corp'")).rows[0],
        teardown: () => pool.query(`DROP SCHEMA ${schema} CASCADE`).then(() => pool.end()),
      }
    },
  },
]

for (const entry of stores) {
  describe(`database sessions with refreshProviderTokens: ${entry.name}`, () => {
    let store: Store | undefined
    let skip: string | undefined
    beforeAll(async () => {
      skip = await entry.skipReason()
      if (skip) console.info(`skipped: ${skip}`)
      else store = await entry.setup()
    })
    afterAll(() => store?.teardown())

    const config = () => ({ adapter: store!.adapter, providerTokens: providerTokens({ refresh: true }), session: { strategy: "database" as const } })

    it("50 concurrent reads (auth(), GET /session, getAccessToken) of a due account make one refresh; every read gets the new token", async ({ skip: skipTest }) => {
      if (skip) return skipTest(skip)
      const { site, browser } = await signedIn(idp(), config())
      const before = await store!.row()
      expect(typeof before?.refresh_token).toBe("string")
      const grants = idp().refreshGrants()
    const refused = idp().refusedRefreshes().length
      const request = requestFrom(browser)
      const reads = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          i % 3 === 0 ? site.auth(request.clone()) : i % 3 === 1 ? sessionRead(site, request.clone()).then(({ session }) => session) : site.getAccessToken(request.clone(), "corp")
        )
      )
      expect(reads).toHaveLength(50)
      expect(idp().refreshGrants() - grants).toBe(1)
      expect(idp().refusedRefreshes().slice(refused)).toEqual([])
      const after = await store!.row()
      expect(after?.access_token).not.toBe(before?.access_token)
      expect(after?.refresh_token).not.toBe(before?.refresh_token)
      const tokens = reads.filter((read): read is string => typeof read === "string")
      expect(tokens.length).toBeGreaterThan(0)
      expect(new Set(tokens)).toEqual(new Set([after?.access_token]))
      for (const read of reads) if (typeof read !== "string") expect(read).toMatchObject({ user: { email: "ada@example.com" } })
      for (const read of reads) if (typeof read !== "string") expect((read as unknown as Record<string, any>).error).toBeUndefined()
      // Nothing due now: reads neither refresh nor need the provider.
      await site.auth(request.clone())
      expect(await site.getAccessToken(request.clone(), "corp")).toBe(after?.access_token)
      expect(idp().refreshGrants() - grants).toBe(1)
    })

    it("a revoked refresh token gives RefreshTokenError, no exception, and clears the row's tokens", async ({ skip: skipTest }) => {
      if (skip) return skipTest(skip)
      const { site, browser } = await signedIn(idp(), config())
      const row = await store!.row()
      await revokeToken(idp().provider(), row!.refresh_token!, { tokenTypeHint: "refresh_token" })
      const session = (await site.auth(requestFrom(browser))) as unknown as Record<string, any>
      expect(session.error).toBe("RefreshTokenError")
      const { session: json } = await sessionRead(site, requestFrom(browser))
      expect(json?.error).toBe("RefreshTokenError")
      expect(await site.getAccessToken(requestFrom(browser), "corp")).toBeNull()
      const cleared = await store!.row()
      expect(cleared?.access_token ?? null).toBeNull()
      expect(cleared?.refresh_token ?? null).toBeNull()
      // Signing in again brings the tokens back.
      const again = await signedIn(idp(), config())
      expect(typeof (await store!.row())?.refresh_token).toBe("string")
      expect(((await again.site.auth(requestFrom(again.browser))) as unknown as Record<string, any>).error).toBeUndefined()
    })
  })
}

describe("database sessions: the unlink and re-link fallback", () => {
  it("re-links the old row when writing the new one fails: nothing half-written survives", async () => {
    const memory = memoryAdapter()
    const { updateAccount: _none, ...rest } = memory
    let failNextLink = false
    const adapter: Adapter = {
      ...rest,
      linkAccount: (account) => {
        if (failNextLink) {
          failNextLink = false
          throw Object.assign(new Error(`duplicate key value ${account.access_token}`), { code: "23505" })
        }
        return memory.linkAccount(account)
      },
    }
    const errors: Error[] = []
    const { site, browser } = await signedIn(idp(), { adapter, providerTokens: providerTokens({ refresh: true }), session: { strategy: "database" }, logger: { error: (error) => errors.push(error) } })
    const before = [...memory.accounts.values()][0]!
    failNextLink = true
    const session = await site.auth(requestFrom(browser))
    expect(session).toMatchObject({ user: { email: "ada@example.com" } })
    const after = [...memory.accounts.values()]
    expect(after).toHaveLength(1)
    expect(after[0]).toEqual(before)
    expect(errors.map((error) => (error as { code?: string }).code)).toEqual(["ERR_ADAPTER"])
    expect(JSON.stringify(errors.map((error) => [error.message, error.cause]))).not.toContain(before.access_token!)
  })

  it("createAuth refuses database sessions that refresh without a way to list a user's accounts", () => {
    const { listAccountsByUserId: _none, ...adapter } = memoryAdapter()
    const config = { providers: [idp().provider()], adapter, secret: SECRET, env: {}, providerTokens: providerTokens({ refresh: true }), session: { strategy: "database" as const } }
    expect(() => createAuth(config)).toThrow(expect.objectContaining({ code: "ERR_ADAPTER_METHOD" }))
  })
})
