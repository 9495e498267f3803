// Attacks on the handler: tossed session cookies, a provider failing mid-flow, and secrets or
// tokens leaking into logs. Counts are printed.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import { memoryAdapter } from "../../src/oauth/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import GitHub from "../../src/providers/github.js"
import type { LoggerInstance } from "../../src/types.js"
import { startGitHubLike, type GitHubLike } from "../servers/github-like.js"
import { APP, app, csrf, postForm, SECRET, session } from "../handler/support.js"

const tally = { tried: 0, refused: 0, accepted: 0 }
const logs: unknown[] = []
const capture: LoggerInstance = {
  error: (error) => void logs.push(error instanceof Error ? `${error.name} ${error.message} ${String(error.cause ?? "")}` : error),
  warn: (...args) => void logs.push(args),
  debug: (...args) => void logs.push(args),
}
let github: GitHubLike
const failing: Server[] = []

beforeAll(async () => {
  github = await startGitHubLike({ clientId: "gh", clientSecret: "gh-client-secret-value", user: { id: 9, login: "v", name: "Victim", email: "v@example.com", avatar_url: "https://e/v.png", emails: [] } })
})
afterAll(async () => {
  await github.close()
  await Promise.all(failing.map((server) => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve)))))
  console.log(`handler attack suite: ${tally.tried} attacks tried, ${tally.refused} refused, ${tally.accepted} accepted`)
})

function record(refused: boolean): void {
  tally.tried++
  if (refused) tally.refused++
  else tally.accepted++
  expect(refused).toBe(true)
}

const credentials = (name: string) => Credentials({ credentials: { username: {} }, authorize: () => ({ id: name, name }) })

/** The session cookie pairs a signed-in browser holds. */
async function sessionPairs(user: string, claimsPadding = 0): Promise<string[]> {
  const { browser } = app({ providers: [credentials(user)], callbacks: { jwt: ({ token }) => ({ ...token, pad: "p".repeat(claimsPadding) }) }, logger: capture })
  await postForm(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username: user })
  return [...browser.cookies(APP)].filter(([name]) => name.startsWith("authjs.session-token")).map(([name, value]) => `${name}=${value}`)
}

describe("cookie tossing", () => {
  it("a session cookie sent twice (one tossed from a sibling domain) is not read", async () => {
    const { auth } = createAuth({ providers: [credentials("x")], secret: SECRET, trustHost: true, env: {}, logger: capture })
    const [victim] = await sessionPairs("victim")
    const [attacker] = await sessionPairs("attacker")
    for (const cookie of [`${attacker}; ${victim}`, `${victim}; ${attacker}`]) record((await auth(new Request(`${APP}/`, { headers: { cookie } }))) === null)
  })

  it("a tossed chunk cannot be spliced into a chunked session, nor a whole cookie laid over one", async () => {
    const { auth } = createAuth({ providers: [credentials("x")], secret: SECRET, trustHost: true, env: {}, logger: capture })
    const victim = await sessionPairs("victim", 6000)
    const attacker = await sessionPairs("attacker", 6000)
    expect(victim.length).toBeGreaterThan(1)
    const spliced = [victim[0]!, attacker[1]!, ...victim.slice(2)].join("; ")
    record((await auth(new Request(`${APP}/`, { headers: { cookie: spliced } }))) === null)
    const extraChunk = [...victim, `authjs.session-token.${victim.length}=${attacker[0]!.split("=")[1]}`].join("; ")
    record((await auth(new Request(`${APP}/`, { headers: { cookie: extraChunk } }))) === null)
    const [attackerWhole] = await sessionPairs("attacker")
    record((await auth(new Request(`${APP}/`, { headers: { cookie: [attackerWhole, ...victim].join("; ") } }))) === null)
  })
})

describe("a provider failing mid-flow", () => {
  async function failingGitHub(mode: "token-500" | "userinfo-reset" | "token-timeout") {
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
        else if (mode === "token-timeout") return // never answers
        else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ access_token: "gho_x", token_type: "bearer" }))
      } else req.socket.destroy()
    })
    failing.push(server)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return base
  }

  it.each(["token-500", "userinfo-reset", "token-timeout"] as const)("%s: a typed error page, no session, no user or account", async (mode) => {
    const base = await failingGitHub(mode)
    const adapter = memoryAdapter()
    const provider = GitHub({ clientId: "gh", clientSecret: "gh-client-secret-value", enterprise: { baseUrl: base } })
    const { browser } = app({ providers: [provider], adapter, logger: capture, timeout: 500 })
    const started = Date.now()
    const { url } = await postForm(browser, "/auth/signin/github", { csrfToken: await csrf(browser) })
    expect(url.pathname).toBe("/auth/error")
    expect(url.searchParams.get("error")).toBe("OAuthCallback")
    record((await session(browser)) === null && adapter.users.size === 0 && adapter.accounts.size === 0)
    // The configured 500 ms bound holds: the sign-in fails fast instead of hanging on the provider.
    if (mode === "token-timeout") expect(Date.now() - started).toBeLessThan(5_000)
  }, 20_000)
})

describe("logs", () => {
  it("never contain a secret, a client secret, a token or a code", async () => {
    const provider = GitHub({ clientId: "gh", clientSecret: "wrong-client-secret-value", enterprise: { baseUrl: github.baseUrl } })
    const { browser } = app({ providers: [provider], logger: capture })
    await postForm(browser, "/auth/signin/github", { csrfToken: await csrf(browser) })
    const { auth } = createAuth({ providers: [credentials("x")], secret: "another-secret-entirely-0123456789", trustHost: true, env: {}, logger: capture })
    const pairs = await sessionPairs("someone")
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
  })
})
