// Secrets in logs (issue 12, item 9): a failed sign-in logs its error, and loggers that walk the
// cause chain print everything in it. Real sign-ins fail through createAuth's handler in the two
// ways that used to put secrets there (an RFC 9207 iss mismatch, whose cause held the callback with
// the code; an OIDC token response without an id_token, whose cause held the access and refresh
// tokens), and every value the logger received is walked in full for the secrets.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AdapterError, LatchkeyError } from "../../src/errors.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import GitHub from "../../src/providers/github.js"
import type { OIDCConfig } from "../../src/providers/types.js"
import { APP, app, csrf, postForm, SECRET } from "../handler/support.js"
import { TestBrowser } from "../servers/browser.js"
import { startGitHubLike, type GitHubLike } from "../servers/github-like.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { recordingLogger } from "./support.js"

let oidc: OidcServer
let github: GitHubLike

beforeAll(async () => {
  oidc = await startOidcServer({
    clients: [{ client_id: "app", client_secret: "oidc-client-secret", redirect_uris: [`${APP}/auth/callback/demo`], grant_types: ["authorization_code", "refresh_token"] }],
  })
  github = await startGitHubLike({
    clientId: "gh",
    clientSecret: "gh-client-secret",
    // An issuer the app does not expect: the callback's iss names another authorization server.
    iss: "https://evil.example/login/oauth",
    user: { id: 7, login: "octo", name: "Octo Cat", email: "octo@example.com", avatar_url: "https://example.com/o.png", emails: [] },
  })
})
afterAll(async () => {
  await Promise.all([oidc.close(), github.close()])
})

/** Every string reachable from `root`: own properties (enumerable or not, symbols too), iterables, URLs. */
function walk(root: unknown): string[] {
  const found: string[] = []
  const visited = new Set<object>()
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (typeof value === "string") found.push(value)
    else if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") found.push(String(value))
    else if (typeof value === "symbol") found.push(value.toString())
    if ((typeof value !== "object" && typeof value !== "function") || value === null || visited.has(value)) continue
    visited.add(value)
    if (value instanceof URL) found.push(value.href)
    if (ArrayBuffer.isView(value)) found.push(new TextDecoder().decode(value as Uint8Array))
    if (value instanceof Request || value instanceof Response) found.push(value.url)
    // URLSearchParams, Headers, Map and Set hold their entries in internal slots, not properties.
    if (!Array.isArray(value) && Symbol.iterator in value && typeof (value as Iterable<unknown>)[Symbol.iterator] === "function") {
      for (const entry of value as Iterable<unknown>) stack.push(entry)
    }
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key === "string") found.push(key)
      const descriptor = Object.getOwnPropertyDescriptor(value, key)
      if (descriptor === undefined) continue
      if ("value" in descriptor) stack.push(descriptor.value)
      else if (descriptor.get) {
        try {
          stack.push(descriptor.get.call(value))
        } catch {
          // A getter that needs another receiver has nothing to show here.
        }
      }
    }
  }
  return found
}

function expectNoSecrets(logged: unknown[], secrets: string[]): void {
  expect(logged.length).toBeGreaterThan(0)
  const strings = logged.flatMap(walk)
  expect(strings.length).toBeGreaterThan(0)
  expect(secrets.length).toBeGreaterThan(0)
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(4)
    const leaks = strings.filter((value) => value.includes(secret))
    expect(leaks, `a logged value contains ${secret}`).toEqual([])
  }
}

/** The OIDC provider under test, as an app configures it. */
const demo = (): OIDCConfig => ({
  id: "demo",
  name: "Demo",
  type: "oidc",
  issuer: oidc.issuer,
  clientId: "app",
  clientSecret: "oidc-client-secret",
  authorization: { params: { scope: "openid email profile" } },
})

describe("errors given to the logger carry no secrets", () => {
  it("an RFC 9207 iss mismatch does not log the authorization code", async () => {
    const { logger, logged } = recordingLogger()
    const provider = GitHub({ clientId: "gh", clientSecret: "gh-client-secret", enterprise: { baseUrl: github.baseUrl } })
    const auth = app({ providers: [provider], logger })
    const seen: string[] = []
    const browser = new TestBrowser(undefined, (input, init) => {
      seen.push(String(input))
      return auth.dispatch(input, init)
    })
    const { url } = await postForm(browser, "/auth/signin/github", { csrfToken: await csrf(browser) })
    expect(url.searchParams.get("error")).not.toBeNull()
    const callbacks = seen.filter((address) => address.startsWith(`${APP}/auth/callback/github`))
    expect(callbacks.length).toBeGreaterThan(0)
    const code = new URL(callbacks[0]!).searchParams.get("code")!
    expect(code).toMatch(/^[0-9a-f]{20}$/)
    expect(logged.some((value) => value instanceof LatchkeyError && value.code === "ERR_OAUTH_PROTOCOL")).toBe(true)
    expectNoSecrets(logged, [code, "gh-client-secret", SECRET])
  })

  it("an OIDC token response without an id_token does not log the access or refresh token", async () => {
    const { logger, logged } = recordingLogger()
    const issued: { access_token?: string; refresh_token?: string }[] = []
    // The token endpoint's answer, with the id_token removed on the way to the app.
    const withoutIdToken: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (!String(input).endsWith("/token")) return response
      const { id_token: _dropped, ...body } = (await response.json()) as Record<string, string>
      issued.push(body)
      return Response.json(body, { headers: { "cache-control": "no-store" } })
    }
    const provider = demo()
    const { browser } = app({ providers: [provider], logger, fetch: withoutIdToken })
    const { url } = await postForm(browser, "/auth/signin/demo", { csrfToken: await csrf(browser) })
    expect(url.searchParams.get("error")).not.toBeNull()
    expect(issued).toHaveLength(1)
    const { access_token, refresh_token } = issued[0]!
    expect(typeof access_token).toBe("string")
    expect(typeof refresh_token).toBe("string")
    expect(logged.some((value) => value instanceof LatchkeyError)).toBe(true)
    expectNoSecrets(logged, [access_token!, refresh_token!, "oidc-client-secret", SECRET])
  })

  it("an adapter whose linkAccount fails quoting the account does not log its tokens", async () => {
    const { logger, logged } = recordingLogger()
    const handed: Record<string, unknown>[] = []
    const adapter = memoryAdapter()
    // As database clients do: the message and the error's own properties quote the call's values.
    adapter.linkAccount = (account) => {
      handed.push({ ...account })
      throw Object.assign(new Error(`insert into accounts failed: ${JSON.stringify(account)}`), { code: "P2002", meta: { account } })
    }
    const provider = demo()
    const { browser } = app({ providers: [provider], logger, adapter })
    const { url } = await postForm(browser, "/auth/signin/demo", { csrfToken: await csrf(browser) })
    expect(url.searchParams.get("error")).not.toBeNull()
    expect(handed).toHaveLength(1)
    const { access_token, refresh_token, id_token } = handed[0] as Record<string, string>
    expect(logged.some((value) => value instanceof AdapterError && value.method === "linkAccount")).toBe(true)
    expectNoSecrets(logged, [access_token!, refresh_token!, id_token!, "oidc-client-secret", SECRET])
  })
  // The newcomer review: Drizzle wraps the driver's error in its own (DrizzleQueryError), whose
  // message quotes the query's parameters and whose own `code` is absent: the driver's code is on its cause.
  it("an ORM error wrapping the driver's, quoting the query's parameters, is logged without them", async () => {
    const { logger, logged } = recordingLogger()
    const adapter = memoryAdapter()
    adapter.getUser = (id) => {
      const driver = Object.assign(new Error(`invalid input syntax for type uuid: "${id}"`), { code: "22P02", severity: "ERROR" })
      throw Object.assign(new Error(`Failed query: select "id", "email" from "user" where "user"."id" = $1\nparams: ${id}`, { cause: driver }), { name: "DrizzleQueryError", query: 'select "id"', params: [id] })
    }
    const people = (await import("../../src/providers/credentials.js")).default({ credentials: { email: {} }, authorize: ({ email }) => ({ id: `secret-id-${String(email)}`, email: String(email) }) })
    const { browser } = app({ providers: [people], logger, adapter, session: { strategy: "database" } })
    const { url } = await postForm(browser, "/auth/callback/credentials", { csrfToken: await csrf(browser), email: "ada@example.com" })
    expect(url.searchParams.get("error")).not.toBeNull()
    expect(logged.some((value) => value instanceof AdapterError)).toBe(true)
    expectNoSecrets(logged, ["secret-id-ada@example.com", "ada@example.com"])
  })
})
