// Review 5 of the abuse protection (rate limits, lockout, captcha hook, client-IP trust), written
// as an attacker would, through createAuth(...).handler and the framework actions. Each test
// asserts the safe behaviour: a failing test is a finding (see review5-rate-limits-notes.md).
import Redis from "ioredis"
import { describe, expect, it } from "vitest"
import { redisRateLimitStore } from "../../src/redis/index.js"
import { redisForSuite } from "../setup/services.js"
import Email from "../../src/providers/email/email.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { APP, attempt, csrfFor, limitedApp, signedIn } from "../rate-limits/support.js"

async function times<R>(count: number, run: (index: number) => Promise<R>): Promise<R[]> {
  const answers: R[] = []
  for (let index = 0; index < count; index++) answers.push(await run(index))
  return answers
}

/** An email provider whose links carry a short code, as Auth.js apps do with generateVerificationToken. */
function shortCodeApp() {
  const mails: string[] = []
  const email = Email({ server: "smtp://unused", from: "auth@example.com", generateVerificationToken: () => "424242", sendVerificationRequest: async ({ url }) => void mails.push(url) })
  return { ...limitedApp({ providers: [email], adapter: memoryAdapter() }), mails }
}

describe("review 5: the email callback answers only as the route it is limited as", () => {
  it("POST /callback/<email> with the link's query is counted as the email callback (or refused): 12 guesses from 12 IPs meet the address's 10", async () => {
    const { auth } = limitedApp()
    const statuses = await times(12, async (index) => {
      const url = `${APP}/auth/callback/email?email=ada%40example.com&token=guess${index}`
      return (await auth.handler(new Request(url, { method: "POST", headers: { "cf-connecting-ip": `198.51.100.${index + 1}` } }))).status
    })
    // Safe: every POST refused outright (405), or the last two refused by the address's limit.
    expect(statuses.every((status) => status === 405) || statuses.filter((status) => status === 429).length === 2).toBe(true)
  })

  it("a short emailed code cannot be guessed by POST from many IPs once the address is locked", async () => {
    const { auth, mails } = shortCodeApp()
    await attempt(auth, { ip: "203.0.113.9", path: "/auth/signin/email", fields: { email: "ada@example.com" } })
    expect(mails).toHaveLength(1)
    // Ten wrong codes by GET lock the address's callback...
    for (let index = 0; index < 10; index++) await auth.handler(new Request(`${APP}/auth/callback/email?email=ada%40example.com&token=${100000 + index}`, { headers: { "cf-connecting-ip": `198.51.100.${index + 1}` } }))
    const locked = await auth.handler(new Request(`${APP}/auth/callback/email?email=ada%40example.com&token=424242`, { headers: { "cf-connecting-ip": "198.51.100.77" } }))
    expect(locked.status).toBe(429)
    // ...so the right code, sent by POST from a fresh IP, must not sign anyone in.
    const post = await auth.handler(new Request(`${APP}/auth/callback/email?email=ada%40example.com&token=424242`, { method: "POST", headers: { "cf-connecting-ip": "198.51.100.78" } }))
    expect(signedIn(post)).toBe(false)
  })
})

describe("review 5: trustedProxy as a function of the request (a runtime that knows the peer)", () => {
  it("the function is asked about the request the runtime handed over, so a POST spray from one peer meets the client limit", async () => {
    // Bun's server.requestIP(request), Deno's handler info: the peer is known for the Request object the server made.
    const peers = new WeakMap<Request, string>()
    const { auth, seen } = limitedApp({ trustedProxy: (request) => peers.get(request) })
    const handler = (request: Request) => (peers.set(request, "203.0.113.66"), auth.handler(request))
    for (let index = 0; index < 40; index++) {
      const { csrfToken, cookie } = await csrfFor({ handler }, {})
      await handler(new Request(`${APP}/auth/callback/credentials`, { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ email: `user${index}@example.com`, password: "wrong", csrfToken }).toString() }))
    }
    // 30 credentials attempts per client per 5 minutes: one peer spraying 40 accounts meets it.
    expect(seen.authorize).toBe(30)
    expect(seen.warnings.map(({ code }) => code)).not.toContain("ERR_NO_CLIENT_IP")
  })
})

describe("review 5: the form the limit reads is the form authorize reads", () => {
  it("duplicate fields (email=decoy&email=ada), form or JSON, never buy a guess at a locked account nor lift its lockout", async () => {
    const { auth, seen } = limitedApp()
    for (let index = 0; index < 10; index++) await attempt(auth, { ip: `198.51.100.${index + 1}` })
    expect(seen.authorize).toBe(10)
    // Ada's right password, her address as the second value: the limit and authorize read the same (first) one.
    for (let index = 0; index < 5; index++) {
      const { csrfToken, cookie } = await csrfFor(auth, { "cf-connecting-ip": `198.51.101.${index + 1}` })
      const body = `email=decoy${index}%40example.com&email=ada%40example.com&password=lovelace&csrfToken=${encodeURIComponent(csrfToken)}`
      const answer = await auth.handler(new Request(`${APP}/auth/callback/credentials`, { method: "POST", headers: { "cf-connecting-ip": `198.51.101.${index + 1}`, cookie, "content-type": "application/x-www-form-urlencoded" }, body }))
      expect(signedIn(answer)).toBe(false)
    }
    const json = await csrfFor(auth, { "cf-connecting-ip": "198.51.102.1" })
    const raw = `{"email":"bob@example.com","email":"ADA@example.com","password":"lovelace","csrfToken":${JSON.stringify(json.csrfToken)}}`
    const viaJson = await auth.handler(new Request(`${APP}/auth/callback/credentials`, { method: "POST", headers: { "cf-connecting-ip": "198.51.102.1", cookie: json.cookie, "content-type": "application/json" }, body: raw }))
    expect(viaJson.status).toBe(429)
    const bob = await attempt(auth, { ip: "198.51.102.2", email: "bob@example.com", password: "babbage" })
    expect(signedIn(bob)).toBe(true)
    expect((await attempt(auth, { ip: "198.51.102.3" })).status).toBe(429)
  })
})

describe("review 5: the captcha hook and the lockout", () => {
  it("attempts refused for a missing captcha do not spend the account's budget: a bot that solves none cannot lock Ada out", async () => {
    const { auth, seen } = limitedApp({ limits: { captcha: { routes: ["credentials"], verify: async (token) => token === "human" } } })
    // A script with no captcha token, from many IPs, aimed at Ada's address.
    for (let index = 0; index < 15; index++) expect((await attempt(auth, { ip: `198.51.100.${index + 1}` })).status).toBe(403)
    expect(seen.authorize).toBe(0)
    // Ada, who solves the captcha and knows her password, signs in.
    expect(signedIn(await attempt(auth, { ip: "203.0.113.20", password: "lovelace", fields: { captchaToken: "human" } }))).toBe(true)
  })
})

describe("review 5: answers and logs", () => {
  it("Retry-After is the longest wait among the keys over their limit", async () => {
    const { auth } = limitedApp({ limits: { routes: { credentials: { client: { limit: 1, windowSeconds: 60 }, identifier: { limit: 1, windowSeconds: 900 } } } } })
    await attempt(auth, { ip: "198.51.100.1" })
    const refused = await attempt(auth, { ip: "198.51.100.1", headers: { "x-auth-return-redirect": "1" } })
    expect(refused.status).toBe(429)
    const wait = Number(refused.headers.get("retry-after"))
    expect(wait).toBeGreaterThan(800)
    expect(wait).toBeLessThanOrEqual(900)
    expect(((await refused.json()) as { retryAfter: number }).retryAfter).toBe(wait)
  })

  it("no log line at any level, and no event, carries the address or the IP through lockouts on every email and credentials route", async () => {
    const lines: string[] = []
    const log = (level: string) => (...args: unknown[]) => void lines.push(`${level} ${args.map((arg) => (arg instanceof Error ? `${arg.message} ${JSON.stringify(arg.cause ?? "")}` : JSON.stringify(arg))).join(" ")}`)
    const { auth, seen } = limitedApp({ debug: true, logger: { debug: log("debug"), warn: log("warn"), error: log("error") } })
    const address = "zelda.secret@example.com"
    const ip = "192.0.2.213"
    for (let index = 0; index < 12; index++) {
      await attempt(auth, { ip, email: address })
      await attempt(auth, { ip, path: "/auth/signin/email", fields: { email: address } })
      await auth.handler(new Request(`${APP}/auth/callback/email?email=${encodeURIComponent(address)}&token=t${index}`, { headers: { "cf-connecting-ip": ip } }))
    }
    expect(seen.events.length).toBeGreaterThan(0)
    expect(lines.some((line) => line.startsWith("warn") && line.includes("ERR_RATE_LIMITED"))).toBe(true)
    const text = `${lines.join("\n")}\n${JSON.stringify(seen.events)}`
    expect(text).not.toMatch(/zelda|192\.0\.2\.213/i)
  })
})

describe("review 5: the Redis store under two instances", () => {
  let redis: Redis | undefined
  const prefix = `latchkey-test:review5:${crypto.randomUUID()}:`
  redisForSuite(prefix, (client) => (redis = client))

  it("one IP spraying 40 addresses over two instances at once: exactly the client's 30 reach authorize", async (test) => {
    if (!redis) return test.skip()
    const store = redisRateLimitStore(redis, { prefix })
    const instances = [limitedApp({ limits: { store } }), limitedApp({ limits: { store } })]
    const headers = { "cf-connecting-ip": "2001:db8:77::1" }
    const tokens = await Promise.all(Array.from({ length: 40 }, (_, index) => csrfFor(instances[index % 2]!.auth, headers)))
    const answers = await Promise.all(
      tokens.map(({ csrfToken, cookie }, index) =>
        instances[index % 2]!.auth.handler(
          new Request(`${APP}/auth/callback/credentials`, {
            method: "POST",
            // Rotating the low 64 bits: still one client.
            headers: { "cf-connecting-ip": `2001:db8:77::${(index + 2).toString(16)}`, cookie, "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ email: `user${index}@example.com`, password: "wrong", csrfToken }).toString(),
          }),
        ),
      ),
    )
    expect(instances[0]!.seen.authorize + instances[1]!.seen.authorize).toBe(30)
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(10)
  })
})
