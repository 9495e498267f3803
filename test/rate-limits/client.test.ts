// latchkey/client against a limited handler: a refused sign-in is `{ ok: false, error: "RateLimited",
// retryAfter }`, read from the 429 the handler answers scripts.
import { describe, expect, it } from "vitest"
import { createAuthClient } from "../../src/client/client.js"
import { APP, limitedApp } from "./support.js"

/** A fetch for the client that is one browser: it keeps the cookies the handler sets and sends them back. */
function browserFetch(handler: (request: Request) => Promise<Response>): typeof fetch {
  const jar = new Map<string, string>()
  return async (input, init) => {
    const headers = new Headers(init?.headers)
    headers.set("cf-connecting-ip", "198.51.100.20")
    if (jar.size > 0) headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "))
    const response = await handler(new Request(new URL(String(input), APP), { ...init, headers }))
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";")
      jar.set(pair!.slice(0, pair!.indexOf("=")), pair!.slice(pair!.indexOf("=") + 1))
    }
    return response
  }
}

describe("latchkey/client and rate limits", () => {
  it("a limited sign-in reads as RateLimited with retryAfter", async () => {
    const { auth } = limitedApp({ limits: { routes: { credentials: { identifier: { limit: 2, windowSeconds: 300 } } } } })
    const client = createAuthClient({ baseUrl: APP, broadcast: false, fetch: browserFetch(auth.handler) })
    const results = []
    for (let index = 0; index < 3; index++) results.push(await client.signIn("credentials", { email: "ada@example.com", password: "wrong", redirect: false }))
    expect(results.slice(0, 2).map((result) => result.error)).toEqual(["CredentialsSignin", "CredentialsSignin"])
    expect(results[2]).toMatchObject({ ok: false, error: "RateLimited", status: 429, url: null })
    expect(results[2]!.retryAfter).toBeGreaterThan(250)
    expect(results[2]!.retryAfter).toBeLessThanOrEqual(300)
  })
})
