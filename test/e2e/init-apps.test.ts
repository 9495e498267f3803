// `latchkey init` end to end: it sets latchkey up in a fresh create-next-app app and in a small
// TypeScript Express app, each app is built with its own toolchain (`next build`, `tsc`), started,
// and signed in to in Chromium through the embedded OpenID Provider, registered as the Keycloak
// provider that init wrote (AUTH_KEYCLOAK_ID, _SECRET and _ISSUER). Nothing in the generated files
// is edited; the Express server is the two lines init prints, pasted into a server file. A third
// create-next-app app gets password accounts (`--provider password`, on PGlite): the `migrate` line
// init printed makes its tables, and in Chromium a new user signs up on the default page, opens the
// link the development mailer printed in the server's output, and is signed in.
// The Next.js app starts from test/e2e/fixtures/create-next-app (see its README) and borrows
// examples/next-app's installed node_modules (hard links, so nothing is installed twice); the Express
// app links express and latchkey's build in the same way.
import { cpSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { execFileSync } from "node:child_process"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort, launchChromium, run, start, stop, unavailableReason, waitForHttp, type Spawned } from "../integrations/example-apps.js"

const unavailable = unavailableReason()
// CI installs Chromium and builds first; there the suite must run, never skip.
const mustRun = process.env.CI === "true"
const ROOT = resolve(".")
const FIXTURE = join(ROOT, "test/e2e/fixtures/create-next-app")
const CLIENT = { AUTH_KEYCLOAK_ID: "latchkey-demo", AUTH_KEYCLOAK_SECRET: "latchkey-demo-secret" }

let browser: Browser | undefined
let provider: { issuer: string; close(): Promise<void> } | undefined
const apps: Spawned[] = []
const folders: string[] = []
const ports = { next: 0, express: 0, passwords: 0 }

beforeAll(async () => {
  if (unavailable) {
    console.warn(`the init end-to-end suite is skipped: ${unavailable}`)
    return
  }
  const { startDemoProvider } = await import("../../examples/demo-provider.mjs")
  ports.next = await freePort()
  ports.express = await freePort()
  ports.passwords = await freePort()
  const redirectUris = [ports.next, ports.express].map((port) => `http://localhost:${port}/auth/callback/keycloak`)
  provider = await startDemoProvider({ redirectUris })
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  for (const app of apps) await stop(app)
  await provider?.close()
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

/** A new folder for an app, removed after the suite. */
function appFolder(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `latchkey-init-${name}-`))
  folders.push(dir)
  return dir
}

/** Copies the fixture, dropping the `.txt` that keeps its TypeScript out of the repository's tsc. */
function copyFixture(target: string): void {
  cpSync(FIXTURE, target, { recursive: true, filter: (source) => !source.endsWith("README.md") })
  for (const file of ["next.config.ts", "app/layout.tsx", "app/page.tsx"]) {
    cpSync(join(target, `${file}.txt`), join(target, file))
    rmSync(join(target, `${file}.txt`))
  }
}

/** Hard-links every file of `from` into `to` (same file system: the copy costs no space). */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true })
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const [source, target] = [join(from, entry.name), join(to, entry.name)]
    if (entry.isDirectory()) linkTree(source, target)
    else if (entry.isSymbolicLink()) cpSync(source, target, { verbatimSymlinks: true })
    else linkSync(source, target)
  }
}

/** Runs the built CLI's init in `dir`; answers what it printed. */
function init(dir: string, ...args: string[]): string {
  return execFileSync(process.execPath, [join(ROOT, "dist/cli.js"), "init", ...args], { cwd: dir, encoding: "utf8" })
}

/** Signs in at `origin` in a fresh browser profile; answers the session the app then reports. */
async function signInThroughKeycloak(origin: string, app: Spawned): Promise<unknown> {
  const context = await browser!.newContext()
  try {
    const page = await context.newPage()
    await page.goto(`${origin}/auth/signin?callbackUrl=%2F`)
    await page.getByRole("button", { name: "Sign in with Keycloak" }).click()
    await page.getByRole("heading", { name: "Demo OpenID Provider" }).waitFor()
    await page.getByRole("button", { name: "Continue" }).click()
    await page.waitForURL(`${origin}/`)
    return await (await page.request.get(`${origin}/auth/session`)).json()
  } catch (error) {
    throw new Error(`the sign-in failed: ${String(error)}\nthe app printed:\n${app.output().slice(-4000)}`)
  } finally {
    await context.close()
  }
}

// Vitest runs with NODE_ENV=test, under which Next.js skips .env.local; the apps run as a user runs them.
const AS_A_USER_RUNS_IT = { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" }

/** The provider's settings and the app's URL; AUTH_SECRET comes from the .env.local init wrote. */
function appEnv(port: number): Record<string, string> {
  return { ...AS_A_USER_RUNS_IT, ...CLIENT, AUTH_KEYCLOAK_ISSUER: provider!.issuer, AUTH_URL: `http://localhost:${port}` }
}

describe.skipIf(unavailable !== undefined && !mustRun)("latchkey init, end to end", () => {
  it("has Chromium and a build to test", () => {
    expect(unavailable, "Chromium and dist/ are required in CI").toBeUndefined()
  })

  it("sets up a create-next-app app that builds with next build and signs in", async () => {
    const { prepareExample } = await import("../../scripts/examples.mjs")
    const example: string = prepareExample("next-app")
    const dir = appFolder("next")
    copyFixture(dir)
    let started = Date.now()
    linkTree(join(example, "node_modules"), join(dir, "node_modules"))
    console.log(`init e2e: linked examples/next-app's node_modules in ${((Date.now() - started) / 1000).toFixed(1)} s`)

    const printed = init(dir, "--provider", "keycloak", "--yes")
    expect(printed).toContain("created  auth.ts")
    expect(printed).toContain("created  app/auth/[...latchkey]/route.ts")
    expect(printed).toContain("http://localhost:3000/auth/callback/keycloak")
    expect(readFileSync(join(dir, ".env.local"), "utf8")).toMatch(/^AUTH_SECRET=[A-Za-z0-9_-]{43}$/m)

    // Built as CI or a Docker image builds: no provider settings, and AUTH_SECRET only from .env.local.
    const next = join(dir, "node_modules", "next", "dist", "bin", "next")
    const seconds = await run(process.execPath, [next, "build"], { cwd: dir, env: { ...AS_A_USER_RUNS_IT, AUTH_URL: "" } })
    console.log(`init e2e: next build of the init app took ${seconds.toFixed(1)} s`)
    started = Date.now()
    const app = start(process.execPath, [next, "start", "--port", String(ports.next), "--hostname", "localhost"], { cwd: dir, env: appEnv(ports.next) })
    apps.push(app)
    await waitForHttp(`http://localhost:${ports.next}/auth/providers`, app)
    const session = await signInThroughKeycloak(`http://localhost:${ports.next}`, app)
    expect(session).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.com" } })
    console.log(`init e2e: the Next.js app started and signed in in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  }, 600_000)

  it("sets up an Express app that builds with tsc and signs in", async () => {
    const dir = appFolder("express")
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "express-app", private: true, type: "module", dependencies: { express: "^5", latchkey: "*" } }, null, 2))
    const compilerOptions = { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, outDir: "dist", types: ["node"] }
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["*.ts"] }, null, 2))
    // The app's node_modules: express and the type packages from this repository, latchkey's build as installed for the examples.
    mkdirSync(join(dir, "node_modules", "@types"), { recursive: true })
    for (const name of ["express", "@types/express", "@types/node"]) symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name))
    const { prepareExample } = await import("../../scripts/examples.mjs")
    symlinkSync(join(prepareExample("next-app"), "node_modules", "latchkey"), join(dir, "node_modules", "latchkey"))

    const printed = init(dir, "--provider", "keycloak", "--yes")
    expect(printed).toContain("created  auth.ts")
    // The server is what init says to add, pasted in as a user would.
    const importLine = /import \{ authRoutes \} from "\.\/auth\.js"/.exec(printed)?.[0]
    const mountLine = /app\.use\("\/auth", authRoutes\)/.exec(printed)?.[0]
    expect([importLine, mountLine]).toEqual(['import { authRoutes } from "./auth.js"', 'app.use("/auth", authRoutes)'])
    writeFileSync(join(dir, "server.ts"), `import express from "express"\n${importLine}\n\nconst app = express()\n${mountLine}\napp.get("/", (_req, res) => void res.send("home"))\napp.listen(Number(process.env.PORT ?? 3000), "localhost")\n`)

    const seconds = await run(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "."], { cwd: dir, env: {} })
    console.log(`init e2e: tsc of the Express app took ${seconds.toFixed(1)} s`)
    const app = start(process.execPath, ["--env-file=.env.local", "dist/server.js"], { cwd: dir, env: { ...appEnv(ports.express), PORT: String(ports.express) } })
    apps.push(app)
    await waitForHttp(`http://localhost:${ports.express}/auth/providers`, app)
    const session = await signInThroughKeycloak(`http://localhost:${ports.express}`, app)
    expect(session).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.com" } })
  }, 120_000)

  it("sets up password accounts in a create-next-app app: migrate, next build, sign-up and the emailed link", async () => {
    const { prepareExample } = await import("../../scripts/examples.mjs")
    const example: string = prepareExample("next-app")
    const dir = appFolder("passwords")
    copyFixture(dir)
    linkTree(join(example, "node_modules"), join(dir, "node_modules"))
    // The packages `init` says to install for PGlite, from this repository's own install.
    for (const name of ["@auth/drizzle-adapter", "@auth/core", "drizzle-orm", "@electric-sql/pglite"]) linkTree(join(ROOT, "node_modules", name), join(dir, "node_modules", name))

    const printed = init(dir, "--provider", "password", "--yes")
    expect(printed).toContain("created  auth.ts")
    expect(printed).not.toContain("callback URLs")
    const migrate = /`npx latchkey (migrate [^`]+)`/.exec(printed)?.[1]
    expect(migrate).toBe("migrate pglite:.data/pglite --adapter drizzle --with database-sessions,passwords")
    execFileSync(process.execPath, [join(ROOT, "dist/cli.js"), ...migrate!.split(" "), "--yes"], { cwd: dir, encoding: "utf8" })

    const next = join(dir, "node_modules", "next", "dist", "bin", "next")
    await run(process.execPath, [next, "build"], { cwd: dir, env: { ...AS_A_USER_RUNS_IT, AUTH_URL: "" } })
    const origin = `http://localhost:${ports.passwords}`
    const app = start(process.execPath, [next, "start", "--port", String(ports.passwords), "--hostname", "localhost"], { cwd: dir, env: { ...AS_A_USER_RUNS_IT, AUTH_URL: origin } })
    apps.push(app)
    await waitForHttp(`${origin}/auth/providers`, app)

    const context = await browser!.newContext()
    try {
      const page = await context.newPage()
      await page.goto(`${origin}/auth/password/sign-up`)
      await page.getByLabel("Email").fill("ada@example.com")
      await page.getByLabel("Password").fill("correct horse battery staple")
      await page.getByRole("button", { name: "Create account" }).click()
      await page.waitForURL(/\/auth\/verify-request\?provider=password&kind=verify-email$/)
      expect(await (await page.request.get(`${origin}/auth/session`)).json()).toBeNull()
      // The development mailer prints the link in the server's output (AUTH_URL is on localhost).
      let link: string | undefined
      for (let tries = 0; tries < 40 && link === undefined; tries++) {
        link = /\[latchkey\] mail to ada@example\.com: [\s\S]*?(http:\/\/localhost:\d+\/auth\/password\/verify-email\?\S+)/.exec(app.output())?.[1]
        if (link === undefined) await new Promise((resolve) => setTimeout(resolve, 250))
      }
      expect(link, app.output().slice(-4000)).toBeDefined()
      await page.goto(link!)
      await page.waitForURL(`${origin}/`)
      expect(await (await page.request.get(`${origin}/auth/session`)).json()).toMatchObject({ user: { email: "ada@example.com" } })
    } catch (error) {
      throw new Error(`the password sign-up failed: ${String(error)}\nthe app printed:\n${app.output().slice(-4000)}`)
    } finally {
      await context.close()
    }
  }, 600_000)
})
