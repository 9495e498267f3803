// `latchkey init --provider password`: email and password accounts wired as docs/passwords.md wires
// them (the Password provider, the passwords plug-in, the two adapter methods over the users
// table), in a database (PGlite unless told otherwise, never none), with the steps a newcomer
// follows. Then the module init wrote is used as its user would use it: it typechecks, the
// `migrate` line init printed creates the tables, and through its handler a new user signs up,
// follows the link the development mailer printed, is signed in, and signs in again by password.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it, onTestFinished, vi } from "vitest"
import { runCli } from "../../src/cli/commands.js"
import { parseEnvText } from "../../src/cli/env-files.js"
import { snippet, typecheck } from "../docs/support.js"
import { Browser, GOOD } from "../passwords/flows-support.js"
import { directoryHost } from "./schema-support-io.js"
import { manifest, tempApp } from "./init-support.js"

const HONO = { "package.json": manifest({ hono: "^4" }, { type: "module" }), "tsconfig.json": "{}" }
const NEXT = { "package.json": manifest({ next: "16.4.6", react: "19.3.1", "react-dom": "19.3.1" }), "tsconfig.json": "{}", "app/layout.tsx": "" }

describe("latchkey init --provider password", () => {
  it("writes the provider, the plug-in and the hash methods, on PGlite by default, and the steps to the first account", async () => {
    const app = tempApp(HONO)
    expect(await app.init("--provider", "password", "--yes")).toBe(0)
    const auth = app.read("auth.ts")!
    expect(auth).toContain('import Password from "latchkey/providers/password"')
    expect(auth).toContain('import { passwords } from "latchkey/passwords"')
    expect(auth).toMatch(/adapter: \{\n {4}\.\.\.DrizzleAdapter\(db\),/)
    expect(auth).toMatch(/getUserPassword: async \(id\) =>/)
    expect(auth).toMatch(/setUserPassword: async \(id, hash\) =>/)
    // Database sessions: a reset ends the user's sessions through it, and createAuth asks for it.
    expect(auth).toMatch(/deleteSessionsByUserId: async \(id\) =>/)
    expect(auth).toMatch(/\n {2}passwords, /)
    const printed = app.out.join("\n")
    // No OAuth client to register, and no provider variables to fill.
    expect(printed).not.toContain("callback URLs")
    expect(Object.keys(parseEnvText(app.read(".env.local")!))).toEqual(["AUTH_SECRET", "AUTH_URL"])
    expect(printed).toContain("npx latchkey migrate pglite:.data/pglite --adapter drizzle --with database-sessions,passwords")
    expect(printed).toContain("Create the first account at http://localhost:3000/auth/password/sign-up")
  })

  it("on PostgreSQL, the methods query the users table; beside an OAuth provider, only that one gets a callback URL", async () => {
    const app = tempApp(NEXT)
    expect(await app.init("--provider", "github,password", "--database", "postgres", "--yes")).toBe(0)
    const auth = app.read("auth.ts")!
    expect(auth).toContain('select password from users where id = $1", [id]')
    expect(auth).toContain('update users set password = $2 where id = $1", [id, hash]')
    expect(auth.indexOf("    GitHub, // AUTH_GITHUB_ID, AUTH_GITHUB_SECRET")).toBeLessThan(auth.indexOf("    Password({"))
    const printed = app.out.join("\n")
    expect(printed).toContain("GitHub       http://localhost:3000/auth/callback/github")
    expect(printed).not.toContain("/callback/password")
    expect(printed).toContain("`npx latchkey migrate --adapter pg --with database-sessions,passwords` (it reads DATABASE_URL from .env.local")
    expect(Object.keys(parseEnvText(app.read(".env.local")!))).toEqual(["AUTH_SECRET", "AUTH_URL", "DATABASE_URL", "AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET"])
  })

  it("refuses no database beside password accounts, and on a terminal asks again", async () => {
    const flagged = tempApp(HONO)
    expect(await flagged.init("--provider", "password", "--database", "none", "--yes")).toBe(2)
    expect(flagged.err[0]).toMatch(/^Password accounts keep each user and their password hash in a database: choose "pglite" \(PostgreSQL in the process, no server\) or "postgres"\.$/)
    expect(flagged.exists("auth.ts")).toBe(false)

    const asked = tempApp(HONO, ["password", "none", ""])
    expect(await asked.init()).toBe(0)
    expect(asked.asked[1]).toBe("Database (postgres, pglite) [pglite]: ")
    expect(asked.asked).toHaveLength(3)
    expect(asked.read("auth.ts")).toContain("DrizzleAdapter(db)")
  })

  it("writes a module that typechecks for every framework, on PGlite and on PostgreSQL", async () => {
    const layouts = { next: NEXT, hono: HONO, express: { "package.json": manifest({ express: "^5" }, { type: "module" }), "tsconfig.json": "{}" }, sveltekit: { "package.json": manifest({}, { devDependencies: { "@sveltejs/kit": "^2" } }), "tsconfig.json": "{}" } }
    // SvelteKit's module reads DATABASE_URL and AUTH_URL from $env/dynamic/private, which SvelteKit declares in each app.
    const files: Record<string, string> = { "sveltekit-env.d.ts": 'declare module "$env/dynamic/private" {\n  export const env: Record<string, string | undefined>\n}\n' }
    for (const [framework, layout] of Object.entries(layouts)) {
      for (const database of ["pglite", "postgres"]) {
        const app = tempApp(layout)
        expect(await app.init("--provider", "github,password", "--database", database, "--yes")).toBe(0)
        files[`init-${framework}-${database}.ts`] = app.read(framework === "sveltekit" ? "src/auth.ts" : "auth.ts")!
      }
    }
    expect(typecheck(files)).toEqual([])
  }, 60_000)

  it("exports the password server actions and form actions the Next.js and SvelteKit guides import from auth", async () => {
    const next = tempApp(NEXT)
    expect(await next.init("--provider", "password", "--yes")).toBe(0)
    expect(next.read("auth.ts")).toContain("export const { handlers, auth, signIn, signOut, proxy, signUp, requestPasswordReset, resetPassword, changePassword, changeEmail } = Latchkey({")
    const sveltekit = tempApp({ "package.json": manifest({}, { devDependencies: { "@sveltejs/kit": "^2" } }), "tsconfig.json": "{}" })
    expect(await sveltekit.init("--provider", "password", "--yes")).toBe(0)
    expect(sveltekit.read("src/auth.ts")).toContain("export const { handle, signIn, signOut, signUp, requestPasswordReset, resetPassword, changePassword, changeEmail } = Latchkey({")
    // Without password accounts, nothing more than before.
    const github = tempApp(NEXT)
    expect(await github.init("--provider", "github", "--yes")).toBe(0)
    expect(github.read("auth.ts")).toContain("export const { handlers, auth, signIn, signOut, proxy } = Latchkey({")
    const guide = (page: string, marker: string) => snippet(page, "ts", marker).code
    expect(
      typecheck({
        "next/auth.ts": next.read("auth.ts")!,
        "next/app/login/actions.ts": guide("frameworks/nextjs.md", "// app/login/actions.ts"),
        "next/app/account/actions.ts": guide("frameworks/nextjs.md", "// app/account/actions.ts"),
        "sveltekit-env.d.ts": 'declare module "$env/dynamic/private" {\n  export const env: Record<string, string | undefined>\n}\n',
        "sveltekit/src/auth.ts": sveltekit.read("src/auth.ts")!,
        "sveltekit/src/routes/account/+page.server.ts": guide("frameworks/sveltekit.md", "// src/routes/account/+page.server.ts"),
      })
    ).toEqual([])
  }, 60_000)

  it("writes JavaScript with no type syntax when the app has no tsconfig.json", async () => {
    const app = tempApp({ "package.json": manifest({ hono: "^4" }, { type: "module" }) })
    expect(await app.init("--provider", "password", "--yes")).toBe(0)
    const auth = app.read("auth.js")!
    expect(auth).toContain("await db.execute(sql`select password")
    expect(auth).not.toMatch(/execute</)
  })
})

describe("the module init wrote for password accounts, used as written", () => {
  it("typechecks, and its migrate line, sign-up, emailed link and sign-in all work", async () => {
    const app = tempApp(HONO)
    expect(await app.init("--provider", "password", "--yes")).toBe(0)
    const source = app.read("auth.ts")!
    expect(typecheck({ "init-password-auth.ts": source })).toEqual([])

    // The module lives under the repository, so `latchkey` and the database packages resolve as in an app.
    const dir = mkdtempSync(resolve(".cache", "init-password-"))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    mkdirSync(dir, { recursive: true })
    const pglite = join(dir, ".data", "pglite")

    // The migrate line from the printed steps, with the PGlite folder under this test's directory.
    const line = /`npx latchkey (migrate pglite:\.data\/pglite [^`]+)`/.exec(app.out.join("\n"))![1]!
    const cli = directoryHost()
    onTestFinished(cli.remove)
    const args = line.split(" ").map((word) => (word === "pglite:.data/pglite" ? `pglite:${pglite}` : word))
    expect(await runCli([...args, "--yes"], cli.io, parseEnvText), cli.err.join("\n")).toBe(0)

    const env = parseEnvText(app.read(".env.local")!)
    vi.stubEnv("AUTH_SECRET", env.AUTH_SECRET!)
    vi.stubEnv("AUTH_URL", env.AUTH_URL!)
    vi.stubEnv("PGLITE_DIR", pglite)
    onTestFinished(() => void vi.unstubAllEnvs())
    const printed: string[] = []
    const log = vi.spyOn(console, "log").mockImplementation((...parts: unknown[]) => void printed.push(parts.join(" ")))
    onTestFinished(() => log.mockRestore())
    writeFileSync(join(dir, "auth.ts"), source)
    const { handler } = (await import(pathToFileURL(join(dir, "auth.ts")).href)) as { handler: (request: Request) => Promise<Response> }

    const origin = env.AUTH_URL!
    const browser = new Browser(handler, origin)
    expect((await browser.get("/auth/password/sign-up")).status).toBe(200)
    const signUp = await browser.post("/auth/password/sign-up", { email: "ada@example.com", password: GOOD, name: "Ada" })
    expect(signUp.status).toBe(302)
    expect(await browser.session()).toBeNull()
    const mail = printed.find((text) => text.startsWith("[latchkey] mail to ada@example.com: "))
    const link = mail && /https?:\/\/\S+/.exec(mail)?.[0]
    expect(link, printed.join("\n")).toMatch(new RegExp(`^${origin}/auth/password/verify-email\\?`))
    expect((await browser.get(link!)).status).toBe(302)
    expect((await browser.session())?.user?.email).toBe("ada@example.com")

    const again = new Browser(handler, origin)
    expect((await again.signIn("ada@example.com", GOOD)).status).toBe(302)
    expect((await again.session())?.user?.email).toBe("ada@example.com")
    expect((await new Browser(handler, origin).signIn("ada@example.com", "not the password at all", { script: true })).status).toBe(401)
  }, 60_000)
})
