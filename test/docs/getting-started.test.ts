// docs/getting-started.md's code, as an app copies it: every ts and tsx block is typechecked as the
// file it names, and both versions of auth.ts are run to a signed-in user with a database session
// row: the PGlite one on a PGlite folder, the PostgreSQL one on the machine's server (a fresh
// schema). The tables are created as `latchkey schema --apply` would, from the Drizzle adapter's
// documented tables. GitHub is the real provider module, pointed at the GitHub-like server with
// its `enterprise.baseUrl`, since github.com cannot be reached from a test.
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { PGlite } from "@electric-sql/pglite"
import * as drizzleNodePostgres from "drizzle-orm/node-postgres"
import * as drizzlePglite from "drizzle-orm/pglite"
import pg from "pg"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { Latchkey } from "../../src/integrations/next/index.js"
import GitHub from "../../src/providers/github.js"
import { TestBrowser } from "../servers/browser.js"
import { startGitHubLike, type GitHubLike } from "../servers/github-like.js"
import { appPage } from "../handler/support.js"
import { manifest, tempApp } from "../cli/init-support.js"
import { itTypechecks } from "../setup/typechecks.js"
import { postgresSchema, postgresSkipReason, runSnippet, snippet, snippetsOf, typecheck } from "./support.js"

const PAGE = "getting-started.md"
const ROUTE = snippet(PAGE, "ts", "// app/auth/[...latchkey]/route.ts")
const PGLITE = snippet(PAGE, "ts", `from "drizzle-orm/pglite"`)
const POSTGRES = snippet(PAGE, "ts", `from "drizzle-orm/node-postgres"`)
const HOME = snippet(PAGE, "tsx", "// app/page.tsx")
const NEXT_CONFIG = snippet(PAGE, "ts", "// next.config.ts")
const APP = "http://localhost:3000"
const DRIZZLE_TABLES = readFileSync(resolve(import.meta.dirname, "../adapters/sql/drizzle-pg.sql"), "utf8")

describe("docs/getting-started.md", () => {
  it("has no ts or tsx block that this file neither runs nor typechecks", () => {
    const claimed = [ROUTE, PGLITE, POSTGRES, HOME, NEXT_CONFIG].map((block) => block.line)
    const unclaimed = snippetsOf(PAGE).filter((block) => (block.lang === "ts" || block.lang === "tsx") && !claimed.includes(block.line))
    expect(unclaimed.map((block) => `line ${block.line}`)).toEqual([])
  })

  itTypechecks("every block compiles as the file it names, in a Next.js app's layout", () => {
    const files = { "app/auth/[...latchkey]/route.ts": ROUTE.code, "app/page.tsx": HOME.code, "next.config.ts": NEXT_CONFIG.code }
    const pglite = typecheck({ ...files, "auth.ts": PGLITE.code })
    const postgres = typecheck({ "auth.ts": POSTGRES.code })
    expect([...pglite, ...postgres]).toEqual([])
    // pg ships no types: this repository's own @types/pg compiles the block here, so the app must be told to install it.
    expect(snippet(PAGE, "sh", "npm install pg").code).toContain("npm install -D @types/pg")
  }, 120_000)

  it("step 3's next.config.ts line is the one step 2's init adds to create-next-app's config", async () => {
    const line = /^ *(serverExternalPackages: .*)$/m.exec(NEXT_CONFIG.code)![1]!
    const config = 'import type { NextConfig } from "next";\n\nconst nextConfig: NextConfig = {\n  /* config options here */\n};\n\nexport default nextConfig;\n'
    const app = tempApp({ "package.json": manifest({ next: "16.4.6" }), "tsconfig.json": "{}", "app/page.tsx": "", "next.config.ts": config })
    const command = snippet(PAGE, "sh", "npx latchkey init").code.split(" ").slice(3)
    expect(command).toContain("pglite")
    expect(await app.init(...command, "--yes")).toBe(0)
    expect(app.read("next.config.ts")).toContain(`\n  ${line}\n`)
    expect(app.out.join("\n")).toContain("Install: npm install latchkey @auth/drizzle-adapter drizzle-orm @electric-sql/pglite")
  })

  it("step 3's auth.ts opens PGlite with the lines step 2's init writes, in the folder its migrate line names", async () => {
    const app = tempApp({ "package.json": manifest({ next: "16.4.6" }), "tsconfig.json": "{}", "app/page.tsx": "" })
    expect(await app.init(...snippet(PAGE, "sh", "npx latchkey init").code.split(" ").slice(3), "--yes")).toBe(0)
    const written = /^\/\/ PGlite is[^]*?\nconst db = .*$/m.exec(app.read("auth.ts")!)![0]
    expect(PGLITE.code).toContain(written)
    const migrate = snippet(PAGE, "sh", "npx latchkey migrate pglite:").code
    expect(app.out.join("\n")).toContain(`\`${migrate},`.replace(" --with database-sessions,", " --with database-sessions`"))
    expect(app.out.join("\n")).toContain("add its folder, .data/, to .gitignore")
    expect(readFileSync(resolve(import.meta.dirname, "../../docs", PAGE), "utf8")).toContain("Add `.data/` to `.gitignore`.")
  })

  it("names the callback URL that the app really sends: AUTH_URL + /auth/callback/github", async () => {
    vi.stubEnv("AUTH_SECRET", "getting-started-secret-0123456789abcdef")
    vi.stubEnv("AUTH_URL", APP)
    vi.stubEnv("AUTH_GITHUB_ID", "gh")
    vi.stubEnv("AUTH_GITHUB_SECRET", "gh-secret")
    const { handlers } = Latchkey({ providers: [GitHub] })
    const providers = (await (await handlers.GET(new Request(`${APP}/auth/providers`))).json()) as Record<string, { callbackUrl: string }>
    const { callbackUrl } = providers.github!
    const page = readFileSync(resolve(import.meta.dirname, "../../docs", PAGE), "utf8")
    expect(callbackUrl).toBe("http://localhost:3000/auth/callback/github")
    expect(page).toContain(`| Authorization callback URL | \`${callbackUrl}\` |`)
    // The picture of the flow, which the page shows, names the same URL.
    expect(page).toContain("](images/sign-in-flow.svg)")
    expect(readFileSync(resolve(import.meta.dirname, "../../docs/images/sign-in-flow.svg"), "utf8")).toContain(`redirect_uri=${callbackUrl}`)
  })
})

const skip = await postgresSkipReason()
if (skip !== undefined) console.warn(`[docs/getting-started.md] skipping the PostgreSQL run: ${skip}`)

describe("docs/getting-started.md signs in with database sessions", () => {
  let github: GitHubLike
  beforeAll(async () => {
    github = await startGitHubLike({ clientId: "gh", clientSecret: "gh-secret", user: { id: 9, login: "grace", name: "Grace Hopper", email: "grace@example.com", avatar_url: "https://example.com/g.png", emails: [] } })
  })
  afterAll(() => github?.close())
  afterEach(() => vi.unstubAllEnvs())

  /** The environment .env.local holds after step 5. */
  function appEnv(extra: Record<string, string> = {}) {
    const env = { AUTH_SECRET: "getting-started-secret-0123456789abcdef", AUTH_URL: APP, AUTH_GITHUB_ID: "gh", AUTH_GITHUB_SECRET: "gh-secret", ...extra }
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
  }

  /** The modules auth.ts imports; GitHub is the real one, at the GitHub-like server. */
  const common = () => ({
    "@auth/drizzle-adapter": { DrizzleAdapter },
    "latchkey/next": { Latchkey },
    "latchkey/providers/github": { default: (options?: object) => GitHub({ ...options, enterprise: { baseUrl: github.baseUrl } }) },
  })

  /** A browser on the Next.js app whose route serves `handlers`, signed in with GitHub. */
  async function signIn(handlers: { GET: (request: Request) => Promise<Response>; POST: (request: Request) => Promise<Response> }) {
    const dispatch: typeof fetch = async (input, init) => {
      const url = new URL(String(input))
      if (url.origin !== APP) return fetch(input, init)
      if (!url.pathname.startsWith("/auth/")) return appPage(url.href)
      const request = new Request(url, init as RequestInit)
      return request.method === "POST" ? handlers.POST(request) : handlers.GET(request)
    }
    const browser = new TestBrowser(undefined, dispatch)
    const { csrfToken } = (await (await browser.open(`${APP}/auth/csrf`)).response.json()) as { csrfToken: string }
    const { url } = await browser.open(`${APP}/auth/signin/github`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken }).toString() })
    const session = await (await browser.open(`${APP}/auth/session`)).response.json()
    const jar = browser.cookies(APP)
    return { url, session, cookie: jar.get("authjs.session-token"), cookies: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") }
  }

  it("step 3, PGlite: the sign-in writes a session row in the .data/pglite database", async () => {
    appEnv()
    const folder = mkdtempSync(join(tmpdir(), "latchkey-getting-started-"))
    const opened: PGlite[] = []
    try {
      // What step 3's `latchkey migrate pglite:.data/pglite` leaves: the folder, with the adapter's tables.
      const setup = new PGlite(folder)
      await setup.exec(DRIZZLE_TABLES)
      await setup.close()
      // The page's `new PGlite(".data/pglite")`, opened in this test's folder instead of the working directory.
      class FolderPGlite extends PGlite {
        constructor(path: string) {
          expect(path).toBe(".data/pglite")
          super(folder)
          opened.push(this)
        }
      }
      const modules = { ...common(), "@electric-sql/pglite": { PGlite: FolderPGlite }, "drizzle-orm/pglite": drizzlePglite }
      const { handlers } = await runSnippet(PGLITE.code, modules)
      // Next.js loads auth.ts a second time for pages and server actions: that copy opens no second client.
      const page = await runSnippet(PGLITE.code, modules)
      expect(opened).toHaveLength(1)
      const { url, session, cookie, cookies } = await signIn(handlers)
      expect(url.href).toBe(`${APP}/`)
      expect(session).toMatchObject({ user: { name: "Grace Hopper", email: "grace@example.com" } })
      const { rows } = await opened[0]!.query<{ sessionToken: string }>('select "sessionToken" from "session"')
      expect(rows).toHaveLength(1)
      expect(cookie?.startsWith(rows[0]!.sessionToken.slice(0, 64))).toBe(true)
      // The other copy reads the session the sign-in just wrote, as a page does.
      expect(await page.auth(new Request(`${APP}/`, { headers: { cookie: cookies } }))).toMatchObject({ user: { email: "grace@example.com" } })
    } finally {
      delete (globalThis as { pgliteClients?: unknown }).pgliteClients
      await Promise.all(opened.map((db) => db.close()))
      rmSync(folder, { recursive: true, force: true })
    }
  }, 60_000)

  it.skipIf(skip !== undefined)(`step 4, PostgreSQL: the same sign-in writes its row through DATABASE_URL${skip ? ` (skipped: ${skip})` : ""}`, async () => {
    const database = await postgresSchema("drizzle-pg.sql")
    appEnv({ DATABASE_URL: database.connectionString })
    let pool: pg.Pool | undefined
    try {
      // The page's pool, kept so that this test can end it.
      class KeptPool extends pg.Pool {
        constructor(options: pg.PoolConfig) {
          super(options)
          pool = this
        }
      }
      const modules = { ...common(), pg: { default: { ...pg, Pool: KeptPool } }, "drizzle-orm/node-postgres": drizzleNodePostgres }
      const { handlers } = await runSnippet(POSTGRES.code, modules)
      const { session, cookie } = await signIn(handlers)
      expect(session).toMatchObject({ user: { name: "Grace Hopper" } })
      const { rows } = await database.pool.query<{ sessionToken: string }>('select "sessionToken" from "session"')
      expect(rows).toHaveLength(1)
      expect(cookie?.startsWith(rows[0]!.sessionToken.slice(0, 64))).toBe(true)
    } finally {
      await pool?.end()
      await database.drop()
    }
  }, 60_000)
})
