// README.md's code, as an app copies it. Every ts block is typechecked against latchkey's source
// with the names it leaves to the app declared in front of it (a Request, an Express or Hono app,
// the providers), and the quickstart's auth.ts is run. The install lines must name the tarball
// `npm pack` writes for this package.json, so they cannot drift from the version.
import { existsSync, readFileSync } from "node:fs"
import { resolve } from "node:path"
import { afterEach, describe, expect, it, vi } from "vitest"
import * as latchkey from "../../src/index.js"
import GitHub from "../../src/providers/github.js"
import Google from "../../src/providers/google.js"
import { itTypechecks } from "../setup/typechecks.js"
import { runSnippet, snippet, snippetsOf, typecheck } from "./support.js"

const PAGE = "../README.md"
const ROOT = resolve(import.meta.dirname, "../..")

/** Each ts block, found by a line it holds, with what an app has around it. */
const BLOCKS = {
  quickstart: { marker: "// auth.ts", preamble: "" },
  providerTokens: { marker: `from "latchkey/provider-tokens"`, preamble: `import { createAuth } from "latchkey"\nimport Google from "latchkey/providers/google"\ndeclare const request: Request\n` },
  frameworks: {
    marker: "// node:http / Express (latchkey/node)",
    preamble: `import { createServer } from "node:http"\nimport { createAuth, type AuthConfig } from "latchkey"\ndeclare const handler: (request: Request) => Promise<Response>\ndeclare const providers: AuthConfig["providers"]\ndeclare const app: { on(methods: string[], path: string, route: (c: { req: { raw: Request } }) => Promise<Response>): void }\n`,
  },
  nextAuthV4: { marker: "getNextAuthV4Token", preamble: "declare const req: Request\n" },
  providers: { marker: "resolveProviders(", preamble: "" },
  oauth: { marker: `from "latchkey/oauth"`, preamble: "declare const request: Request\n" },
}

describe("README.md", () => {
  afterEach(() => vi.unstubAllEnvs())

  it("has no ts block that this file does not typecheck", () => {
    const claimed = Object.values(BLOCKS).map(({ marker }) => snippet(PAGE, "ts", marker).line)
    const unclaimed = snippetsOf(PAGE).filter((block) => (block.lang === "ts" || block.lang === "tsx") && !claimed.includes(block.line))
    expect(unclaimed.map((block) => `line ${block.line}: ${block.code.slice(0, 60)}`)).toEqual([])
  })

  itTypechecks("every ts block compiles as an app writes it", () => {
    const files = Object.fromEntries(Object.entries(BLOCKS).map(([name, { marker, preamble }]) => [`readme-${name}.ts`, `${preamble}${snippet(PAGE, "ts", marker).code}\nexport {}\n`]))
    expect(typecheck(files)).toEqual([])
  }, 120_000)

  it("the quickstart's auth.ts: the route answers 401 without a session", async () => {
    vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789abcdef0123456789")
    vi.stubEnv("AUTH_URL", "http://localhost:3000")
    for (const id of ["GITHUB", "GOOGLE"]) (vi.stubEnv(`AUTH_${id}_ID`, "id"), vi.stubEnv(`AUTH_${id}_SECRET`, "secret"))
    const modules = { latchkey, "latchkey/providers/github": { default: GitHub }, "latchkey/providers/google": { default: Google } }
    const { GET, handler } = await runSnippet(snippet(PAGE, "ts", "// auth.ts").code, modules)
    expect((await GET(new Request("http://localhost:3000/dashboard"))).status).toBe(401)
    const providers = (await (await handler(new Request("http://localhost:3000/auth/providers"))).json()) as Record<string, { id: string }>
    expect(Object.keys(providers)).toEqual(["github", "google"])
  })

  it("the install lines name the tarball npm pack writes, and the setup commands are the two the README promises", () => {
    const { name, version } = JSON.parse(readFileSync(resolve(ROOT, "package.json"), "utf8")) as { name: string; version: string }
    const tarball = `${name}-${version}.tgz`
    const shell = snippetsOf(PAGE).filter((block) => block.lang === "sh").map((block) => block.code)
    expect(shell).toContain(`npm install ../latchkey/${tarball}`)
    expect(shell.some((code) => code.includes(`npm pack   # builds dist/ and writes ${tarball}`))).toBe(true)
    const setup = shell.find((code) => code.startsWith("npm install && npm run demo"))
    expect(setup?.split("\n").map((line) => line.split("#")[0]!.trim())).toEqual(["npm install && npm run demo", "npm test"])
  })

  it("README.md and CONTRIBUTING.md name only npm scripts and files that exist", () => {
    const { scripts } = JSON.parse(readFileSync(resolve(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
    const pages = ["../README.md", "../CONTRIBUTING.md"].flatMap((page) => snippetsOf(page).filter((block) => block.lang === "sh").map((block) => block.code))
    const named = pages.join("\n")
    const runScripts = [...named.matchAll(/npm run (?:--silent )?([\w:-]+)/g)].map((match) => match[1]!)
    const files = [...named.matchAll(/node (?:--\S+ )*((?:scripts|bench|examples)\/[\w./-]+)/g)].map((match) => match[1]!)
    expect(runScripts.length).toBeGreaterThan(3)
    expect(runScripts.filter((name) => !(name in scripts))).toEqual([])
    expect(files.filter((file) => !existsSync(resolve(ROOT, file)))).toEqual([])
  })
})
