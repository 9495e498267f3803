// docs/databases.md's code, as an app copies it: every ts block is typechecked against latchkey's
// source, and run against real PostgreSQL with @auth/pg-adapter through createAuth's handler.
// The revocation case is the one round three found: with the adapter line the page showed
// (`void pool.query(...)`), the next request was often still signed in after `revokeSessions`
// resolved, and a failing delete was an unhandled rejection.
import PostgresAdapter from "@auth/pg-adapter"
import pg from "pg"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import * as latchkey from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import GitHub from "../../src/providers/github.js"
import Google from "../../src/providers/google.js"
import type { Adapter, AdapterUser } from "../../src/adapters/adapter.js"
import { csrfOf, ORIGIN, post, SECRET, sessionOf } from "../security/support.js"
import { appPage } from "../handler/support.js"
import { TestBrowser } from "../servers/browser.js"
import { itTypechecks } from "../setup/typechecks.js"
import { postgresSchema, postgresSkipReason, runSnippet, snippet, snippetsOf, typecheck } from "./support.js"
import Redis from "ioredis"
import * as latchkeyRedis from "../../src/redis/index.js"
import { probeRedis } from "../tokens/support.js"

const PAGE = "databases.md"
const STRATEGY = snippet(PAGE, "ts", `strategy: "database", maxAge`)
const CACHE = snippet(PAGE, "ts", "cache: { maxAge: 30 }")
const EXTENSIONS = snippet(PAGE, "ts", "deleteSessionsByUserId")
const VERSIONS = snippet(PAGE, "ts", "redisSessionVersions")
const RUNS = 10

/** What an app that copies these blocks has around them: its imports, its pool, its providers. */
const PREAMBLE = `import { createAuth, type AuthConfig } from "latchkey"
import PostgresAdapter from "@auth/pg-adapter"
import pg from "pg"
declare const pool: pg.Pool
declare const providers: AuthConfig["providers"]
`

describe("docs/databases.md", () => {
  it("has no ts block that this file neither runs nor typechecks", () => {
    const claimed = [STRATEGY, CACHE, EXTENSIONS, VERSIONS].map((block) => block.line)
    const blocks = snippetsOf(PAGE).filter((block) => block.lang === "ts")
    expect(blocks.map((block) => `line ${block.line}: ${block.code.slice(0, 60)}`)).toEqual(blocks.filter((block) => claimed.includes(block.line)).map((block) => `line ${block.line}: ${block.code.slice(0, 60)}`))
  })

  itTypechecks("every ts block compiles as an app writes it, and the extended adapter is a latchkey Adapter", () => {
    const diagnostics = typecheck({
      "databases-strategy.ts": `${PREAMBLE}declare const adapter: NonNullable<AuthConfig["adapter"]>\n${STRATEGY.code}\n`,
      "databases-cache.ts": `${PREAMBLE}declare const adapter: NonNullable<AuthConfig["adapter"]>\n${CACHE.code}\n`,
      "databases-extensions.ts": `${PREAMBLE}${EXTENSIONS.code}\nexport const auth = createAuth({ providers, adapter, session: { strategy: "database" } })\n`,
      "databases-versions.ts": `import type { AuthConfig } from "latchkey"\ndeclare const providers: AuthConfig["providers"]\n${VERSIONS.code}\n`,
    })
    expect(diagnostics).toEqual([])
  }, 60_000)
})

const skip = await postgresSkipReason()
if (skip !== undefined) console.warn(`[docs/databases.md] skipping the PostgreSQL runs: ${skip}`)

describe.skipIf(skip !== undefined)(`docs/databases.md on PostgreSQL${skip ? ` (skipped: ${skip})` : ""}`, () => {
  let database: Awaited<ReturnType<typeof postgresSchema>>
  beforeAll(async () => {
    // Several connections, as an app's pool has: the delete and the next read may run on different ones.
    database = await postgresSchema("pg.sql", { max: 4 })
  })
  afterAll(() => database?.drop())
  afterEach(() => vi.unstubAllEnvs())

  /** The app's environment: its secret and public URL, as it would set them. */
  const appEnv = () => {
    vi.stubEnv("AUTH_SECRET", SECRET)
    vi.stubEnv("AUTH_URL", `${ORIGIN}/auth`)
  }

  /** A user row, and a Credentials provider whose `authorize` answers them as the page says (`String(user.id)`). */
  async function aUser(adapter: Adapter) {
    const user = await adapter.createUser!({ id: crypto.randomUUID(), email: `${crypto.randomUUID()}@example.com`, emailVerified: null } as AdapterUser)
    const providers = [Credentials({ credentials: { username: {} }, authorize: () => ({ id: String(user.id) }) })]
    return { userId: String(user.id), providers }
  }

  /** A browser on the app whose handler is `auth.handler`, signed in with Credentials. */
  async function signedIn(auth: { handler: (request: Request) => Promise<Response> }) {
    const dispatch: typeof fetch = async (input, init) => {
      const url = new URL(String(input))
      return url.pathname.startsWith("/auth") ? auth.handler(new Request(url, init as RequestInit)) : appPage(url.href)
    }
    const browser = new TestBrowser(undefined, dispatch)
    await post(browser, "/auth/callback/credentials", { csrfToken: await csrfOf(browser), username: "ada" })
    expect(await sessionOf(browser)).toMatchObject({ user: {} })
    return browser
  }

  /** The page's extended adapter, built by running its block on this pool. */
  const extendedAdapter = async (pool: pg.Pool): Promise<Adapter> => (await runSnippet(EXTENSIONS.code, {}, { PostgresAdapter, pool })).adapter

  it("the strategy block: a database session whose row expires maxAge (30 days) from now", async () => {
    appEnv()
    const adapter = PostgresAdapter(database.pool)
    const { userId, providers } = await aUser(adapter)
    const auth = (await runSnippet(STRATEGY.code, {}, { createAuth: latchkey.createAuth, providers, adapter })).default
    await signedIn(auth)
    const { rows } = await database.pool.query<{ expires: Date }>('select expires from sessions where "userId" = $1', [userId])
    expect(rows).toHaveLength(1)
    const days = (rows[0]!.expires.getTime() - Date.now()) / 86_400_000
    expect(Math.round(days)).toBe(30)
  })

  it("the cache block: a second read is answered from the sealed copy, so it outlives a deleted row until the copy expires", async () => {
    appEnv()
    const adapter = PostgresAdapter(database.pool)
    const { userId, providers } = await aUser(adapter)
    const auth = (await runSnippet(CACHE.code, {}, { createAuth: latchkey.createAuth, providers, adapter })).default
    const browser = await signedIn(auth)
    expect(browser.cookies(ORIGIN).has("__Secure-latchkey.session-cache")).toBe(true)
    await database.pool.query('delete from sessions where "userId" = $1', [userId])
    expect(await sessionOf(browser)).toMatchObject({ user: {} })
  })

  it(`the extensions block: the browser is signed out when revokeSessions resolves, in ${RUNS} runs of ${RUNS}`, async () => {
    appEnv()
    const adapter = await extendedAdapter(database.pool)
    const { userId, providers } = await aUser(adapter)
    const auth = latchkey.createAuth({ providers, adapter, session: { strategy: "database" } })
    const stillSignedIn: number[] = []
    for (let run = 1; run <= RUNS; run++) {
      const browser = await signedIn(auth)
      await auth.revokeSessions(userId)
      if ((await sessionOf(browser)) !== null) stillSignedIn.push(run)
    }
    expect(stillSignedIn, `still signed in after revokeSessions resolved in runs ${stillSignedIn.join(", ")}`).toEqual([])
  })

  it("the extensions block: a failing delete rejects revokeSessions (the app can answer it), and is no unhandled rejection", async () => {
    appEnv()
    const unhandled: unknown[] = []
    const record = (reason: unknown) => void unhandled.push(reason)
    process.on("unhandledRejection", record)
    // A pool on a schema without the sessions table: the page's delete fails as on a broken database.
    const broken = new pg.Pool({ connectionString: database.connectionString.replace(encodeURIComponent(database.schema), "lk_docs_missing"), max: 1 })
    try {
      const adapter = await extendedAdapter(broken)
      const auth = latchkey.createAuth({ providers: (await aUser(PostgresAdapter(database.pool))).providers, adapter, session: { strategy: "database" } })
      await expect(auth.revokeSessions("1")).rejects.toThrow(/sessions/)
      // An unhandled rejection is reported after the microtasks of this turn: give it a turn to arrive.
      await new Promise((settle) => setImmediate(settle))
      expect(unhandled).toEqual([])
    } finally {
      process.off("unhandledRejection", record)
      await broken.end()
    }
  })

  it("the extensions block: listAccountsByUserId lets unlinkAccount remove one of two accounts, and refuses the last", async () => {
    appEnv()
    const adapter = await extendedAdapter(database.pool)
    const { userId, providers } = await aUser(adapter)
    const github = { provider: "github", providerAccountId: `gh-${userId}` }
    const google = { provider: "google", providerAccountId: `go-${userId}` }
    for (const account of [github, google]) await adapter.linkAccount!({ ...account, userId, type: "oauth" })
    // unlinkAccount counts only the ways the app still signs in with, so both providers are configured.
    const oauth = [GitHub({ clientId: "gh-id", clientSecret: "gh-secret" }), Google({ clientId: "go-id", clientSecret: "go-secret" })]
    const auth = latchkey.createAuth({ providers: [...providers, ...oauth], adapter, session: { strategy: "database" } })
    await auth.unlinkAccount(userId, github)
    await expect(auth.unlinkAccount(userId, google)).rejects.toMatchObject({ code: "ERR_LAST_SIGN_IN_METHOD" })
  })
})

const noRedis = await probeRedis()
if (noRedis !== undefined && process.env.CI !== "true") console.warn(`[docs/databases.md] skipping the Redis run: ${noRedis}`)

describe.skipIf(noRedis !== undefined && process.env.CI !== "true")("docs/databases.md's session versions block on Redis", () => {
  afterEach(() => vi.unstubAllEnvs())

  it("two instances made from the block: a revocation on one signs the JWT session out on the other", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET)
    vi.stubEnv("AUTH_URL", `${ORIGIN}/auth`)
    vi.stubEnv("REDIS_URL", "redis://127.0.0.1:6379")
    // The block's clients, kept so the test can close them.
    const clients: Redis[] = []
    class AppRedis extends Redis {
      constructor(url: string) {
        super(url, { maxRetriesPerRequest: 1 })
        clients.push(this)
      }
    }
    const userId = `docs-${crypto.randomUUID()}`
    const providers = [Credentials({ credentials: { username: {} }, authorize: () => ({ id: userId, name: "Ada" }) })]
    const instance = async () => runSnippet(VERSIONS.code, { ioredis: { default: AppRedis }, latchkey, "latchkey/redis": latchkeyRedis }, { providers })
    try {
      const [one, two] = [await instance(), await instance()]
      const browser = new TestBrowser(undefined, async (input, init) => {
        const url = new URL(String(input))
        return url.pathname.startsWith("/auth") ? one.handler(new Request(url, init as RequestInit)) : appPage(url.href)
      })
      await post(browser, "/auth/callback/credentials", { csrfToken: await csrfOf(browser), username: "ada" })
      const onTwo = async () => {
        const cookie = [...browser.cookies(ORIGIN)].map(([name, value]) => `${name}=${value}`).join("; ")
        return (await two.handler(new Request(`${ORIGIN}/auth/session`, { headers: { cookie } }))).json()
      }
      await one.revokeSessions(userId)
      expect(await onTwo()).toBeNull()
      expect(await sessionOf(browser)).toBeNull()
    } finally {
      await clients[0]?.del(`latchkey:sv:${userId}`)
      await Promise.all(clients.map((client) => client.quit()))
    }
  })
})
