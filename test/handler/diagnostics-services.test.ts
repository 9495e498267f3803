// Issue #29, item 6, against real servers: a provider written as type "oauth" whose issuer is an
// OpenID Connect server (oidc-provider), and a database whose tables were never created (the
// machine's PostgreSQL, in a schema of this run's own that holds no tables). The log must name the
// fix; the database's hint must carry the driver's code and never a value it was handed.
import { randomBytes } from "node:crypto"
import PostgresAdapter from "@auth/pg-adapter"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { TestBrowser } from "../servers/browser.js"
import { APP, appPage, SECRET } from "./support.js"
import { POSTGRES, unreachable } from "../setup/services.js"


let idp: OidcServer
beforeAll(async () => {
  const redirect_uris = ["corp", "corp-oidc", "corp-db"].map((id) => `${APP}/auth/callback/${id}`)
  idp = await startOidcServer({ clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris, grant_types: ["authorization_code"] }] })
})
afterAll(() => idp?.close())

/** An app at APP with a recording logger, and a browser that signs in with `providerId`. */
function appWith(config: Partial<AuthConfig> & Pick<AuthConfig, "providers">) {
  const warnings: string[] = []
  const errors: string[] = []
  const logger = {
    warn: (code: string, metadata?: unknown) => void warnings.push(`${code}: ${(metadata as { message?: string }).message}`),
    error: (error: Error) => void errors.push(`${(error as { code?: string }).code}: ${error.message}`),
  }
  const auth = createAuth({ secret: SECRET, trustHost: true, env: { NODE_ENV: "development" }, logger, ...config })
  const dispatch: typeof fetch = (input, init) => {
    const url = String(input)
    if (!url.startsWith(APP)) return fetch(input, init)
    return new URL(url).pathname.startsWith("/auth") ? auth.handler(new Request(url, init as RequestInit)) : Promise.resolve(appPage(url))
  }
  const browser = new TestBrowser(undefined, dispatch)
  async function signIn(providerId: string): Promise<URL> {
    const { response } = await browser.open(`${APP}/auth/csrf`)
    const { csrfToken } = (await response.json()) as { csrfToken: string }
    const body = new URLSearchParams({ csrfToken }).toString()
    return (await browser.open(`${APP}/auth/signin/${providerId}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body })).url
  }
  return { warnings, errors, signIn }
}

describe('type "oauth" against an OpenID Connect server', () => {
  it('the "Access was denied" sign-in is logged with a hint to write type "oidc"', async () => {
    const app = appWith({ providers: [{ id: "corp", type: "oauth", issuer: idp.issuer, clientId: "app", clientSecret: "app-secret" }] })
    const landed = await app.signIn("corp")
    expect(landed.searchParams.get("error")).toBe("AccessDenied")
    expect(app.errors).toEqual([expect.stringMatching(/^ERR_OAUTH_CALLBACK: Provider "corp" answered the sign-in with the error "access_denied"/)])
    expect(app.warnings).toEqual([expect.stringMatching(/^OAUTH_TYPE_SHOULD_BE_OIDC: provider "corp" is type "oauth", but its issuer is an OpenID Connect server.*write type: "oidc"/)])
  })

  it('with the openid scope, the sign-in works, and the id_token it ignores is warned about once', async () => {
    const provider = { id: "corp", type: "oauth" as const, issuer: idp.issuer, clientId: "app", clientSecret: "app-secret", authorization: { params: { scope: "openid email" } } }
    const app = appWith({ providers: [provider] })
    expect((await app.signIn("corp")).href).toBe(`${APP}/`)
    expect((await app.signIn("corp")).href).toBe(`${APP}/`)
    expect(app.errors).toEqual([])
    expect(app.warnings).toEqual([expect.stringMatching(/^OAUTH_TYPE_SHOULD_BE_OIDC: provider "corp" is type "oauth", but its token response holds an id_token.*write type: "oidc"/)])
  })

  it('written as type "oidc", the same server signs in, with no hint', async () => {
    const app = appWith({ providers: [{ id: "corp-oidc", type: "oidc", issuer: idp.issuer, clientId: "app", clientSecret: "app-secret" }] })
    expect((await app.signIn("corp-oidc")).href).toBe(`${APP}/`)
    expect(app.warnings).toEqual([])
    expect(app.errors).toEqual([])
  })
})

const unavailable = await unreachable("PostgreSQL", POSTGRES)
if (unavailable !== undefined && process.env.CI === "true") throw new Error(`CI needs PostgreSQL: ${unavailable}`)
if (unavailable !== undefined) console.warn(`[diagnostics] the PostgreSQL test is skipped: ${unavailable}`)

describe.skipIf(unavailable !== undefined)("a database without its tables (PostgreSQL)", () => {
  const schema = `lk_dxdiag_${randomBytes(5).toString("hex")}`
  let pool: pg.Pool
  beforeAll(async () => {
    pool = new pg.Pool({ ...POSTGRES, options: `-c search_path=${schema}`, max: 2 })
    await pool.query(`CREATE SCHEMA ${schema}`)
  })
  afterAll(async () => {
    await pool?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await pool?.end()
  })

  it("the failed sign-in is logged with PostgreSQL's code, the missing table and `latchkey schema`, and no value", async () => {
    const app = appWith({ providers: [{ id: "corp-db", type: "oidc", issuer: idp.issuer, clientId: "app", clientSecret: "app-secret" }], adapter: PostgresAdapter(pool) })
    const landed = await app.signIn("corp-db")
    expect(landed.searchParams.get("error")).toBe("Configuration")
    expect(app.errors).toHaveLength(1)
    expect(app.errors[0]).toMatch(/^ERR_ADAPTER: The adapter's call failed \(PostgreSQL 42P01: the table "\w+" is missing: create the tables with `latchkey schema`\)\.$/)
    expect(app.errors[0]).not.toContain("ada@example.com")
  })
})
