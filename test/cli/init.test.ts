// `latchkey init` over a real folder per framework: what it detects, the files it writes (laid out as
// the framework guides and example apps have them), .env.local with a fresh secret, the callback URLs
// it prints, and what it refuses to do: replace a file or a secret, guess a mistyped name, or ask a
// question when stdin is not a terminal.
import { execFile } from "node:child_process"
import { existsSync, readFileSync, statSync } from "node:fs"
import { join, resolve } from "node:path"
import { parseEnv, promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { manifest, tempApp } from "./init-support.js"

const NEXT = manifest({ next: "16.4.6", react: "19.3.1", "react-dom": "19.3.1" })
const SECRET_LINE = /^AUTH_SECRET=([A-Za-z0-9_-]{43})$/m

function env(text: string | undefined): Record<string, string> {
  return parseEnv(text ?? "") as Record<string, string>
}

describe("latchkey init: Next.js", () => {
  it("writes auth.ts and app/auth/[...latchkey]/route.ts, and .env.local with a fresh secret", async () => {
    const app = tempApp({ "package.json": NEXT, "tsconfig.json": "{}", "app/layout.tsx": "", "app/page.tsx": "" })
    expect(await app.init("--provider", "github,google", "--yes")).toBe(0)
    const auth = app.read("auth.ts")!
    expect(auth).toContain('import { Latchkey } from "latchkey/next"')
    expect(auth).toContain('import GitHub from "latchkey/providers/github"')
    expect(auth).toContain('import Google from "latchkey/providers/google"')
    expect(auth).toMatch(/export const \{ handlers, auth, signIn, signOut, proxy \} = Latchkey\(\{\n  providers: \[\n    GitHub, \/\/ AUTH_GITHUB_ID, AUTH_GITHUB_SECRET\n    Google, \/\/ AUTH_GOOGLE_ID, AUTH_GOOGLE_SECRET\n  \],/)
    expect(app.read("app/auth/[...latchkey]/route.ts")).toContain('import { handlers } from "../../../auth"\n\nexport const { GET, POST } = handlers')
    const variables = env(app.read(".env.local"))
    expect(variables.AUTH_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(variables.AUTH_SECRET!, "base64url")).toHaveLength(32)
    expect(variables).toMatchObject({ AUTH_URL: "http://localhost:3000", AUTH_GITHUB_ID: "", AUTH_GITHUB_SECRET: "", AUTH_GOOGLE_ID: "", AUTH_GOOGLE_SECRET: "" })
    const printed = app.out.join("\n")
    expect(printed).toContain("http://localhost:3000/auth/callback/github")
    expect(printed).toContain("http://localhost:3000/auth/callback/google")
    // The secret goes to the file only, never to the terminal.
    expect(printed).not.toContain(variables.AUTH_SECRET)
    expect(printed).toContain("Install: npm install latchkey")
  })

  it("puts auth.ts in src/ when the App Router lives in src/app", async () => {
    const app = tempApp({ "package.json": NEXT, "tsconfig.json": "{}", "src/app/layout.tsx": "" })
    expect(await app.init("--yes")).toBe(0)
    expect(app.exists("src/auth.ts")).toBe(true)
    expect(app.read("src/app/auth/[...latchkey]/route.ts")).toContain('from "../../../auth"')
    expect(app.exists("auth.ts")).toBe(false)
    expect(app.out.join("\n")).toContain("(src/app)")
  })

  it("writes JavaScript when the app has no tsconfig.json", async () => {
    const app = tempApp({ "package.json": NEXT, "app/layout.jsx": "" })
    expect(await app.init("--yes")).toBe(0)
    expect(app.exists("auth.js")).toBe(true)
    expect(app.exists("app/auth/[...latchkey]/route.js")).toBe(true)
  })

  it("never replaces an existing file or an AUTH_SECRET, and says what it skipped", async () => {
    const app = tempApp({ "package.json": NEXT, "tsconfig.json": "{}", "app/layout.tsx": "", "auth.ts": "// mine\n", ".env.local": "AUTH_SECRET=keep-me\nAUTH_URL=https://app.example.com\n" })
    expect(await app.init("--provider", "github", "--yes")).toBe(0)
    expect(app.read("auth.ts")).toBe("// mine\n")
    const variables = env(app.read(".env.local"))
    expect(variables.AUTH_SECRET).toBe("keep-me")
    expect(variables.AUTH_URL).toBe("https://app.example.com")
    expect(variables.AUTH_GITHUB_ID).toBe("")
    const printed = app.out.join("\n")
    expect(printed).toMatch(/skipped {2}auth\.ts \(it exists\)/)
    expect(printed).toMatch(/skipped {2}AUTH_SECRET, AUTH_URL in \.env\.local/)
    // The callback URL follows the app's own AUTH_URL.
    expect(printed).toContain("https://app.example.com/auth/callback/github")
    // A second run changes nothing at all.
    const before = app.read(".env.local")
    expect(await app.init("--provider", "github", "--yes")).toBe(0)
    expect(app.read(".env.local")).toBe(before)
  })

  it("warns when .gitignore would let .env.local be committed", async () => {
    const ignored = tempApp({ "package.json": NEXT, "app/page.tsx": "", ".gitignore": "/node_modules\n.env*\n" })
    expect(await ignored.init("--yes")).toBe(0)
    expect(ignored.err).toEqual([])
    const exposed = tempApp({ "package.json": NEXT, "app/page.tsx": "", ".gitignore": "/node_modules\n" })
    expect(await exposed.init("--yes")).toBe(0)
    expect(exposed.err.join("\n")).toMatch(/\.gitignore does not list \.env\.local/)
  })
})

describe("latchkey init: SvelteKit, Express and Hono", () => {
  it("SvelteKit: src/auth.ts, the hook and app.d.ts; an existing hook is kept, with the line to add", async () => {
    const app = tempApp({ "package.json": manifest({}, { devDependencies: { "@sveltejs/kit": "^2" } }), "tsconfig.json": "{}", "src/app.d.ts": "// the app's own\n" })
    expect(await app.init("--provider", "gitlab", "--yes")).toBe(0)
    expect(app.read("src/auth.ts")).toContain('import { Latchkey } from "latchkey/sveltekit"')
    expect(app.read("src/auth.ts")).toContain("export const { handle, signIn, signOut } = Latchkey({")
    expect(app.read("src/hooks.server.ts")).toContain('export { handle } from "./auth"')
    expect(app.read("src/app.d.ts")).toBe("// the app's own\n")
    expect(app.out.join("\n")).toMatch(/skipped {2}src\/app\.d\.ts \(it exists\): declare latchkey's locals/)
    expect(env(app.read(".env.local")).AUTH_URL).toBe("http://localhost:5173")
    expect(app.out.join("\n")).toContain("http://localhost:5173/auth/callback/gitlab")
  })

  it("Express: auth.ts with createAuth and toWebHandler, and the mount line to add", async () => {
    const app = tempApp({ "package.json": manifest({ express: "^5" }, { type: "module" }), "tsconfig.json": "{}" })
    expect(await app.init("--provider", "keycloak", "--database", "postgres", "--yes")).toBe(0)
    const auth = app.read("auth.ts")!
    expect(auth).toContain('import { toWebHandler } from "latchkey/node"')
    expect(auth).toContain("Keycloak, // AUTH_KEYCLOAK_ID, AUTH_KEYCLOAK_SECRET, AUTH_KEYCLOAK_ISSUER")
    expect(auth).toContain("adapter: PostgresAdapter(pool)")
    expect(auth).toContain("export const authRoutes = toWebHandler(handler)")
    const variables = env(app.read(".env.local"))
    expect(variables).toMatchObject({ AUTH_KEYCLOAK_ISSUER: "", DATABASE_URL: expect.stringMatching(/^postgres:\/\//) })
    const printed = app.out.join("\n")
    expect(printed).toContain('app.use("/auth", authRoutes)')
    expect(printed).toContain("npm install latchkey @auth/pg-adapter pg")
    expect(printed).toContain("node --env-file=.env.local")
  })

  it("Express in CommonJS JavaScript: auth.mjs, so the import syntax loads", async () => {
    const app = tempApp({ "package.json": manifest({ express: "^5" }) })
    expect(await app.init("--yes")).toBe(0)
    expect(app.exists("auth.mjs")).toBe(true)
    expect(app.out.join("\n")).toContain('from "./auth.mjs"')
  })

  it("Hono: auth.ts with createAuth, and the route to register", async () => {
    const app = tempApp({ "package.json": manifest({ hono: "^4" }, { type: "module" }), "tsconfig.json": "{}" })
    expect(await app.init("--database", "pglite", "--yes")).toBe(0)
    const auth = app.read("auth.ts")!
    expect(auth).toContain("export const { handler, auth } = createAuth({")
    expect(auth).not.toContain("toWebHandler")
    expect(auth).toContain("adapter: DrizzleAdapter(db)")
    expect(app.out.join("\n")).toContain('app.on(["GET", "POST"], "/auth/*", (c) => handler(c.req.raw))')
    expect(app.out.join("\n")).toMatch(/npx latchkey migrate pglite:\.data\/pglite --adapter drizzle --with database-sessions.*add its folder, \.data\/, to \.gitignore/)
  })

  it("Next.js wins over Express when an app lists both (a custom server)", async () => {
    const app = tempApp({ "package.json": manifest({ express: "^5", next: "16" }), "app/page.tsx": "" })
    expect(await app.init("--yes")).toBe(0)
    expect(app.exists("app/auth/[...latchkey]/route.js")).toBe(true)
  })

  it("--framework overrides what package.json says, and says so", async () => {
    const app = tempApp({ "package.json": manifest({ express: "^5" }, { type: "module" }) })
    expect(await app.init("--framework", "hono", "--yes")).toBe(0)
    expect(app.out.join("\n")).toMatch(/package\.json points to Express; setting up Hono/)
    expect(app.read("auth.js")).not.toContain("toWebHandler")
  })
})

describe("latchkey init: names, questions and refusals", () => {
  it("refuses an unknown provider with a did-you-mean, and writes nothing", async () => {
    const app = tempApp({ "package.json": NEXT })
    expect(await app.init("--provider", "githb", "--yes")).toBe(2)
    expect(app.err).toEqual(['Unknown provider "githb". Did you mean "github"?'])
    expect(app.exists(".env.local")).toBe(false)
    expect(app.exists("auth.js")).toBe(false)
    const far = tempApp({ "package.json": NEXT })
    expect(await far.init("--provider", "qqqqqqq")).toBe(2)
    expect(far.err).toEqual(['Unknown provider "qqqqqqq".'])
  })

  it("knows providers by file name and by id, and refuses the ones it does not set up", async () => {
    const app = tempApp({ "package.json": NEXT })
    expect(await app.init("--provider", "ory-hydra,hydra,microsoft-entra-id", "--yes")).toBe(0)
    const auth = app.read("auth.js")!
    expect(auth).toContain('import OryHydra from "latchkey/providers/ory-hydra"')
    expect(auth.match(/OryHydra,/g)).toHaveLength(1)
    expect(app.out.join("\n")).toContain("http://localhost:3000/auth/callback/hydra")
    expect(env(app.read(".env.local"))).toHaveProperty("AUTH_HYDRA_ISSUER")
    const credentials = tempApp({ "package.json": NEXT })
    expect(await credentials.init("--provider", "credentials")).toBe(2)
    expect(credentials.err[0]).toMatch(/"credentials" is a credentials provider; init sets up OAuth and OpenID Connect providers and password accounts\. Add it by hand \(see docs\/providers\.md\)/)
    const passkey = tempApp({ "package.json": NEXT })
    expect(await passkey.init("--provider", "passkey")).toBe(2)
    expect(passkey.err[0]).toMatch(/"passkey" is a webauthn provider; .* \(see docs\/passkeys\.md\)/)
    expect(passkey.exists("auth.js")).toBe(false)
  })

  it("refuses an unknown framework or database with a did-you-mean", async () => {
    const framework = tempApp({ "package.json": NEXT })
    expect(await framework.init("--framework", "expres")).toBe(2)
    expect(framework.err).toEqual(['Unknown framework "expres". Did you mean "express"?'])
    const database = tempApp({ "package.json": NEXT })
    expect(await database.init("--database", "postgre")).toBe(2)
    expect(database.err).toEqual(['Unknown database "postgre". Did you mean "postgres"?'])
  })

  it("without a terminal, asks nothing: an undetectable framework must come as --framework", async () => {
    const app = tempApp({ "package.json": manifest({ fastify: "^5" }) })
    expect(await app.init()).toBe(1)
    expect(app.err[0]).toMatch(/pass --framework next, sveltekit, express or hono/)
    const empty = tempApp({})
    expect(await empty.init("--yes")).toBe(1)
    expect(empty.err[0]).toMatch(/No package\.json here/)
  })

  it("on a terminal, asks what it cannot tell, and asks again after a mistyped name", async () => {
    const app = tempApp({ "package.json": manifest({}, { type: "module" }) }, ["hono", "gooogle, github", "", "sqlite", "pglite"])
    expect(await app.init()).toBe(0)
    expect(app.asked).toEqual([expect.stringMatching(/^Framework/), expect.stringMatching(/^Providers/), expect.stringMatching(/^Providers/), expect.stringMatching(/^Database/), expect.stringMatching(/^Database/)])
    expect(app.err).toEqual(['Unknown provider "gooogle". Did you mean "google"?', 'Unknown database "sqlite". Did you mean "pglite"?'])
    // The empty reply took the default provider.
    expect(app.read("auth.js")).toContain("GitHub, // AUTH_GITHUB_ID")
    expect(app.read("auth.js")).toContain("DrizzleAdapter(db)")
  })

  it("--yes asks nothing even on a terminal", async () => {
    const app = tempApp({ "package.json": NEXT, "app/page.tsx": "" }, [])
    expect(await app.init("--yes")).toBe(0)
    expect(app.asked).toEqual([])
  })

  it("rejects unknown options and flags without values, with usage", async () => {
    for (const args of [["--force"], ["--provider"], ["--database", "--yes"]]) {
      const app = tempApp({ "package.json": NEXT })
      expect(await app.init(...args)).toBe(2)
      expect(app.err.join("\n")).toMatch(/Usage:\n {2}latchkey init/)
    }
  })

  it("the built bin creates the route's folders and keeps .env.local private to its owner", async (context) => {
    if (!existsSync("dist/cli.js")) {
      const reason = "no dist/cli.js (run npm run build, or npm test, which builds first)"
      console.warn(`the built bin's init is not run: ${reason}`)
      context.skip(reason)
    }
    const app = tempApp({ "package.json": NEXT, "tsconfig.json": "{}", "app/page.tsx": "" })
    const { stdout } = await promisify(execFile)(process.execPath, [resolve("dist/cli.js"), "init", "--yes"], { cwd: app.dir })
    expect(stdout).toContain("created  app/auth/[...latchkey]/route.ts")
    expect(readFileSync(join(app.dir, ".env.local"), "utf8")).toMatch(SECRET_LINE)
    expect(statSync(join(app.dir, ".env.local")).mode & 0o777).toBe(0o600)
    expect(statSync(join(app.dir, "auth.ts")).mode & 0o777).toBe(0o644)
  })

  it("the built bin on a real terminal: typed-ahead answers are kept, and Ctrl+D cancels with nothing written", async (context) => {
    // util-linux's `script` runs the bin on a pseudo-terminal, so stdin is a TTY as in a shell.
    const script = ["/usr/bin/script", "/bin/script"].find((path) => existsSync(path))
    const missing = !existsSync("dist/cli.js") ? "no dist/cli.js (run npm run build)" : script === undefined ? "no util-linux `script` to make a terminal" : undefined
    if (missing !== undefined) {
      console.warn(`the built bin's questions are not run: ${missing}`)
      context.skip(missing)
    }
    const onTerminal = async (dir: string, typed: string) => {
      const child = execFile(script!, ["-qec", `${process.execPath} ${resolve("dist/cli.js")} init`, "/dev/null"], { cwd: dir })
      child.stdin!.end(typed)
      let output = ""
      child.stdout!.on("data", (chunk: string) => (output += chunk))
      const code = await new Promise<number | null>((done) => child.on("close", done))
      return { code, output }
    }
    const app = tempApp({ "package.json": manifest({}, { type: "module" }) })
    const answered = await onTerminal(app.dir, "hono\ngithb\ngithub\n\n")
    expect(answered.output).toContain('Unknown provider "githb". Did you mean "github"?')
    expect([answered.code, app.read("auth.js")]).toEqual([0, expect.stringContaining("GitHub, // AUTH_GITHUB_ID")])
    const cancelled = tempApp({ "package.json": manifest({}, { type: "module" }) })
    const stopped = await onTerminal(cancelled.dir, "hono\n")
    expect(stopped.code).toBe(130)
    expect(stopped.output).toContain("Cancelled; nothing was written.")
    expect([cancelled.exists("auth.js"), cancelled.exists(".env.local")]).toEqual([false, false])
  })
})
