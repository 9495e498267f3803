// Attacks on the sign-in routes, each through createAuth's handler as a browser or a script would
// send it: password guessing from one IP and from many, the lockout of other users, a request
// with no resolvable client, spoofed forwarding headers, path spellings that route to the same
// provider, and the answers a refused client gets. The limit is what stops `authorize` from
// running: each test counts how often it really ran.
import { describe, expect, it } from "vitest"
import Credentials from "../../src/providers/credentials.js"
import { rateLimits } from "../../src/rate-limits/plug-in.js"
import { APP, attempt, csrfFor, limitedApp, signedIn } from "../rate-limits/support.js"
import { ORIGIN, passkeyApp } from "../webauthn/support.js"

const IDENTIFIER_LIMIT = 10 // the default: 10 per address per 15 minutes
const CLIENT_LIMIT = 30 // the default: 30 credentials attempts per client per 5 minutes

async function times<R extends Response>(count: number, run: (index: number) => Promise<R>): Promise<R[]> {
  const answers: R[] = []
  for (let index = 0; index < count; index++) answers.push(await run(index))
  return answers
}

describe("rate limits: password guessing", () => {
  it("50 wrong passwords for one address from one IP: authorize runs 10 times, the rest are 429 with Retry-After", async () => {
    const { auth, seen } = limitedApp()
    const answers = await times(50, () => attempt(auth, { ip: "203.0.113.5" }))
    expect(seen.authorize).toBe(IDENTIFIER_LIMIT)
    const refused = answers.filter((answer) => answer.status === 429)
    expect(refused).toHaveLength(50 - IDENTIFIER_LIMIT)
    expect(Number(refused[0]!.headers.get("retry-after"))).toBeGreaterThan(0)
  })

  it("the same 50 from 50 IPs: the address's own count stops them at 10", async () => {
    const { auth, seen } = limitedApp()
    await times(50, (index) => attempt(auth, { ip: `198.51.100.${index + 1}` }))
    expect(seen.authorize).toBe(IDENTIFIER_LIMIT)
  })

  it("another user is unaffected: Bob signs in while Ada's address is locked", async () => {
    const { auth } = limitedApp()
    await times(50, (index) => attempt(auth, { ip: `198.51.100.${index + 1}` }))
    expect((await attempt(auth, { ip: "198.51.100.7", email: "ada@example.com", password: "lovelace" })).status).toBe(429)
    expect(signedIn(await attempt(auth, { ip: "198.51.100.7", email: "bob@example.com", password: "babbage" }))).toBe(true)
  })

  it("spellings of one address share its count (case, fullwidth letters, spaces)", async () => {
    const { auth, seen } = limitedApp()
    const spellings = ["ada@example.com", "ADA@example.com", " Ada@Example.com ", "ａｄａ@example.com"]
    await times(20, (index) => attempt(auth, { ip: `198.51.100.${index + 1}`, email: spellings[index % spellings.length] }))
    expect(seen.authorize).toBe(IDENTIFIER_LIMIT)
  })

  it("one IP spraying many addresses stops at the client limit", async () => {
    const { auth, seen } = limitedApp()
    await times(40, (index) => attempt(auth, { ip: "203.0.113.9", email: `user${index}@example.com` }))
    expect(seen.authorize).toBe(CLIENT_LIMIT)
  })

  it("IPv6 clients are one client per /64: rotating the low bits changes nothing", async () => {
    const { auth, seen } = limitedApp()
    await times(40, (index) => attempt(auth, { ip: `2001:db8:1:2::${(index + 1).toString(16)}`, email: `user${index}@example.com` }))
    expect(seen.authorize).toBe(CLIENT_LIMIT)
  })

  it("a sign-in that succeeds clears the address's count; the app can lift a lockout", async () => {
    const { auth, seen } = limitedApp()
    await times(IDENTIFIER_LIMIT - 1, (index) => attempt(auth, { ip: `198.51.100.${index + 1}` }))
    expect(signedIn(await attempt(auth, { ip: "198.51.100.99", password: "lovelace" }))).toBe(true)
    await times(IDENTIFIER_LIMIT, (index) => attempt(auth, { ip: `198.51.101.${index + 1}` }))
    expect(seen.authorize).toBe(2 * IDENTIFIER_LIMIT)
    expect((await attempt(auth, { ip: "198.51.102.1", password: "lovelace" })).status).toBe(429)
    await auth.clearLockout("ADA@example.com")
    expect(signedIn(await attempt(auth, { ip: "198.51.102.1", password: "lovelace" }))).toBe(true)
  })

  it("a right password that the signIn callback turns away (no session) does not clear the count", async () => {
    // The callback sends Ada elsewhere instead of signing her in: a redirect with no `error` in it.
    const { auth, seen } = limitedApp({ callbacks: { signIn: () => "/held-for-review" } })
    await times(IDENTIFIER_LIMIT - 1, (index) => attempt(auth, { ip: `198.51.100.${index + 1}` }))
    const held = await attempt(auth, { ip: "198.51.100.99", password: "lovelace" })
    expect(held.status).toBe(302)
    expect(held.headers.get("location")).toBe(`${APP}/held-for-review`)
    expect(signedIn(held)).toBe(false)
    // Guessing goes on from new IPs: the address's count still stands at its limit.
    const after = await times(5, (index) => attempt(auth, { ip: `198.51.103.${index + 1}` }))
    expect(after.map(({ status }) => status)).toEqual([429, 429, 429, 429, 429])
    expect(seen.authorize).toBe(IDENTIFIER_LIMIT)
  })
})

describe("rate limits: who the client is", () => {
  it("no client IP resolvable: the address is limited alone, others still sign in, and it warns once", async () => {
    const { auth, seen } = limitedApp({ trustedProxy: undefined })
    await times(50, () => attempt(auth, {}))
    expect(seen.authorize).toBe(IDENTIFIER_LIMIT)
    expect(signedIn(await attempt(auth, { email: "bob@example.com", password: "babbage" }))).toBe(true)
    // Many users, one unresolvable client: none is refused for the others' attempts.
    const others = await times(40, (index) => attempt(auth, { email: `user${index}@example.com` }))
    expect(others.every((answer) => answer.status === 302)).toBe(true)
    expect(seen.warnings.filter(({ code }) => code === "ERR_NO_CLIENT_IP")).toHaveLength(1)
  })

  it("a spoofed X-Forwarded-For from an untrusted peer changes nothing (cloudflare reads cf-connecting-ip)", async () => {
    const { auth, seen } = limitedApp()
    await times(40, (index) => attempt(auth, { ip: "203.0.113.9", email: `user${index}@example.com`, headers: { "x-forwarded-for": `10.0.${index}.1`, "x-real-ip": `10.1.${index}.1` } }))
    expect(seen.authorize).toBe(CLIENT_LIMIT)
  })

  it("behind nginx, entries a client writes before the proxy's own are ignored", async () => {
    const { auth, seen } = limitedApp({ trustedProxy: "nginx" })
    await times(40, (index) => attempt(auth, { email: `user${index}@example.com`, headers: { "x-forwarded-for": `10.0.${index}.1, 192.0.2.44` } }))
    expect(seen.authorize).toBe(CLIENT_LIMIT)
  })

  it("without trustedProxy, X-Forwarded-For is not believed at all: rotating it does not reset an address", async () => {
    const { auth, seen } = limitedApp({ trustedProxy: undefined, trustHost: true })
    await times(30, (index) => attempt(auth, { headers: { "x-forwarded-for": `10.0.${index}.1` } }))
    expect(seen.authorize).toBe(IDENTIFIER_LIMIT)
  })
})

describe("rate limits: one proxy setting for host and client", () => {
  it("trustedProxy also trusts the proxy's Host headers; without it or trustHost the host is refused", async () => {
    const csrfOn = (config: Parameters<typeof limitedApp>[0]) => limitedApp({ env: {}, ...config }).auth.handler(new Request("http://internal:3000/auth/csrf", { headers: { host: "app.example.com", "x-forwarded-proto": "https" } }))
    expect((await csrfOn({ trustedProxy: undefined })).status).toBe(400)
    const trusted = await csrfOn({ trustedProxy: "fly" })
    expect(trusted.status).toBe(200)
    expect(trusted.headers.getSetCookie().some((line) => line.startsWith("__Host-authjs.csrf-token="))).toBe(true)
    expect(() => limitedApp({ trustedProxy: "heroku" as never })).toThrow(/trustedProxy/)
    expect(() => limitedApp({ trustedProxy: { header: "x-forwarded-for", hops: 0 } })).toThrow(/trustedProxy/)
  })
})

describe("rate limits: routes and spellings", () => {
  const variants = ["/auth/callback/credentials", "/auth/signin/credentials", "/auth/callback/credentials/", "/auth/signin/%63redentials", "/auth/callback//credentials", "/auth/callback/credentials%2F", "/auth//callback/credentials"]

  it("every path spelling either routes to credentials and counts, or routes nowhere", async () => {
    const { auth, seen } = limitedApp()
    const answers = await times(42, (index) => attempt(auth, { ip: `198.51.100.${index + 1}`, path: variants[index % variants.length] }))
    expect(seen.authorize).toBe(IDENTIFIER_LIMIT)
    // What got past the limit and was not refused by it was not routed to a provider.
    expect(answers.every((answer) => [302, 404, 429].includes(answer.status))).toBe(true)
  })

  it("the captcha hook holds on every spelling: no token, no authorize", async () => {
    const verified: string[] = []
    const { auth, seen } = limitedApp({ limits: { captcha: { routes: ["credentials"], verify: async (token) => (verified.push(token), token === "human") } } })
    for (const [index, path] of variants.entries()) await attempt(auth, { ip: `198.51.100.${index + 1}`, path })
    expect(seen.authorize).toBe(0)
    const refused = await attempt(auth, { ip: "198.51.100.50", fields: { captchaToken: "bot" }, headers: { "x-auth-return-redirect": "1" } })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({ error: "CaptchaFailed" })
    expect(signedIn(await attempt(auth, { ip: "198.51.100.51", password: "lovelace", path: "/auth/signin/%63redentials/", fields: { captchaToken: "human" } }))).toBe(true)
    expect(verified).toEqual(["bot", "human"])
  })

  it("session reads are never limited, and auth() never is", async () => {
    const { auth } = limitedApp({ limits: { routes: { all: { client: { limit: 2, windowSeconds: 60 } } } } })
    const signIn = await attempt(auth, { ip: "203.0.113.5", password: "lovelace" })
    const cookie = `${signIn.sentCookie}; ${signIn.headers.getSetCookie().find((line) => line.startsWith("__Secure-authjs.session-token="))!.split(";")[0]!}`
    for (let index = 0; index < 20; index++) {
      const read = await auth.handler(new Request(`${APP}/auth/session`, { headers: { "cf-connecting-ip": "203.0.113.5", cookie } }))
      expect(read.status).toBe(200)
      expect((await auth.auth(new Request(`${APP}/`, { headers: { cookie } })))?.user?.email).toBe("ada@example.com")
    }
    expect((await auth.handler(new Request(`${APP}/auth/providers`, { headers: { "cf-connecting-ip": "203.0.113.5" } }))).status).toBe(429)
  })

  it("email sign-in: five links per address an hour, however many IPs ask", async () => {
    const { auth, seen } = limitedApp()
    await times(12, (index) => attempt(auth, { ip: `198.51.100.${index + 1}`, path: "/auth/signin/email", fields: { email: "ada@example.com" } }))
    expect(seen.mails).toHaveLength(5)
  })

  it("email callback: one address's links are limited, so a token cannot be scanned for", async () => {
    const { auth } = limitedApp()
    const statuses: number[] = []
    for (let index = 0; index < 12; index++) {
      const url = `${APP}/auth/callback/email?email=ada%40example.com&token=guess${index}`
      statuses.push((await auth.handler(new Request(url, { headers: { "cf-connecting-ip": `198.51.100.${index + 1}` } }))).status)
    }
    expect(statuses.filter((status) => status === 429)).toHaveLength(2)
  })
})

describe("rate limits: answers", () => {
  it("a script gets 429 JSON with RateLimited and retryAfter; a browser gets the error page's message", async () => {
    const { auth } = limitedApp({ limits: { routes: { credentials: { identifier: { limit: 1, windowSeconds: 600 } } } } })
    await attempt(auth, { ip: "198.51.100.1" })
    const script = await attempt(auth, { ip: "198.51.100.2", headers: { "x-auth-return-redirect": "1" } })
    expect(script.status).toBe(429)
    expect(script.headers.get("retry-after")).toMatch(/^\d+$/)
    const body = (await script.json()) as { error: string; retryAfter: number }
    expect(body.error).toBe("RateLimited")
    expect(body.retryAfter).toBe(Number(script.headers.get("retry-after")))
    const page = await attempt(auth, { ip: "198.51.100.3" })
    expect(page.status).toBe(429)
    expect(page.headers.get("content-type")).toMatch(/text\/html/)
    expect(await page.text()).toContain("Too many attempts")
  })

  it("each hit is a coded log line and an event that carry no address and no IP in clear", async () => {
    const { auth, seen } = limitedApp({ limits: { routes: { credentials: { identifier: { limit: 1, windowSeconds: 600 } } } } })
    await times(3, () => attempt(auth, { ip: "203.0.113.77" }))
    const lines = seen.warnings.filter(({ code }) => code === "ERR_RATE_LIMITED")
    expect(lines).toHaveLength(2)
    expect(seen.events).toHaveLength(2)
    const printed = JSON.stringify([lines, seen.events])
    for (const secret of ["ada", "example.com", "203.0.113.77"]) expect(printed).not.toContain(secret)
    expect(seen.events[0]).toMatchObject({ route: "credentials", key: "identifier", retryAfter: expect.any(Number), keyHash: expect.stringMatching(/^[\w-]{12}$/) })
  })

  it("rateLimits: false turns every limit off; outside production no option means off", async () => {
    for (const rateLimits of [false as const, undefined]) {
      const { auth, seen } = limitedApp({ rateLimits })
      await times(15, () => attempt(auth, { ip: "203.0.113.5" }))
      expect(seen.authorize).toBe(15)
    }
    const { auth, seen } = limitedApp({ rateLimits: undefined, env: { AUTH_URL: APP, NODE_ENV: "production" } })
    await times(15, () => attempt(auth, { ip: "203.0.113.5" }))
    expect(seen.authorize).toBe(IDENTIFIER_LIMIT)
    expect(seen.warnings.map(({ code }) => code)).toContain("ERR_RATE_LIMIT_PER_INSTANCE")
  })

  it("a CSRF token alone reads the same from a limited client (GET /csrf counts toward the ceiling only)", async () => {
    const { auth } = limitedApp({ limits: { routes: { all: { client: { limit: 2, windowSeconds: 60 } } } } })
    await csrfFor(auth, { "cf-connecting-ip": "203.0.113.1" })
    await csrfFor(auth, { "cf-connecting-ip": "203.0.113.1" })
    const third = await auth.handler(new Request(`${APP}/auth/csrf`, { headers: { "cf-connecting-ip": "203.0.113.1" } }))
    expect(third.status).toBe(429)
    expect(await third.json()).toMatchObject({ error: "RateLimited" })
  })
})

describe("rate limits: passkeys", () => {
  it("passkey options are limited per client (60 per 5 minutes), answered as JSON to the script", async () => {
    const app = passkeyApp({ trustedProxy: "cloudflare", rateLimits: rateLimits() })
    const statuses: number[] = []
    for (let index = 0; index < 62; index++) {
      const request = new Request(`${ORIGIN}/auth/webauthn-options/passkey?action=authenticate`, { headers: { "cf-connecting-ip": "203.0.113.8" } })
      statuses.push((await app.handler(request)).status)
    }
    expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true)
    const refused = await app.handler(new Request(`${ORIGIN}/auth/webauthn-options/passkey?action=authenticate`, { headers: { "cf-connecting-ip": "203.0.113.8" } }))
    expect(refused.status).toBe(429)
    expect(await refused.json()).toMatchObject({ error: "RateLimited" })
    // Another client is unaffected.
    expect((await app.handler(new Request(`${ORIGIN}/auth/webauthn-options/passkey?action=authenticate`, { headers: { "cf-connecting-ip": "203.0.113.9" } }))).status).toBe(200)
  })
})

describe("rate limits: an address no text encoding can write", () => {
  it("a JSON body whose address holds a lone surrogate is counted like any guess, never a 500", async () => {
    const { auth, seen } = limitedApp()
    const headers = { "cf-connecting-ip": "198.51.100.9" }
    const lone = "ada\ud800@example.com"
    const answers = await times(IDENTIFIER_LIMIT + 2, async () => {
      const { csrfToken, cookie } = await csrfFor(auth, headers)
      return auth.handler(
        new Request(`${APP}/auth/callback/credentials`, {
          method: "POST",
          headers: { ...headers, cookie, "content-type": "application/json" },
          body: JSON.stringify({ email: lone, password: "wrong", csrfToken }),
        }),
      )
    })
    expect(answers.map(({ status }) => status)).not.toContain(500)
    // Its own count stops it, as for any address, and authorize ran only within the limit.
    expect(answers.at(-1)!.status).toBe(429)
    expect(seen.authorize).toBe(IDENTIFIER_LIMIT)
  })
})

describe("rate limits: a store that fails", () => {
  it("a store that cannot answer lets sign-in go on, and logs an error for every attempt", async () => {
    const errors: Error[] = []
    const broken = { consume: async () => Promise.reject(new Error("ECONNREFUSED 127.0.0.1:6379")), clear: async () => {} }
    const { auth } = limitedApp({ limits: { store: broken }, logger: { warn: () => {}, error: (error) => void errors.push(error) } })
    expect(signedIn(await attempt(auth, { ip: "198.51.100.1", password: "lovelace" }))).toBe(true)
    expect(errors.length).toBeGreaterThanOrEqual(2)
    expect(errors[0]!.message).toMatch(/rate-limit store failed/)
  })

  it("a store whose consumeMany answers the wrong number of counts is a failed store: logged, never read as a pass or a refusal", async () => {
    const errors: Error[] = []
    const short = { consume: () => ({ count: 1, resetInMs: 1000 }), consumeMany: () => [{ count: 1, resetInMs: 1000 }], clear: () => {} }
    const { auth } = limitedApp({ limits: { store: short }, logger: { warn: () => {}, error: (error) => void errors.push(error) } })
    expect(signedIn(await attempt(auth, { ip: "198.51.100.1", password: "lovelace" }))).toBe(true)
    expect(errors.some((error) => /rate-limit store failed/.test(error.message) && /1 counts for 3 keys/.test(JSON.stringify((error as { cause?: unknown }).cause)))).toBe(true)
  })

  it("a consumeMany that is not a function is refused when the app starts", () => {
    expect(() => rateLimits({ store: { consume: () => ({ count: 1, resetInMs: 1 }), clear: () => {}, consumeMany: "yes" as never } })).toThrow(/consumeMany/)
  })
})

describe("the account a credentials attempt names comes from the provider's own fields", () => {
  // A provider whose account field is `login`: an attacker adds a decoy `email` field, new on every
  // attempt, so that a limiter reading `email` first would count each guess under another account.
  function loginApp() {
    const seen = { authorize: 0 }
    const provider = Credentials({
      credentials: { login: {}, password: {} },
      authorize: ({ login, password }) => {
        seen.authorize++
        return login === "ada" && password === "lovelace" ? { id: "ada", name: "Ada" } : null
      },
    })
    return { ...limitedApp({ providers: [provider] }), seen }
  }

  it("50 guesses at one login from 50 IPs, each with a different decoy email, stop at the account's limit", async () => {
    const { auth, seen } = loginApp()
    await times(50, (index) => attempt(auth, { ip: `198.51.100.${index + 1}`, email: `decoy${index}@example.com`, fields: { login: "ada" } }))
    expect(seen.authorize).toBe(IDENTIFIER_LIMIT)
  })
})
