// The PGlite module `latchkey init` writes, loaded twice in one process, as Next.js does: it bundles
// auth.ts once for route handlers and once for server components and actions. Both copies must use
// one PGlite client per folder, or the second reads stale pages (a session just written is not
// seen, and auth() answers null) and two writers can corrupt the folder. Here the module is imported
// under two URLs, as two bundles would hold it; a user signs up and signs in through one copy, and
// the other copy's auth() sees the session. TypeScript and JavaScript are each run, each in its own
// folder: one client per folder, never one for the whole process.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it, onTestFinished, vi } from "vitest"
import { runCli } from "../../src/cli/commands.js"
import { parseEnvText } from "../../src/cli/env-files.js"
import { Browser, GOOD } from "../passwords/flows-support.js"
import { directoryHost } from "./schema-support-io.js"
import { manifest, tempApp } from "./init-support.js"

type AuthModule = { handler: (request: Request) => Promise<Response>; auth: (request: Request) => Promise<{ user?: { email?: string | null } } | null> }

const APPS = {
  typescript: { files: { "package.json": manifest({ hono: "^4" }, { type: "module" }), "tsconfig.json": "{}" }, module: "auth.ts" },
  javascript: { files: { "package.json": manifest({ hono: "^4" }, { type: "module" }) }, module: "auth.js" },
}

describe("the PGlite module init wrote, loaded twice in one process", () => {
  const printed: string[] = []
  const closing: (() => Promise<void>)[] = []

  for (const [language, { files, module }] of Object.entries(APPS)) {
    it(`${language}: both copies use one client, so a sign-in through one is a session in the other`, async () => {
      const app = tempApp(files)
      expect(await app.init("--provider", "password", "--yes")).toBe(0)
      const source = app.read(module)!

      const dir = mkdtempSync(resolve(".cache", "init-pglite-once-"))
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
      mkdirSync(dir, { recursive: true })
      const pglite = join(dir, ".data", "pglite")
      const cli = directoryHost()
      onTestFinished(cli.remove)
      expect(await runCli(["migrate", `pglite:${pglite}`, "--adapter", "drizzle", "--with", "database-sessions,passwords", "--yes"], cli.io, parseEnvText), cli.err.join("\n")).toBe(0)

      const env = parseEnvText(app.read(".env.local")!)
      vi.stubEnv("AUTH_SECRET", env.AUTH_SECRET!)
      vi.stubEnv("AUTH_URL", env.AUTH_URL!)
      vi.stubEnv("PGLITE_DIR", pglite)
      onTestFinished(() => void vi.unstubAllEnvs())
      printed.length = 0
      const log = vi.spyOn(console, "log").mockImplementation((...parts: unknown[]) => void printed.push(parts.join(" ")))
      onTestFinished(() => log.mockRestore())
      writeFileSync(join(dir, module), source)
      const url = pathToFileURL(join(dir, module)).href
      const route = (await import(url)) as AuthModule
      const page = (await import(`${url}?second-bundle`)) as AuthModule
      // Two module instances, as two bundles hold them: each has its own handler.
      expect(page.handler).not.toBe(route.handler)

      // The same address in each folder: were the folders to share one client, the second sign-up
      // would find the first one's account, and no verification mail would go out.
      const origin = env.AUTH_URL!
      const browser = new Browser(route.handler, origin)
      expect((await browser.post("/auth/password/sign-up", { email: "ada@example.com", password: GOOD, name: "Ada" })).status).toBe(302)
      const mail = printed.find((text) => text.startsWith("[latchkey] mail to ada@example.com: ")) ?? ""
      const link = /https?:\/\/\S+/.exec(mail)?.[0]
      expect(link, mail).toMatch(new RegExp(`^${origin}/auth/password/verify-email\\?`))
      expect((await browser.get(link!)).status).toBe(302)
      expect((await browser.session())?.user?.email).toBe("ada@example.com")

      // The other copy, as a server component reads the session right after the sign-in.
      const request = new Request(`${origin}/`, { headers: { cookie: browser.cookie } })
      expect((await page.auth(request))?.user?.email).toBe("ada@example.com")
      const again = new Browser(page.handler, origin)
      expect((await again.signIn("ada@example.com", GOOD)).status).toBe(302)
      expect((await route.auth(new Request(`${origin}/`, { headers: { cookie: again.cookie } })))?.user?.email).toBe("ada@example.com")

      const clients = Object.values(globalThis).find((value): value is Map<string, { close(): Promise<void> }> => value instanceof Map && value.has(pglite))
      expect(clients, "the clients by folder, on globalThis").toBeDefined()
      closing.push(() => clients!.get(pglite)!.close())
    }, 60_000)
  }

  it("keeps one client per folder: the two runs above opened two", async () => {
    const clients = Object.values(globalThis).find((value): value is Map<string, unknown> => value instanceof Map && [...value.keys()].some((key) => String(key).includes("init-pglite-once-")))
    expect(clients?.size).toBe(2)
    await Promise.all(closing.map((close) => close()))
  })
})
