// Attacks on the handler: tossed session cookies, a provider failing mid-flow, and secrets or
// tokens leaking into logs. Each test owns its tally and logs, and prints its counts.
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import GitHub from "../../src/providers/github.js"
import type { LoggerInstance } from "../../src/types.js"
import { startGitHubLike, type GitHubLike } from "../servers/github-like.js"
import { APP, app, csrf, postForm, SECRET, session } from "../handler/support.js"

let github: GitHubLike

beforeAll(async () => {
  github = await startGitHubLike({ clientId: "gh", clientSecret: "gh-client-secret-value", user: { id: 9, login: "v", name: "Victim", email: "v@example.com", avatar_url: "https://e/v.png", emails: [] } })
})
afterAll(async () => {
  await github.close()
})

/**
 * One test's own tally and log capture. Nothing is shared between tests, so each passes when run
 * alone under `-t`; the tally is printed when its test finishes, passed or failed.
 */
function attackRun(name: string) {
  const tally = { tried: 0, refused: 0, accepted: 0 }
  const logs: unknown[] = []
  const logger: LoggerInstance = {
    error: (error) => void logs.push(error instanceof Error ? `${error.name} ${error.message} ${String(error.cause ?? "")}` : error),
    warn: (...args) => void logs.push(args),
    debug: (...args) => void logs.push(args),
  }
  onTestFinished(() => console.log(`handler attack "${name}": ${tally.tried} attacks tried, ${tally.refused} refused, ${tally.accepted} accepted`))
  const record = (refused: boolean): void => {
    tally.tried++
    if (refused) tally.refused++
    else tally.accepted++
    expect(refused).toBe(true)
  }
  return { tally, logs, logger, record }
}

const credentials = (name: string) => Credentials({ credentials: { username: {} }, authorize: () => ({ id: name, name }) })

/** The session cookie pairs a signed-in browser holds. */
async function sessionPairs(logger: LoggerInstance, user: string, claimsPadding = 0): Promise<string[]> {
  const { browser } = app({ providers: [credentials(user)], callbacks: { jwt: ({ token }) => ({ ...token, pad: "p".repeat(claimsPadding) }) }, logger })
  await postForm(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username: user })
  return [...browser.cookies(APP)].filter(([name]) => name.startsWith("authjs.session-token")).map(([name, value]) => `${name}=${value}`)
}

describe("cookie tossing", () => {
  it("a session cookie sent twice (one tossed from a sibling domain) is not read", async () => {
    const { logger, record, tally } = attackRun("a session cookie sent twice")
    const { auth } = createAuth({ providers: [credentials("x")], secret: SECRET, trustHost: true, env: {}, logger })
    const [victim] = await sessionPairs(logger, "victim")
    const [attacker] = await sessionPairs(logger, "attacker")
    expect(victim).toMatch(/^authjs\.session-token=/)
    expect(attacker).toMatch(/^authjs\.session-token=/)
    for (const cookie of [`${attacker}; ${victim}`, `${victim}; ${attacker}`]) record((await auth(new Request(`${APP}/`, { headers: { cookie } }))) === null)
    expect(tally).toEqual({ tried: 2, refused: 2, accepted: 0 })
  })

  it("a tossed chunk cannot be spliced into a chunked session, nor a whole cookie laid over one", async () => {
    const { logger, record, tally } = attackRun("a tossed chunk")
    const { auth } = createAuth({ providers: [credentials("x")], secret: SECRET, trustHost: true, env: {}, logger })
    const victim = await sessionPairs(logger, "victim", 6000)
    const attacker = await sessionPairs(logger, "attacker", 6000)
    expect(victim.length).toBeGreaterThan(1)
    expect(attacker.length).toBeGreaterThan(1)
    const spliced = [victim[0]!, attacker[1]!, ...victim.slice(2)].join("; ")
    record((await auth(new Request(`${APP}/`, { headers: { cookie: spliced } }))) === null)
    const extraChunk = [...victim, `authjs.session-token.${victim.length}=${attacker[0]!.split("=")[1]}`].join("; ")
    record((await auth(new Request(`${APP}/`, { headers: { cookie: extraChunk } }))) === null)
    const [attackerWhole] = await sessionPairs(logger, "attacker")
    record((await auth(new Request(`${APP}/`, { headers: { cookie: [attackerWhole, ...victim].join("; ") } }))) === null)
    expect(tally).toEqual({ tried: 3, refused: 3, accepted: 0 })
  })
})

/** A GitHub stand-in that fails in `mode`; it closes when the test that started it finishes. */
async function failingGitHub(mode: "token-500" | "userinfo-reset" | "token-timeout") {
  let tokenAborted!: () => void
  const tokenRequestAborted = new Promise<void>((resolve) => (tokenAborted = resolve))
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname
    if (path === "/login/oauth/authorize") {
      const url = new URL(req.url!, "http://x")
      const target = new URL(url.searchParams.get("redirect_uri")!)
      target.searchParams.set("code", "c0de")
      target.searchParams.set("state", url.searchParams.get("state") ?? "")
      target.searchParams.set("iss", `${base}/login/oauth`)
      res.writeHead(302, { location: target.href }).end()
    } else if (path === "/login/oauth/access_token") {
      if (mode === "token-500") res.writeHead(500).end("upstream error")
      else if (mode === "token-timeout") req.on("close", () => res.writableEnded || tokenAborted()) // never answers
      else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ access_token: "gho_x", token_type: "bearer" }))
    } else req.socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  onTestFinished(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { base, tokenRequestAborted }
}

describe("a provider failing mid-flow", () => {
  it.each(["token-500", "userinfo-reset", "token-timeout"] as const)("%s: a typed error page, no session, no user or account", async (mode) => {
    const { logs, logger, record, tally } = attackRun(mode)
    const { base, tokenRequestAborted } = await failingGitHub(mode)
    const adapter = memoryAdapter()
    const provider = GitHub({ clientId: "gh", clientSecret: "gh-client-secret-value", enterprise: { baseUrl: base } })
    const { browser } = app({ providers: [provider], adapter, logger, timeout: 500 })
    // Every provider request carries the configured bound, not the 10 s default.
    const timeouts = vi.spyOn(AbortSignal, "timeout")
    onTestFinished(() => timeouts.mockRestore())
    const { url } = await postForm(browser, "/auth/signin/github", { csrfToken: await csrf(browser) })
    expect(url.pathname).toBe("/auth/error")
    expect(url.searchParams.get("error")).toBe("OAuthCallback")
    record((await session(browser)) === null && adapter.users.size === 0 && adapter.accounts.size === 0)
    expect(tally).toEqual({ tried: 1, refused: 1, accepted: 0 })
    expect(timeouts.mock.calls.length).toBeGreaterThan(0)
    for (const [milliseconds] of timeouts.mock.calls) expect(milliseconds).toBe(500)
    if (mode === "token-timeout") {
      // The configured 500 ms bound holds without a clock: the failure is the typed timeout, and
      // the provider saw latchkey give up on the token request it never answered.
      expect(logs.some((entry) => typeof entry === "string" && entry.includes("OAuthProtocolError") && entry.includes("the token request timed out"))).toBe(true)
      await tokenRequestAborted
    }
  }, 20_000)
})

describe("logs", () => {
  it("never contain a secret, a client secret, a token or a code", async () => {
    const { logs, logger, tally } = attackRun("logs")
    const provider = GitHub({ clientId: "gh", clientSecret: "wrong-client-secret-value", enterprise: { baseUrl: github.baseUrl } })
    const { browser } = app({ providers: [provider], logger })
    await postForm(browser, "/auth/signin/github", { csrfToken: await csrf(browser) })
    // Flows that fail after the code ("c0de") and an access token ("gho_x") reached latchkey, run
    // here so this test's own logs hold them whether or not it runs alone.
    for (const mode of ["token-500", "userinfo-reset"] as const) {
      const failing = GitHub({ clientId: "gh", clientSecret: "gh-client-secret-value", enterprise: { baseUrl: (await failingGitHub(mode)).base } })
      const run = app({ providers: [failing], logger })
      const { url } = await postForm(run.browser, "/auth/signin/github", { csrfToken: await csrf(run.browser) })
      expect(url.searchParams.get("error")).toBe("OAuthCallback")
    }
    const { auth } = createAuth({ providers: [credentials("x")], secret: "another-secret-entirely-0123456789", trustHost: true, env: {}, logger })
    const pairs = await sessionPairs(logger, "someone")
    expect(pairs.length).toBeGreaterThan(0)
    await auth(new Request(`${APP}/`, { headers: { cookie: pairs.join("; ") } }))
    const text = JSON.stringify(logs)
    expect(logs.length).toBeGreaterThan(0)
    const sessionToken = pairs[0]!.split("=")[1]!
    for (const secret of [SECRET, "another-secret-entirely", "gh-client-secret-value", "wrong-client-secret-value", sessionToken.slice(0, 40), "gho_", "c0de"]) {
      tally.tried++
      if (text.includes(secret)) tally.accepted++
      else tally.refused++
      expect(text, `logs contain ${secret.slice(0, 8)}…`).not.toContain(secret)
    }
    expect(tally).toEqual({ tried: 7, refused: 7, accepted: 0 })
  })
})
