// Server actions reach the handler in-process (integrations/run-action.ts): Next's signIn and
// SvelteKit's form actions post to the same routes a browser does, with the browser's own headers,
// so the same limits count them. Calling the server-side API instead of the route is no bypass.
import { describe, expect, it } from "vitest"
import { serverActions } from "../../src/integrations/next/actions.js"
import { runForEvent } from "../../src/integrations/sveltekit/actions.js"
import { APP, attempt, limitedApp } from "./support.js"

/** Next's headers() and cookies() for one action call from `ip`, with a cookie store that keeps what is set. */
function nextIO(ip: string) {
  const jar = new Map<string, string>()
  const headers = new Headers({ host: "app.example.com", origin: APP, "cf-connecting-ip": ip })
  const store = {
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
    getAll: () => [...jar].map(([name, value]) => ({ name, value })),
    set: ({ name, value }: { name: string; value: string }) => void jar.set(name, value),
  }
  return { headers: async () => headers, cookies: async () => store }
}

describe("rate limits: server actions", () => {
  it("Next signIn: wrong passwords through the action stop at the address's limit, answered as RateLimited", async () => {
    const { auth, seen } = limitedApp()
    const results = []
    for (let index = 0; index < 15; index++) {
      const { signIn } = serverActions(auth, { basePath: "/auth" }, nextIO(`198.51.100.${index + 1}`) as never)
      results.push(await signIn("credentials", { email: "ada@example.com", password: "wrong" }))
    }
    expect(seen.authorize).toBe(10)
    expect(results.slice(10).every((result) => !result.ok && result.error === "RateLimited")).toBe(true)
  })

  it("the action and the route share one count", async () => {
    const { auth, seen } = limitedApp()
    for (let index = 0; index < 6; index++) await attempt(auth, { ip: `198.51.100.${index + 1}` })
    for (let index = 0; index < 6; index++) {
      const { signIn } = serverActions(auth, { basePath: "/auth" }, nextIO(`198.51.101.${index + 1}`) as never)
      await signIn("credentials", { email: "ADA@example.com", password: "wrong" })
    }
    expect(seen.authorize).toBe(10)
  })

  it("SvelteKit form actions go through the same limits", async () => {
    const { auth, seen } = limitedApp()
    const outcomes = []
    for (let index = 0; index < 12; index++) {
      const jar = new Map<string, string>()
      const event = {
        request: new Request(`${APP}/login`, { method: "POST", headers: { origin: APP, "cf-connecting-ip": `198.51.100.${index + 1}` } }),
        url: new URL(`${APP}/login`),
        cookies: { getAll: () => [...jar].map(([name, value]) => ({ name, value })), set: (name: string, value: string) => void jar.set(name, value) },
      }
      outcomes.push(await runForEvent(auth, { basePath: "/auth" }, event, "/auth/signin/credentials", { email: "ada@example.com", password: "wrong" }))
    }
    expect(seen.authorize).toBe(10)
    expect(outcomes.at(-1)).toMatchObject({ ok: false, error: "RateLimited" })
  })
})
