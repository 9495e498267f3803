// Issue #29, items 2, 5, 6 and 10: what the developer is told when something is set up wrong,
// driven through createAuth().handler (and auth()) with the logger an app would pass, or the
// console. Each test is the mistake a newcomer makes; it fails when the hint that names the fix
// is missing. Diagnostics meant for development only are checked to stay out of production.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it, vi } from "vitest"
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import { encode } from "../../src/jwt/encode.js"
import Credentials from "../../src/providers/credentials.js"
import GitHub from "../../src/providers/github.js"
import { APP, SECRET } from "./support.js"

const credentials = () => Credentials({ credentials: { username: {} }, authorize: () => ({ id: "u1", name: "Ada" }) })
const github = () => GitHub({ clientId: "gh-id", clientSecret: "gh-secret" })

/** A logger that keeps every line, as `code: message` for warnings and `code: message` for errors. */
function recordingLogger() {
  const warnings: string[] = []
  const errors: string[] = []
  const logger = {
    warn: (code: string, metadata?: unknown) => void warnings.push(`${code}: ${(metadata as { message?: string } | undefined)?.message ?? ""}`),
    error: (error: Error) => void errors.push(`${(error as { code?: string }).code ?? error.name}: ${error.message}`),
  }
  return { logger, warnings, errors }
}

/** createAuth with the recording logger, in development unless `env` says otherwise. */
function appWith(config: Partial<AuthConfig> = {}) {
  const log = recordingLogger()
  const auth = createAuth({ providers: [credentials()], secret: SECRET, trustHost: true, env: { NODE_ENV: "development" }, logger: log.logger, ...config })
  return { ...auth, ...log }
}

afterEach(() => void vi.restoreAllMocks())

describe("log lines", () => {
  it("the console gets a warning as one line, code then message, not an object dump", async () => {
    const lines: unknown[][] = []
    vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void lines.push(args))
    const { handler } = createAuth({ providers: [github()], secret: SECRET, trustHost: true, env: {} })
    await handler(new Request(`${APP}/auth/signin/githb`))
    expect(lines).toEqual([[`[latchkey][warn] ERR_UNKNOWN_PROVIDER: no provider with the id "githb"; did you mean "github"? (configured: github)`]])
  })
})

describe("did you mean", () => {
  it("an unknown provider id in the sign-in and callback routes names the nearest configured one", async () => {
    const { handler, warnings } = appWith({ providers: [github(), credentials()] })
    // A browser's GET lands on the error page (as in Auth.js); a script's POST gets 404 UnknownProvider.
    expect((await handler(new Request(`${APP}/auth/signin/gihub`))).headers.get("location")).toBe(`${APP}/auth/error?error=Configuration`)
    await handler(new Request(`${APP}/auth/callback/GitHub?code=x&state=y`))
    await handler(new Request(`${APP}/auth/signin/twitter`))
    expect(warnings).toEqual([
      'ERR_UNKNOWN_PROVIDER: no provider with the id "gihub"; did you mean "github"? (configured: github, credentials)',
      'ERR_UNKNOWN_PROVIDER: no provider with the id "GitHub"; did you mean "github"? (configured: github, credentials)',
      'ERR_UNKNOWN_PROVIDER: no provider with the id "twitter" (configured: github, credentials)',
    ])
  })

  it("a misspelt createAuth option is warned about with the option it was meant to be", () => {
    const { warnings } = appWith({ sesion: { strategy: "jwt" }, callback: {} } as Partial<AuthConfig>)
    expect(warnings).toEqual([
      'UNKNOWN_OPTION: createAuth has no option "sesion", so it is ignored; did you mean "session"?',
      'UNKNOWN_OPTION: createAuth has no option "callback", so it is ignored; did you mean "callbacks"?',
    ])
  })
})

describe("secrets", () => {
  it("a too-short secret is refused with a typed error that names where it was set", () => {
    const make = (config: Partial<AuthConfig>) => () => createAuth({ providers: [credentials()], env: {}, ...config })
    expect(make({ secret: "dev" })).toThrow(expect.objectContaining({ code: "ERR_WEAK_SECRET", variable: "secret" }))
    expect(make({ env: { AUTH_SECRET: "abc" } })).toThrow(expect.objectContaining({ code: "ERR_WEAK_SECRET", variable: "AUTH_SECRET", message: expect.stringContaining("at least 32") }))
    expect(make({ env: { NEXTAUTH_SECRET: "short-secret" } })).toThrow(expect.objectContaining({ variable: "NEXTAUTH_SECRET" }))
    expect(make({ secret: "x".repeat(32) })).not.toThrow()
  })

  it("an older, short secret still opens old cookies during a rotation, with a warning", () => {
    const { warnings } = appWith({ secret: undefined, env: { AUTH_SECRET_1: SECRET, AUTH_SECRET: "old-and-short" } })
    expect(warnings).toEqual(["WEAK_SECRET: AUTH_SECRET is 13 characters long; it still opens older cookies, but remove it once they have expired"])
  })

  it("a missing client secret is refused at createAuth, naming AUTH_<ID>_SECRET; a public client says so", () => {
    const make = (provider: AuthConfig["providers"][number]) => () => createAuth({ providers: [provider], secret: SECRET, env: {} })
    expect(make(GitHub({ clientId: "gh-id" }))).toThrow(expect.objectContaining({ code: "ERR_INVALID_PROVIDER", field: "clientSecret", message: expect.stringContaining("set AUTH_GITHUB_SECRET") }))
    const azure = { id: "azure-ad-b2c", type: "oidc" as const, issuer: "https://login.example.com", clientId: "x" }
    expect(make(azure)).toThrow(expect.objectContaining({ message: expect.stringContaining("AUTH_AZURE_AD_B2C_SECRET") }))
    expect(make({ ...azure, client: { token_endpoint_auth_method: "none" } })).not.toThrow()
    expect(() => createAuth({ providers: [GitHub({ clientId: "gh-id" })], secret: SECRET, env: { AUTH_GITHUB_SECRET: "from-env" } })).not.toThrow()
  })

  it("a session cookie sealed with another secret signs out with one warning that names AUTH_SECRET", async () => {
    const log = appWith()
    const stale = await encode({ token: { sub: "u1" }, secret: "another-secret-entirely-0123456789abc", salt: "authjs.session-token" })
    for (let i = 0; i < 3; i++) {
      const response = await log.handler(new Request(`${APP}/auth/session`, { headers: { cookie: `authjs.session-token=${stale}` } }))
      expect(await response.json()).toBeNull()
    }
    await log.handler(new Request(`${APP}/auth/session`, { headers: { cookie: "authjs.session-token=garbage" } }))
    // One line for three stale cookies, and none for the garbage one: that is not another secret's.
    expect(log.warnings).toEqual([expect.stringMatching(/^SESSION_SECRET_MISMATCH: signed out because the session cookie was sealed with another secret: did AUTH_SECRET change\?/)])
  })
})

describe("the app's URL", () => {
  it("a missing AUTH_URL without trustHost says what to set, on the page in development and in the log", async () => {
    const dev = appWith({ trustHost: undefined, env: { NODE_ENV: "development" } })
    const response = await dev.handler(new Request(`${APP}/auth/session`))
    expect(response.status).toBe(400)
    const body = await response.text()
    expect(body).toContain("AUTH_URL=http://localhost:3000/auth")
    expect(body).toContain("AUTH_TRUST_HOST=true")
    expect(dev.errors).toEqual([expect.stringMatching(/^ERR_LATCHKEY: Untrusted host: set AUTH_URL to the app's public URL \(such as AUTH_URL=http:\/\/localhost:3000\/auth\), or trustHost: true/)])
    const production = appWith({ trustHost: undefined, env: { NODE_ENV: "production" } })
    expect(await (await production.handler(new Request(`${APP}/auth/session`))).text()).toBe("Untrusted host")
    expect(production.errors[0]).toContain("AUTH_URL=http://localhost:3000/auth")
  })

  it("in development, a request on another origin than AUTH_URL's is warned about once per origin", async () => {
    const { handler, warnings } = appWith({ trustHost: undefined, env: { NODE_ENV: "development", AUTH_URL: "http://localhost:3000/auth" } })
    await handler(new Request("http://localhost:3000/auth/session"))
    expect(warnings).toEqual([])
    await handler(new Request("http://127.0.0.1:3000/auth/session"))
    await handler(new Request("http://127.0.0.1:3000/auth/csrf"))
    await handler(new Request("http://localhost:4000/auth/session"))
    await handler(new Request("https://localhost:3000/auth/session"))
    expect(warnings).toEqual([
      expect.stringMatching(/^ORIGIN_MISMATCH: a request came to http:\/\/127\.0\.0\.1:3000, but AUTH_URL is http:\/\/localhost:3000\/auth: 127\.0\.0\.1 and localhost are different sites to a browser/),
      expect.stringMatching(/^ORIGIN_MISMATCH: a request came to http:\/\/localhost:4000, .*the port differs/),
      expect.stringMatching(/^ORIGIN_MISMATCH: a request came to https:\/\/localhost:3000, .*the scheme differs \(https against http\)/),
    ])
  })

  it("in production, the origin check stays silent", async () => {
    const { handler, warnings } = appWith({ trustHost: undefined, env: { NODE_ENV: "production", AUTH_URL: "http://localhost:3000/auth" } })
    await handler(new Request("http://127.0.0.1:3000/auth/session"))
    // Production has its own start-up warnings (rate limits counted per instance); none is about the origin.
    expect(warnings.filter((line) => line.startsWith("ORIGIN_MISMATCH"))).toEqual([])
  })

  it("an Express or Node req passed to auth() or the handler is a typed error naming latchkey/node", async () => {
    const { auth, handler } = appWith()
    const req = { url: "/dashboard", method: "GET", headers: { host: "localhost:3000", cookie: "" } } as unknown as Request
    await expect(auth(req)).rejects.toMatchObject({ code: "ERR_NOT_A_WEB_REQUEST", message: expect.stringContaining("latchkey/node") })
    await expect(handler(req)).rejects.toMatchObject({ code: "ERR_NOT_A_WEB_REQUEST", message: expect.stringContaining("toWebRequest(req)") })
  })
})

describe("error pages", () => {
  it("in development they say where the cause is logged and link the troubleshooting section of their code", async () => {
    const { handler } = appWith()
    const page = await (await handler(new Request(`${APP}/auth/error?error=Configuration`))).text()
    expect(page).toContain("Sign-in is not available right now")
    expect(page).toContain("[latchkey][error]")
    expect(page).toContain("docs/troubleshooting.md#Configuration")
    const odd = await (await handler(new Request(`${APP}/auth/error?error=%3Cscript%3E`))).text()
    expect(odd).toContain("docs/troubleshooting.md for this page")
    expect(odd).not.toContain("<script>")
  })

  it("in production they keep to the user's message", async () => {
    const { handler } = appWith({ env: { NODE_ENV: "production" } })
    const page = await (await handler(new Request(`${APP}/auth/error?error=Configuration`))).text()
    expect(page).toContain("Sign-in is not available right now")
    expect(page).not.toContain("troubleshooting")
  })
})

describe("discovery", () => {
  let server: Server | undefined
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

  async function listening(handler: Parameters<typeof createServer>[1]): Promise<string> {
    server = createServer(handler)
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  async function signInWith(issuer: string) {
    const app = appWith({ providers: [{ id: "corp", type: "oidc", issuer, clientId: "app", clientSecret: "app-secret" }] })
    const csrf = await app.handler(new Request(`${APP}/auth/csrf`))
    const cookie = (csrf.headers.get("set-cookie") ?? "").split(";")[0]!
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const body = new URLSearchParams({ csrfToken }).toString()
    const response = await app.handler(new Request(`${APP}/auth/signin/corp`, { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body }))
    return { response, errors: app.errors }
  }

  it("a refused connection is logged with the discovery URL and the socket's code", async () => {
    const issuer = await listening(() => {})
    await new Promise<void>((resolve) => server!.close(() => resolve()))
    server = undefined
    const { response, errors } = await signInWith(`${issuer}/realm`)
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("Configuration")
    expect(errors).toEqual([`ERR_OAUTH_PROTOCOL: Provider "corp": discovery at ${issuer}/realm/.well-known/openid-configuration failed: connection refused: is the server running on that port? (ECONNREFUSED).`])
  })

  it("a 404 is logged with the URL and the status", async () => {
    const issuer = await listening((_request, response) => void response.writeHead(404, { "content-type": "text/plain" }).end("not here"))
    const { errors } = await signInWith(issuer)
    expect(errors).toEqual([`ERR_OAUTH_PROTOCOL: Provider "corp": discovery at ${issuer}/.well-known/openid-configuration failed: it answered HTTP 404, not the discovery document.`])
  })
})

describe("database errors", () => {
  it("a driver error that quotes a value is logged by its code and meaning, never its message", async () => {
    const { memoryAdapter } = await import("../../src/adapters/memory-adapter.js")
    const base = memoryAdapter()
    // mysql2's shape for a duplicate email: the message quotes the value it was handed.
    const duplicate = Object.assign(new Error("Duplicate entry 'ada@example.com' for key 'users.email'"), { code: "ER_DUP_ENTRY", errno: 1062, sqlMessage: "Duplicate entry 'ada@example.com'" })
    const adapter = { ...base, getSessionAndUser: () => Promise.reject(duplicate) }
    const { handler, errors } = appWith({ adapter })
    // A session token bound to this browser's CSRF token, as a sign-in would have made it, so the row is looked up.
    const csrf = await handler(new Request(`${APP}/auth/csrf`))
    const csrfCookie = (csrf.headers.get("set-cookie") ?? "").split(";")[0]!
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const { sha256 } = await import("../../src/jwt/digest.js")
    const cookie = `${csrfCookie}; authjs.session-token=${"a".repeat(64)}.${await sha256(csrfToken)}`
    const response = await handler(new Request(`${APP}/auth/session`, { headers: { cookie } }))
    expect(response.status).toBe(200)
    expect(errors).toEqual(["ERR_ADAPTER: The adapter's getSessionAndUser failed (MySQL ER_DUP_ENTRY: a unique column already holds this value)."])
    expect(errors.join("\n")).not.toContain("ada@example.com")
  })
})
