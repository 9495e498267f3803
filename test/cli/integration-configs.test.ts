// The CLI reads the apps `latchkey init` writes for Next.js and SvelteKit: their auth.ts exports
// what `Latchkey()` returns (`handlers`, `handle`, `signIn`, ...), not createAuth's result, so the
// config loader must find the configuration on those exports (bug H2); and right after init, with
// `AUTH_GITHUB_ID=` still empty, doctor reports that provider and checks the rest (bug M4).
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { loadAppConfig } from "../../src/cli/app-config.js"
import { doctorCommand } from "../../src/cli/doctor/command.js"
import { directoryHost, SRC, type DirectoryHost } from "./schema-support-io.js"

const GOOD_SECRET = "Zq3vN8xK1pR7mT2wY6bH9cJ4fL0sD5gA_e-uVkXoPiQ"
const cleanups: Array<() => void> = []
afterAll(() => cleanups.forEach((cleanup) => cleanup()))

// The app's module reads process.env, as it does under the real CLI (whose io.env is process.env):
// the host shares it, and what a test's .env.local exposed there is taken back afterwards.
const environmentBefore = { ...process.env }
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in environmentBefore)) delete process.env[name]
  Object.assign(process.env, environmentBefore)
})

function app(files: Record<string, string>): DirectoryHost {
  const made = directoryHost()
  made.io.env = process.env
  cleanups.push(made.remove)
  for (const [name, contents] of Object.entries(files)) made.write(name, contents)
  return made
}

// The shapes init's templates write (src/cli/init/templates/next.ts and sveltekit.ts).
const NEXT_AUTH = `import { Latchkey } from ${JSON.stringify(`${SRC}integrations/next/index.ts`)}
import GitHub from ${JSON.stringify(`${SRC}providers/github.ts`)}
import { memoryAdapter } from ${JSON.stringify(`${SRC}adapters/memory-adapter.ts`)}
export const { handlers, auth, signIn, signOut, proxy } = Latchkey({
  providers: [GitHub],
  session: { strategy: "database" },
  adapter: memoryAdapter(),
})
`
const SVELTEKIT_AUTH = NEXT_AUTH.replace("integrations/next/index.ts", "integrations/sveltekit/index.ts").replace(
  "export const { handlers, auth, signIn, signOut, proxy }",
  "export const { handle, signIn, signOut }",
)
const FRAMEWORKS = [
  ["Next.js", NEXT_AUTH, { dependencies: { next: "16.0.0" } }],
  ["SvelteKit", SVELTEKIT_AUTH, { devDependencies: { "@sveltejs/kit": "2.0.0", vite: "7.0.0" } }],
] as const

describe("the config loader reads what Latchkey() returns", () => {
  for (const [framework, source] of FRAMEWORKS) {
    it(`${framework}: auth.ts exporting Latchkey()'s members`, async () => {
      const made = app({ "auth.ts": source, ".env.local": `AUTH_SECRET=${GOOD_SECRET}\nAUTH_GITHUB_ID=Iv1.x\nAUTH_GITHUB_SECRET=s\n` })
      const { config, path } = await loadAppConfig(made.io)
      expect(path).toBe("auth.ts")
      expect(config?.providers).toHaveLength(1)
      expect(config?.session?.strategy).toBe("database")
    })
  }
})

describe("doctor right after init: an empty AUTH_GITHUB_ID", () => {
  for (const [framework, source, manifest] of FRAMEWORKS) {
    it(`${framework}: names the provider's variable and still checks the rest`, async () => {
      const made = app({
        "auth.ts": source,
        "package.json": JSON.stringify(manifest),
        ".env.local": `AUTH_SECRET=${GOOD_SECRET}\nAUTH_URL=http://localhost:3000/auth\nAUTH_GITHUB_ID=\nAUTH_GITHUB_SECRET=\n`,
      })
      const code = await doctorCommand(["--offline"], made.io)
      const text = made.out.join("\n")
      expect(text).not.toMatch(/ERR_CLI_CONFIG_LOAD/)
      expect(text).toMatch(/✓ Read the configuration from auth\.ts/)
      expect(text).toMatch(/✗ Provider "github": no client id.*Fix: set AUTH_GITHUB_ID \(and AUTH_GITHUB_SECRET\) in \.env\.local/)
      // The checks that need no provider still run: the secret, the cookies, the adapter's tables.
      expect(text).toMatch(/✓ AUTH_SECRET \(from \.env\.local\)/)
      expect(text).toMatch(/· Cookies over http/)
      expect(text).toMatch(/The config has an adapter; pass --database-url/)
      expect(code).toBe(1)
    })
  }
})

describe("doctor right after init: createAuth, which checks providers as auth.ts loads", () => {
  it("names the provider's variable as the finding, and still checks the secret", async () => {
    const source = `import { createAuth } from ${JSON.stringify(`${SRC}handler/index.ts`)}
import GitHub from ${JSON.stringify(`${SRC}providers/github.ts`)}
export const { handler, auth } = createAuth({ providers: [GitHub] })
`
    const made = app({ "auth.ts": source, ".env.local": `AUTH_SECRET=${GOOD_SECRET}\nAUTH_URL=http://localhost:3000/auth\nAUTH_GITHUB_ID=\n` })
    expect(await doctorCommand(["--offline"], made.io)).toBe(1)
    const text = made.out.join("\n")
    expect(text).toMatch(/✗ Provider "github": no client id.*The configuration did not load because of it.*Fix: set AUTH_GITHUB_ID \(and AUTH_GITHUB_SECRET\) in \.env\.local/)
    expect(text).not.toMatch(/ERR_CLI_CONFIG_LOAD/)
    expect(text).toMatch(/✓ AUTH_SECRET \(from \.env\.local\)/)
  })
})
