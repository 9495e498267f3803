// Cost bounds in the flow (issue 12, item 5): trailing-slash trimming is linear, an issuer is
// bounded in length wherever it comes from, and a failed discovery is remembered briefly instead of
// being repeated by every sign-in. Providers are served from a local HTTP server that counts requests.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { InvalidProviderError, LatchkeyError, OAuthProtocolError } from "../../src/errors.js"
import { trimTrailingSlashes } from "../../src/lib/trim-slashes.js"
import { startSignIn } from "../../src/oauth/start.js"
import type { OIDCConfig } from "../../src/providers/types.js"
import type { LoggerInstance } from "../../src/types.js"
import { app, csrf, postForm } from "../handler/support.js"

interface Discovery {
  issuer: string
  /** Paths requested, in order. */
  requests: string[]
  close(): Promise<void>
}

const running: Discovery[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()))
})

/** A server whose discovery document is `document(issuer)`, or HTTP 500 when that is undefined. */
async function discoveryServer(document: (issuer: string) => Record<string, unknown> | undefined): Promise<Discovery> {
  const requests: string[] = []
  let issuer = ""
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? "")
    const body = document(issuer)
    if (request.url !== "/.well-known/openid-configuration" || body === undefined) {
      response.writeHead(500, { "content-type": "application/json" })
      response.end(JSON.stringify({ error: "server_error" }))
      return
    }
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify(body))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const discovery: Discovery = {
    issuer,
    requests,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  }
  running.push(discovery)
  return discovery
}

function provider(issuer: string, overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return { id: "bounded", name: "Bounded", type: "oidc", issuer, clientId: "client", clientSecret: "client-secret", ...overrides }
}

function errorLogger(): { logger: LoggerInstance; errors: Error[] } {
  const errors: Error[] = []
  return { logger: { error: (error) => void errors.push(error) }, errors }
}

describe("trimTrailingSlashes", () => {
  it("removes trailing slashes only", () => {
    const cases: [string, string][] = [
      ["", ""],
      ["/", ""],
      ["///", ""],
      ["https://a.example/", "https://a.example"],
      ["https://a.example///", "https://a.example"],
      ["https://a.example/path", "https://a.example/path"],
      ["/auth/", "/auth"],
      ["a//b//", "a//b"],
    ]
    expect(cases.length).toBeGreaterThan(0)
    for (const [input, trimmed] of cases) expect(trimTrailingSlashes(input), JSON.stringify(input)).toBe(trimmed)
  })

  it("handles the pathological input for the old regex: a long run of slashes not at the end", () => {
    const pathological = `${"/".repeat(40_000)}x`
    expect(trimTrailingSlashes(pathological)).toBe(pathological)
    expect(trimTrailingSlashes(`${pathological}${"/".repeat(40_000)}`)).toBe(pathological)
    expect(trimTrailingSlashes("/".repeat(80_000))).toBe("")
  })
})

describe("issuer bounds", () => {
  it("a discovery document whose issuer is 40 000 slashes is refused with a typed error, and the sign-in completes", async () => {
    const server = await discoveryServer((issuer) => ({ issuer: `${issuer}${"/".repeat(40_000)}x`, authorization_endpoint: `${issuer}/auth` }))
    const { logger, errors } = errorLogger()
    // instanceIssuer is the path that trims the document's issuer before comparing it.
    const { browser } = app({ providers: [provider(server.issuer, { quirks: { instanceIssuer: true } })], logger, fetch: (input, init) => fetch(input, init) })
    const { url } = await postForm(browser, "/auth/signin/bounded", { csrfToken: await csrf(browser) })
    expect(url.pathname).toBe("/auth/error")
    expect(errors.length).toBeGreaterThan(0)
    const refused = errors.find((error) => error instanceof OAuthProtocolError)
    expect(refused?.message).toContain("issuer is longer than 2048 characters")
    expect(server.requests).toEqual(["/.well-known/openid-configuration"])
  })

  it("a configured issuer longer than 2048 characters is refused before any request", async () => {
    const server = await discoveryServer(() => undefined)
    const longIssuer = `${server.issuer}/${"a".repeat(2048)}`
    const failure = await startSignIn(provider(longIssuer), { redirectUri: "https://app.example.com/auth/callback/bounded", secret: "s".repeat(32) }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(InvalidProviderError)
    expect((failure as InvalidProviderError).field).toBe("issuer")
    expect(server.requests).toEqual([])
  })
})

describe("a failed discovery is cached briefly", () => {
  it("a second sign-in within the window does not fetch the failing discovery document again", async () => {
    const server = await discoveryServer(() => undefined)
    const { logger, errors } = errorLogger()
    const { browser } = app({ providers: [provider(server.issuer)], logger, fetch: (input, init) => fetch(input, init) })
    for (let attempt = 0; attempt < 3; attempt++) {
      const { url } = await postForm(browser, "/auth/signin/bounded", { csrfToken: await csrf(browser) })
      expect(url.pathname).toBe("/auth/error")
    }
    expect(errors).toHaveLength(3)
    for (const error of errors) expect(error).toBeInstanceOf(LatchkeyError)
    expect(server.requests).toEqual(["/.well-known/openid-configuration"])
  })
})
