// `latchkey doctor`, one seeded misconfiguration per check, each asserting the line that names
// its fix and the non-zero exit; discovery runs against a real oidc-provider, tables against real
// PostgreSQL (a `latchkey_cli_*` schema, dropped afterwards).
import { createServer } from "node:net"
import type { AddressInfo } from "node:net"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { doctorCommand, type DoctorHost } from "../../src/cli/doctor/command.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { directoryHost, type DirectoryHost } from "./schema-support-io.js"
import { POSTGRES, POSTGRES_URL, probe, uniqueName } from "./schema-support.js"

const GOOD_SECRET = "Zq3vN8xK1pR7mT2wY6bH9cJ4fL0sD5gA_e-uVkXoPiQ"
const cleanups: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** Runs doctor in a directory holding `files`; answers the exit code and every printed line. */
async function doctor(files: Record<string, string>, args: string[] = [], host: DoctorHost = {}): Promise<{ code: number; text: string; app: DirectoryHost }> {
  const app = directoryHost()
  cleanups.push(app.remove)
  for (const [name, contents] of Object.entries(files)) app.write(name, contents)
  const code = await doctorCommand(args, app.io, host)
  return { code, text: [...app.out, ...app.err].join("\n"), app }
}

const env = (values: Record<string, string>) => Object.entries(values).map(([name, value]) => `${name}=${value}`).join("\n")
const HEALTHY = { AUTH_SECRET: GOOD_SECRET, AUTH_URL: "http://localhost:3000/auth" }

describe("latchkey doctor: the secret", () => {
  it("a healthy environment has no problem and exits 0", async () => {
    const { code, text } = await doctor({ ".env.local": env(HEALTHY) })
    expect(text).toMatch(/✓ AUTH_SECRET \(from \.env\.local\): 43 characters/)
    expect(text).toMatch(/No problems found\./)
    expect(code).toBe(0)
  })

  it("refuses a 3-character secret, naming the command that makes a good one", async () => {
    const { code, text } = await doctor({ ".env": env({ ...HEALTHY, AUTH_SECRET: "abc" }) })
    expect(text).toMatch(/✗ AUTH_SECRET \(from \.env\) is 3 characters long.*Fix: run `npx latchkey secret --write`/)
    expect(code).toBe(1)
  })

  it("refuses a long but guessable secret, and a missing one", async () => {
    const guessable = await doctor({ ".env.local": env({ ...HEALTHY, AUTH_SECRET: "ab".repeat(24) }) })
    expect(guessable.text).toMatch(/✗ AUTH_SECRET .* looks guessable \(about 48 bits.*Fix: run `npx latchkey secret --write`/)
    // Every character different, so the characters alone look random; each one follows from the last.
    for (const walk of ["abcdefghijklmnopqrstuvwxyz012345", "0123456789abcdef0123456789abcdef", "zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQ"]) {
      const stepped = await doctor({ ".env.local": env({ ...HEALTHY, AUTH_SECRET: walk }) })
      expect(stepped.text, walk).toMatch(/✗ AUTH_SECRET .* looks guessable/)
    }
    // What the Auth.js guides make (`openssl rand -hex 32`, `-base64 32`) still passes.
    for (const bytes of [crypto.getRandomValues(new Uint8Array(32)), crypto.getRandomValues(new Uint8Array(32))]) {
      const hex = Buffer.from(bytes).toString("hex")
      const base64 = Buffer.from(bytes).toString("base64")
      for (const secret of [hex, base64]) expect((await doctor({ ".env.local": env({ ...HEALTHY, AUTH_SECRET: secret }) })).text, secret).toMatch(/✓ AUTH_SECRET/)
    }
    const missing = await doctor({ ".env.local": env({ AUTH_URL: HEALTHY.AUTH_URL }) })
    expect(missing.text).toMatch(/✗ No secret: AUTH_SECRET is not set.*Fix: run `npx latchkey secret --write`/)
    expect(missing.code).toBe(1)
  })
})

describe("latchkey doctor: URLs, cookies and host trust", () => {
  it("no AUTH_URL and no trusted host: names AUTH_URL as the fix for 'Untrusted host'", async () => {
    const { code, text } = await doctor({ ".env.local": env({ AUTH_SECRET: GOOD_SECRET }) })
    expect(text).toMatch(/✗ No AUTH_URL, and the host is not trusted.*"Untrusted host".*Fix: set .* AUTH_URL=http:\/\/localhost:3000\/auth/)
    expect(code).toBe(1)
    const trusted = await doctor({ ".env.local": env({ AUTH_SECRET: GOOD_SECRET, AUTH_TRUST_HOST: "true" }) })
    expect(trusted.code).toBe(0)
  })

  it("localhost against 127.0.0.1: names the URL to open", async () => {
    const { code, text } = await doctor({ ".env.local": env(HEALTHY) }, ["--url", "http://127.0.0.1:3000"])
    expect(text).toMatch(/✗ You open 127\.0\.0\.1 but AUTH_URL says localhost.*Fix: open http:\/\/localhost:3000 in the browser, or set AUTH_URL=http:\/\/127\.0\.0\.1:3000\/auth/)
    expect(code).toBe(1)
    const port = await doctor({ ".env.local": env(HEALTHY) }, ["--url", "http://localhost:5173"])
    expect(port.text).toMatch(/✗ You open http:\/\/localhost:5173 but AUTH_URL is http:\/\/localhost:3000.*Fix: open http:\/\/localhost:3000/)
  })

  it("http on a public host, and secure cookies over http: names https", async () => {
    const { code, text } = await doctor({ ".env.local": env({ ...HEALTHY, AUTH_URL: "http://app.example.com/auth" }) })
    expect(text).toMatch(/✗ AUTH_URL is plain http on app\.example\.com.*Fix: serve the app over https and set AUTH_URL=https:\/\/app\.example\.com\/auth/)
    expect(code).toBe(1)
    const secure = await doctor({ ".env.local": env(HEALTHY), "auth.mjs": "export default { providers: [], useSecureCookies: true }" })
    expect(secure.text).toMatch(/✗ useSecureCookies is on, but AUTH_URL is http.*__Secure-.*Fix: remove useSecureCookies/)
    const https = await doctor({ ".env.local": env({ ...HEALTHY, AUTH_URL: "https://app.example.com/auth" }) })
    expect(https.text).toMatch(/· Cookies over https: __Secure-authjs\.session-token, __Host-authjs\.csrf-token/)
    expect(https.code).toBe(0)
  })

  it("AUTH_URL's path against the config's basePath", async () => {
    const { code, text } = await doctor({ ".env.local": env(HEALTHY), "auth.mjs": 'export default { providers: [], basePath: "/api/auth" }' })
    expect(text).toMatch(/✗ AUTH_URL's path \/auth is not the config's basePath \/api\/auth.*Fix: set AUTH_URL=http:\/\/localhost:3000\/api\/auth/)
    expect(code).toBe(1)
  })
})

describe("latchkey doctor: providers", () => {
  let server: OidcServer
  beforeAll(async () => {
    server = await startOidcServer({ clients: [{ client_id: "corp-client", client_secret: "corp-secret", redirect_uris: ["http://localhost:3000/auth/callback/corp"] }] as never })
    cleanups.push(() => server.close())
  })
  const corp = (fields: string) => `export default { providers: [{ id: "corp", name: "Corp", type: "oidc", clientId: "corp-client", clientSecret: "corp-secret", ${fields} }] }`

  it("prints each callback URL to register, and names the missing client id and secret", async () => {
    const github = await doctor({ ".env.local": env({ ...HEALTHY, AUTH_GITHUB_ID: "Iv1.x" }), "auth.mjs": `import GitHub from ${JSON.stringify(new URL("../../src/providers/github.ts", import.meta.url).pathname)}\nexport default { providers: [GitHub] }` }, ["--offline"])
    expect(github.text).toMatch(/· Register this callback URL with GitHub: http:\/\/localhost:3000\/auth\/callback\/github/)
    expect(github.text).toMatch(/✗ Provider "github" has no client secret.*Fix: set AUTH_GITHUB_SECRET in \.env\.local/)
    const noId = await doctor({ ".env.local": env(HEALTHY), "auth.mjs": 'export default { providers: [{ id: "corp", name: "Corp", type: "oidc", issuer: "https://id.example.com" }] }' }, ["--offline"])
    expect(noId.text).toMatch(/✗ Provider "corp": no client id.*Fix: set AUTH_CORP_ID \(and AUTH_CORP_SECRET\)/)
    expect(noId.code).toBe(1)
  })

  it("discovery answers with the issuer configured: passes; the clock agrees", async () => {
    const { code, text } = await doctor({ ".env.local": env(HEALTHY), "auth.mjs": corp(`issuer: ${JSON.stringify(server.issuer)}`) })
    expect(text).toMatch(/✓ Discovery for "corp" answers at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/openid-configuration/)
    expect(text).toMatch(/✓ Clock within 60 s/)
    expect(code).toBe(0)
  })

  it("an issuer the discovery document does not name: names the issuer to set", async () => {
    const wellKnown = `${server.issuer}/.well-known/openid-configuration`
    const { code, text } = await doctor({ ".env.local": env(HEALTHY), "auth.mjs": corp(`issuer: "${server.issuer}/tenant", wellKnown: "${wellKnown}"`) })
    expect(text).toContain(`Fix: set AUTH_CORP_ISSUER=${server.issuer}.`)
    expect(code).toBe(1)
  })

  it("unreachable discovery: names the URL and the cause", async () => {
    // A port that was just free: nothing listens there.
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise((resolve) => closed.close(resolve))
    const { code, text } = await doctor({ ".env.local": env(HEALTHY), "auth.mjs": corp(`issuer: "http://127.0.0.1:${port}"`) })
    expect(text).toMatch(/✗ Discovery for "corp" at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/openid-configuration failed: ECONNREFUSED.*Fix: check AUTH_CORP_ISSUER/)
    expect(code).toBe(1)
  })

  it("a clock ten minutes fast: names NTP", async () => {
    const { code, text } = await doctor({ ".env.local": env(HEALTHY), "auth.mjs": corp(`issuer: ${JSON.stringify(server.issuer)}`) }, [], { now: () => Date.now() + 600_000 })
    expect(text).toMatch(/✗ This machine's clock is 60\d s ahead of "corp"'s: ID tokens will look expired\. Fix: synchronise the clock/)
    expect(code).toBe(1)
  })
})

describe("latchkey doctor: the adapter's tables", async () => {
  const reason = await probe("PostgreSQL", POSTGRES)()
  if (reason !== undefined) console.warn(`[cli doctor] PostgreSQL is skipped: ${reason}`)
  if (reason !== undefined && process.env.CI === "true") throw new Error(`PostgreSQL is required under CI: ${reason}`)

  it.skipIf(reason !== undefined)("missing tables and columns: names latchkey migrate", async () => {
    const schema = uniqueName()
    const admin = new pg.Client(POSTGRES)
    await admin.connect()
    cleanups.push(() => admin.query(`DROP SCHEMA ${schema} CASCADE`).then(() => admin.end()))
    await admin.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}."user" ("id" text PRIMARY KEY, "email" text)`)
    const url = `${POSTGRES_URL}?schema=${schema}`
    const { code, text } = await doctor({ ".env.local": env({ ...HEALTHY, DATABASE_URL: url }), "auth.mjs": "export default { providers: [], adapter: {} }" })
    expect(text).toMatch(/✗ The database lacks table account, table session, column user\.name, column user\.emailVerified, column user\.image\. Fix: run `npx latchkey migrate <database-url> --adapter drizzle`/)
    expect(code).toBe(1)
    await admin.query(`DROP TABLE ${schema}."user"`)
    const app = directoryHost()
    cleanups.push(app.remove)
    const { runCli } = await import("../../src/cli/commands.js")
    expect(await runCli(["migrate", url, "--yes", "--with", "database-sessions"], app.io, () => ({}))).toBe(0)
    const healed = await doctor({ ".env.local": env({ ...HEALTHY, DATABASE_URL: url }), "auth.mjs": "export default { providers: [], adapter: {} }" })
    expect(healed.text).toMatch(/✓ The database has every table and column the drizzle adapter reads/)
    expect(healed.code).toBe(0)
  })
})
