// Attacks on the sign-in flow, against the real oidc-provider and the GitHub-like server. Each
// must end in a typed error (and, through the handler, in no session). Each test owns its tally,
// asserts it and prints it, so every test passes when run alone under \`-t\`.
import { decodeJwt, SignJWT, UnsecuredJWT } from "jose"
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest"
import { LatchkeyError } from "../../src/errors.js"
import { finishSignIn } from "../../src/oauth/finish.js"
import { startSignIn } from "../../src/oauth/start.js"
import GitHub from "../../src/providers/github.js"
import type { OIDCConfig } from "../../src/providers/types.js"
import { TestBrowser } from "../servers/browser.js"
import { startGitHubLike, type GitHubLike } from "../servers/github-like.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { callbackFor, reachCallback, SECRET } from "../oauth/support.js"

let server: OidcServer
let github: GitHubLike

beforeAll(async () => {
  const redirect_uris = ["victim", "other"].map(callbackFor)
  server = await startOidcServer({
    clients: [
      { client_id: "victim", client_secret: "victim-secret", redirect_uris, grant_types: ["authorization_code"] },
      { client_id: "attacker", client_secret: "attacker-secret", redirect_uris, grant_types: ["authorization_code"] },
    ] as never,
  })
  github = await startGitHubLike({ clientId: "gh", clientSecret: "gh-secret", user: { id: 1, login: "o", name: "O", email: "o@example.com", avatar_url: "https://e/o.png", emails: [] } })
})

afterAll(async () => {
  vi.useRealTimers()
  await Promise.all([server.close(), github.close()])
})

function victim(overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return {
    id: "victim",
    name: "Victim",
    type: "oidc",
    issuer: server.issuer,
    clientId: "victim",
    clientSecret: "victim-secret",
    checks: ["pkce", "state", "nonce"],
    authorization: { params: { scope: "openid email profile" } },
    ...overrides,
  } as OIDCConfig
}

/**
 * One test's attacks. `attack` runs one and records it: it must reject with a LatchkeyError of
 * `code`. `refusedAll` asserts the test's own tally; the tally prints when the test finishes.
 */
function attackRun(test: string) {
  const tally = { tried: 0, rejected: 0, accepted: 0, crashed: 0 }
  const outcomes: string[] = []
  onTestFinished(() => {
    console.log(`oauth attacks "${test}": ${tally.tried} tried, ${tally.rejected} rejected with a typed error, ${tally.accepted} accepted, ${tally.crashed} crashed`)
    console.log(outcomes.map((line) => `  ${line}`).join("\n"))
  })
  async function attack(name: string, code: string | RegExp, run: () => Promise<unknown>): Promise<void> {
    tally.tried++
    const outcome = await run().then(
      () => "accepted",
      (error: unknown) => (error instanceof LatchkeyError ? error.code : "crashed")
    )
    outcomes.push(`${name}: ${outcome}`)
    if (outcome === "accepted") tally.accepted++
    else if (outcome === "crashed") tally.crashed++
    else tally.rejected++
    expect(outcome, name).toMatch(code)
  }
  function refusedAll(tried: number): void {
    expect(tally).toEqual({ tried, rejected: tried, accepted: 0, crashed: 0 })
  }
  return { attack, refusedAll }
}

const finish = (provider: OIDCConfig, request: Request, fetchImplementation?: typeof fetch, extra: Record<string, unknown> = {}) =>
  finishSignIn(provider, request, { redirectUri: callbackFor(provider.id), secret: SECRET, fetch: fetchImplementation, ...extra })

/** A fetch that rewrites the id_token in token responses, re-signed with the provider's real key. */
function reissue(change: (claims: Record<string, unknown>) => Record<string, unknown>, sign?: (claims: Record<string, unknown>) => Promise<string>): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init)
    if (!String(input).endsWith("/token")) return response
    const body = (await response.json()) as { id_token: string }
    const claims = change(decodeJwt(body.id_token) as Record<string, unknown>)
    const idToken = sign ? await sign(claims) : await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "test-signing-key" }).sign(server.signingKey)
    return Response.json({ ...body, id_token: idToken })
  }
}

describe("attacks on the OIDC flow (oidc-provider)", () => {
  it("CSRF and replay: missing, expired, swapped and cross-provider checks, a replayed code", async () => {
    const { attack, refusedAll } = attackRun("CSRF and replay")
    onTestFinished(() => void vi.useRealTimers())
    const provider = victim()
    const base = await reachCallback(provider, "victim")
    const withoutCookie = new Headers(base.callback.headers)
    withoutCookie.set("cookie", withoutCookie.get("cookie")!.split("; ").filter((pair) => !pair.includes("authjs.nonce")).join("; "))
    await attack("missing nonce cookie", "ERR_INVALID_CHECK", () => finish(provider, new Request(base.callback.url, { headers: withoutCookie })))

    const other = await reachCallback(provider, "victim")
    const swapped = new Request(base.callback.url, { headers: { cookie: other.callback.headers.get("cookie")! } })
    await attack("check cookies swapped between two flows", "ERR_INVALID_CHECK", () => finish(provider, swapped))

    const foreign = await reachCallback(victim({ id: "other" }), "other")
    await attack("check cookies minted for another provider", "ERR_INVALID_CHECK", () =>
      finish(provider, new Request(base.callback.url, { headers: { cookie: foreign.callback.headers.get("cookie")! } }))
    )

    const stale = await reachCallback(provider, "victim")
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 16 * 60 * 1000 })
    await attack("check cookies past their 15 minutes", "ERR_INVALID_CHECK", () => finish(provider, stale.callback))
    vi.useRealTimers()

    const fresh = await reachCallback(provider, "victim")
    await finish(provider, fresh.callback.clone())
    await attack("a replayed authorization code", "ERR_OAUTH_TOKEN", () => finish(provider, fresh.callback))
    refusedAll(5)
  })

  it("injection: another client's code", async () => {
    const { attack, refusedAll } = attackRun("injection")
    const provider = victim()
    const mine = await reachCallback(provider, "victim")
    const theirs = await reachCallback(victim({ clientId: "attacker", clientSecret: "attacker-secret" }), "victim")
    const injected = new URL(mine.callback.url)
    injected.searchParams.set("code", new URL(theirs.callback.url).searchParams.get("code")!)
    await attack("code issued to another client", "ERR_OAUTH_TOKEN", () => finish(provider, new Request(injected, { headers: mine.callback.headers })))
    refusedAll(1)
  })

  it("forged or tampered id_tokens", async () => {
    const { attack, refusedAll } = attackRun("forged id_tokens")
    const provider = victim()
    const cases: [string, string, typeof fetch][] = [
      ["alg: none", "ERR_OAUTH_PROTOCOL", reissue((claims) => claims, async (claims) => new UnsecuredJWT(claims).encode())],
      ["HS256 signed with the client secret", "ERR_OAUTH_PROTOCOL", reissue((claims) => claims, (claims) => new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("victim-secret")))],
      ["a wrong audience", "ERR_OAUTH_PROTOCOL", reissue((claims) => ({ ...claims, aud: "attacker" }))],
      ["an expired id_token", "ERR_OAUTH_PROTOCOL", reissue((claims) => ({ ...claims, exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 }))],
      ["a nonce mismatch", "ERR_INVALID_CHECK", reissue((claims) => ({ ...claims, nonce: "attacker-nonce" }))],
      ["another issuer", "ERR_OAUTH_PROTOCOL", reissue((claims) => ({ ...claims, iss: "https://evil.example" }))],
    ]
    for (const [name, code, tamper] of cases) {
      const { callback } = await reachCallback(provider, "victim", { fetch: tamper })
      await attack(name, code, () => finish(provider, callback, tamper))
    }
    refusedAll(6)
  })

  it("a userinfo sub that differs from the id_token sub", async () => {
    const { attack, refusedAll } = attackRun("userinfo sub")
    const provider = victim({ idToken: false })
    const lying: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      return String(input).endsWith("/me") ? Response.json({ ...((await response.json()) as object), sub: "someone-else" }) : response
    }
    const { callback } = await reachCallback(provider, "victim", { fetch: lying })
    await attack("userinfo sub swapped", "ERR_OAUTH_PROTOCOL", () => finish(provider, callback, lying))
    refusedAll(1)
  })

  it("hostile responses: oversized, slow and malformed", async () => {
    const { attack, refusedAll } = attackRun("hostile responses")
    const provider = victim()
    const oversized = (path: string): typeof fetch => async (input, init) =>
      String(input).includes(path) ? new Response(JSON.stringify({ padding: "x".repeat(2 * 1024 * 1024) }), { headers: { "content-type": "application/json" } }) : fetch(input, init)
    const streamedLarge: typeof fetch = async (input, init) => {
      if (!String(input).endsWith("/jwks")) return fetch(input, init)
      const chunk = new Uint8Array(64 * 1024).fill(32)
      let sent = 0
      const body = new ReadableStream({ pull: (controller) => (sent++ < 40 ? controller.enqueue(chunk) : controller.close()) })
      return new Response(body, { headers: { "content-type": "application/json" } })
    }
    const slow: typeof fetch = async (input, init) => {
      if (String(input).endsWith("/token")) await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, 2_000)
        init?.signal?.addEventListener("abort", () => (clearTimeout(timer), reject(init.signal!.reason)))
      })
      return fetch(input, init)
    }
    const malformed: typeof fetch = async (input, init) =>
      String(input).endsWith("/token") ? new Response("{not json", { headers: { "content-type": "application/json" } }) : fetch(input, init)

    const fresh = await reachCallback(provider, "victim")
    // A new fetch has a cold discovery cache, so this document is fetched, and must be refused for its size.
    await attack("an oversized discovery document", "ERR_OAUTH_PROTOCOL", () =>
      finish(provider, fresh.callback, oversized("openid-configuration")).catch((error: Error) => {
        expect(error.message).toContain("larger than 1048576 bytes")
        throw error
      })
    )
    for (const [name, tamper, extra] of [
      ["an oversized token response", oversized("/token"), {}],
      ["a JWKS streamed past the limit", streamedLarge, {}],
      ["a token endpoint slower than the timeout", slow, { timeout: 300 }],
      ["a malformed token response", malformed, {}],
    ] as const) {
      const { callback } = await reachCallback(provider, "victim")
      await attack(name, /ERR_OAUTH_(PROTOCOL|TOKEN)/, () => finish(provider, callback, tamper, extra))
    }
    refusedAll(5)
  })
})

describe("attacks on the OAuth 2.0 flow (GitHub-like server)", () => {
  // GitHub's iss is compared when present but not required (GitHub has rolled it back before), so
  // removing it is not an attack on GitHub; an iss naming another server still is.
  it("IdP mix-up: an iss naming another server, or one that only starts like GitHub's", async () => {
    const { attack, refusedAll } = attackRun("IdP mix-up")
    const provider = GitHub({ clientId: "gh", clientSecret: "gh-secret", enterprise: { baseUrl: github.baseUrl } })
    const redirectUri = callbackFor("github")
    for (const [name, change] of [
      ["iss of another authorization server", (url: URL) => url.searchParams.set("iss", "https://evil.example/login/oauth")],
      ["iss with a suffix on the right one", (url: URL) => url.searchParams.set("iss", `${url.searchParams.get("iss")}.evil.example`)],
    ] as const) {
      const { url, cookies } = await startSignIn(provider, { redirectUri, secret: SECRET })
      const browser = new TestBrowser()
      browser.acceptCookies("https://app.example.com", cookies)
      const { request } = await browser.navigate(url, redirectUri)
      const tampered = new URL(request.url)
      change(tampered)
      await attack(name, "ERR_OAUTH_PROTOCOL", () => finishSignIn(provider, new Request(tampered, { headers: request.headers }), { redirectUri, secret: SECRET }))
    }
    refusedAll(2)
  })
})
