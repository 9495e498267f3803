// Guards of the browser client, the shared lib (email addresses, base64url, digests), the Redis
// scripts and the CLI that a mutation probe could delete without any other test failing. Each
// describe drives one guard the way an attacker (or a careless input) would, and names the guard.
import Redis from "ioredis"
import { describe, expect, it, vi } from "vitest"
import { createAuthClient } from "../../src/client/client.js"
import Credentials from "../../src/providers/credentials.js"
import { isCanonicalBase64url } from "../../src/lib/base64url.js"
import { constantTimeEqual } from "../../src/lib/digest.js"
import { normalizeEmailAddress } from "../../src/lib/email-address.js"
import { redisSessionVersions } from "../../src/redis/index.js"
import { redisForSuite } from "../setup/services.js"
import { APP } from "../client/support.js"
import { ORIGIN, secureApp } from "./support.js"

let redis: Redis | undefined
const prefix = `latchkey-test:probe-client-lib:${crypto.randomUUID()}:`
redisForSuite(prefix, (client) => (redis = client))

const BASE64URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

describe("email address: the length bound comes before anything else", () => {
  // Guard: src/lib/email-address.ts:normalizeEmailAddress (raw.length > MAX_EMAIL_LENGTH, checked first)
  it("an address padded past 320 characters with white space is refused, not trimmed back into an account's address", () => {
    const padded = `victim@example.com${" ".repeat(400)}`
    expect(normalizeEmailAddress(padded)).toBeUndefined()
  })

  // Guard: src/lib/email-address.ts:normalizeEmailAddress (the app's normalizeIdentifier never sees an oversized field)
  it("the app's normalizeIdentifier is never handed an oversized field, so its answer cannot launder one", () => {
    const seen: string[] = []
    const normalizeIdentifier = (identifier: string) => (seen.push(identifier), identifier.trim().toLowerCase())
    expect(normalizeEmailAddress(`${"\t".repeat(500)}victim@example.com`, normalizeIdentifier)).toBeUndefined()
    expect(normalizeEmailAddress(`victim@example.com${"\u3000".repeat(400)}`, normalizeIdentifier)).toBeUndefined()
    expect(seen).toEqual([])
  })
})

describe("email address: the default rule folds again after lower-casing", () => {
  // Guard: src/lib/email-address.ts:normalizeEmailAddress (folded.trim().toLowerCase().normalize("NFKC"))
  it.each([
    ["T\u0308@example.com", "\u1e97@example.com"],
    ["H\u0331@example.com", "\u1e96@example.com"],
    ["J\u030c@example.com", "\u01f0@example.com"],
  ])("%j, which reads as %j, is the same account, not a second user who looks like the first", (lookalike, existing) => {
    const address = normalizeEmailAddress(existing)
    expect(address).toBe(existing.normalize("NFKC"))
    expect(normalizeEmailAddress(lookalike)).toBe(address)
  })
})

describe("base64url: a length no encoder writes is not canonical", () => {
  // Guard: src/lib/base64url.ts:isCanonicalBase64url (tail === 1)
  it.each(["A", "AAAAA", "AAAAAAAAA", `${"Q".repeat(43)}AA`])("%j (length 4n+1) is refused, as no bytes encode to it", (text) => {
    expect(text.length % 4).toBe(1)
    expect(isCanonicalBase64url(text)).toBe(false)
  })

  // The same strings without their extra character are canonical: only the impossible length is refused.
  it("the control: each string one character shorter is canonical", () => {
    for (const text of ["", "AAAA", "AAAAAAAA"]) expect(isCanonicalBase64url(text)).toBe(true)
  })
})

describe("constant-time comparison: the lengths must match", () => {
  // Guard: src/lib/digest.ts:constantTimeEqual (a.length !== b.length)
  it("a one-character guess is not equal to a digest that starts with it", () => {
    const digest = "Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg"
    for (const character of BASE64URL_ALPHABET) expect(constantTimeEqual(character, digest)).toBe(false)
    expect(constantTimeEqual(digest, `${digest}extra`)).toBe(false)
    expect(constantTimeEqual(digest, digest)).toBe(true)
  })

  // Guard: src/lib/digest.ts:constantTimeEqual, as adapters/browser-binding.ts:cookieToken uses it on the cookie's hash.
  it("attack: a CSRF cookie the attacker wrote with a one-character hash (64 tries) never passes the double-submit check", async () => {
    const site = secureApp({ providers: [Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: String(username) }) })] })
    const outcomes = new Set<string>()
    for (const character of BASE64URL_ALPHABET) {
      const response = await site.handler(
        new Request(`${ORIGIN}/auth/signout`, {
          method: "POST",
          headers: { cookie: `__Host-authjs.csrf-token=forged-token|${character}`, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ csrfToken: "forged-token", callbackUrl: "/attacker-chosen" }),
        }),
      )
      const location = new URL(response.headers.get("location") ?? "/", ORIGIN)
      outcomes.add(`${response.status} ${location.pathname} ${location.searchParams.get("error")}`)
    }
    expect([...outcomes]).toEqual(["302 /auth/signin MissingCSRF"])
  })
})

describe("Redis session versions: a revocation only ever raises the version", () => {
  // Guard: src/redis/session-versions.ts:BUMP_SCRIPT (math.max(stored version + 1, caller's clock))
  it("attack: an instance whose clock is behind revokes after one whose clock is ahead; the version still rises", async (test) => {
    if (!redis) return test.skip()
    const versions = redisSessionVersions(redis, { prefix: `${prefix}sv:`, cacheMs: 0 })
    // What an instance a day ahead wrote: every token it issued since is at or under this version.
    const ahead = Date.now() + 86_400_000
    await redis.set(`${prefix}sv:user-1`, String(ahead), "EX", 600)
    const raised = await versions.bump("user-1", 60)
    expect(raised).toBeGreaterThan(ahead)
    expect(await versions.get("user-1", true)).toBe(raised)
  })

  // Guard: src/redis/session-versions.ts:BUMP_SCRIPT (the stored version + 1 term)
  it("two revocations in a row answer two different, rising versions", async (test) => {
    if (!redis) return test.skip()
    const versions = redisSessionVersions(redis, { prefix: `${prefix}sv:`, cacheMs: 0 })
    const [first, second] = await Promise.all([versions.bump("user-2", 60), versions.bump("user-2", 60)])
    expect(second).not.toBe(first)
    expect(Math.max(first, second)).toBe(await versions.get("user-2", true))
  })
})

describe("Redis session versions: a read sent before this instance's revocation does not undo it", () => {
  // Guard: src/redis/session-versions.ts:remember (a fresh copy that is higher stays)
  it("attack: a slow GET from before the revocation lands after it; the instance still answers the revoked version", async (test) => {
    if (!redis) return test.skip()
    const real = redis
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    // The GET reaches Redis at once (and reads the version before the revocation); only its answer is slow.
    const slowGets = {
      call: async (name: string, ...args: (string | number)[]) => {
        const reply = real.call(name, ...args)
        if (name === "GET") await gate
        return reply
      },
    }
    const versions = redisSessionVersions(slowGets, { prefix: `${prefix}race:`, cacheMs: 60_000 })
    const before = versions.get("victim", false)
    const revoked = await versions.bump("victim", 60)
    release()
    await before
    // Every read after the revocation, within cacheMs, answers from the copy: it must be the revoked version.
    expect(await versions.get("victim", false)).toBe(revoked)
  })
})

describe("client: only the handler's 200 answer is a result to follow", () => {
  // Guard: src/client/results.ts:redirectResult (status !== 200 is InvalidResponse)
  it.each([403, 404, 500, 502])("a %i JSON answer carrying a url (an error route, a proxy) is not a successful sign-in to navigate to", async (status) => {
    const requests: string[] = []
    // What answers at the base path: the CSRF route works, the sign-in POST meets an error route that answers JSON with a url.
    const upstream: typeof fetch = async (input, init) => {
      const url = new URL(String(input))
      requests.push(`${init?.method ?? "GET"} ${url.pathname}`)
      if (url.pathname === "/auth/csrf") return Response.json({ csrfToken: "token" })
      return Response.json({ url: "https://evil.example/phish" }, { status })
    }
    const client = createAuthClient({ baseUrl: APP, fetch: upstream, broadcast: false, refetchOnWindowFocus: false })
    const result = await client.signIn("credentials", { username: "ada", password: "right", redirect: false })
    expect(result).toEqual({ ok: false, error: "InvalidResponse", code: undefined, url: null, status })
    // Not taken for a sign-in: the session is not read again as after one.
    expect(requests).toEqual(["GET /auth/csrf", "POST /auth/signin/credentials"])
  })
})

describe("client: only an http(s) url is followed", () => {
  // Guard: src/client/results.ts:redirectResult (a url the browser could not load as a page is InvalidResponse). The
  // handler never answers one (src/oauth/start.ts refuses such an authorization endpoint), but `location.assign` of a
  // `javascript:` url would run it in the app's origin: the client does not take the server's word for it either.
  it.each(["javascript:alert(document.cookie)", "java\nscript:alert(1)", " JavaScript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)"])(
    "a 200 answer whose url is %j is refused, never a result to navigate to",
    async (target) => {
      const upstream: typeof fetch = async (input) => {
        if (new URL(String(input)).pathname === "/auth/csrf") return Response.json({ csrfToken: "token" })
        return Response.json({ url: target })
      }
      const client = createAuthClient({ baseUrl: APP, fetch: upstream, broadcast: false, refetchOnWindowFocus: false })
      const result = await client.signIn("corp", { redirect: false })
      expect(result).toEqual({ ok: false, error: "InvalidResponse", code: undefined, url: null, status: 200 })
    }
  )

  // Control: relative, http and https urls are results, as the handler answers them.
  it.each(["https://idp.example/authorize?x=1", "http://localhost:3000/", "/dashboard"])("a 200 answer whose url is %j is followed", async (target) => {
    const upstream: typeof fetch = async (input) => (new URL(String(input)).pathname === "/auth/csrf" ? Response.json({ csrfToken: "token" }) : Response.json({ url: target }))
    const client = createAuthClient({ baseUrl: APP, fetch: upstream, broadcast: false, refetchOnWindowFocus: false })
    expect(await client.signIn("corp", { redirect: false })).toMatchObject({ ok: true, url: target })
  })
})

describe("client: a session is believed only from the handler's 200 answer", () => {
  // Guard: src/client/results.ts:sessionOf (status !== 200 is not a session)
  it.each([401, 403, 500, 503])("a %i answer shaped like a session (an error page, a proxy) does not sign the page in", async (status) => {
    const forged = { user: { name: "Mallory", email: "mallory@example.com" }, expires: "2099-01-01T00:00:00.000Z" }
    const upstream: typeof fetch = async () => Response.json(forged, { status })
    const client = createAuthClient({ baseUrl: APP, fetch: upstream, broadcast: false, refetchOnWindowFocus: false, session: null })
    expect(await client.getSession()).toBeNull()
    expect(client.getState()).toEqual({ data: null, status: "unauthenticated" })
  })
})

describe("client: no state-changing POST leaves without its CSRF token", () => {
  // Guard: src/client/transport.ts:postOnce (a token that could not be read stops the POST)
  it("when the CSRF route fails, sign-in and sign-out send nothing and answer the failure", async () => {
    const requests: string[] = []
    const upstream: typeof fetch = async (input, init) => {
      requests.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname}`)
      return new Response("upstream down", { status: 503 })
    }
    const client = createAuthClient({ baseUrl: APP, fetch: upstream, broadcast: false, refetchOnWindowFocus: false })
    const signedIn = await client.signIn("credentials", { username: "ada", password: "right", redirect: false })
    const signedOut = await client.signOut({ redirect: false })
    expect(signedIn).toMatchObject({ ok: false, error: "InvalidResponse", status: 503 })
    expect(signedOut).toMatchObject({ ok: false, error: "InvalidResponse", status: 503 })
    expect(requests.filter((request) => request.startsWith("POST"))).toEqual([])
  })
})

describe("client: the storage fallback reads only its own channel's key", () => {
  // Guard: src/client/broadcast.ts:hubFor's storage listener (event.key !== name)
  it("another latchkey app's message on the same origin (another base path) makes this client read nothing", async () => {
    const events = new EventTarget()
    const items = new Map<string, string>()
    // A browser without BroadcastChannel: the tabs talk through localStorage and its storage event.
    vi.stubGlobal("BroadcastChannel", undefined)
    vi.stubGlobal("addEventListener", events.addEventListener.bind(events))
    vi.stubGlobal("removeEventListener", events.removeEventListener.bind(events))
    vi.stubGlobal("localStorage", { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) })
    try {
      const reads: string[] = []
      const upstream: typeof fetch = async (input) => (reads.push(new URL(String(input)).pathname), Response.json(null))
      const client = createAuthClient({ baseUrl: APP, basePath: "/storage-probe", fetch: upstream, refetchOnWindowFocus: false, session: null })
      const stop = client.subscribe(() => undefined)
      // What another tab's announce() writes: a fresh value every time.
      const message = () => JSON.stringify({ latchkey: "session", trigger: "signout", at: Date.now(), nonce: Math.random() })
      const storageEvent = (key: string) => events.dispatchEvent(Object.assign(new Event("storage"), { key, newValue: message() }))
      reads.length = 0
      storageEvent(`latchkey:${APP}/admin/storage-probe`)
      storageEvent(`latchkey:${APP}/storage-probe:user`)
      expect(reads).toEqual([])
      // The control: the same message under this client's own key is read.
      storageEvent(`latchkey:${APP}/storage-probe`)
      expect(reads).toEqual(["/storage-probe/session"])
      stop()
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

describe("client: a refusal's error is a stable code, never free text", () => {
  // Guard: src/client/results.ts:redirectResult (CODE.test(error))
  it("an error field that is not a code (markup, a sentence) never reaches result.error, where an app might render it", async () => {
    const upstream: typeof fetch = async (input) => {
      if (new URL(String(input)).pathname === "/auth/csrf") return Response.json({ csrfToken: "token" })
      return Response.json({ error: "<img src=x onerror=alert(1)>", code: "also <b>not</b> a code" }, { status: 401 })
    }
    const client = createAuthClient({ baseUrl: APP, fetch: upstream, broadcast: false, refetchOnWindowFocus: false })
    const result = await client.signIn("credentials", { username: "ada", password: "wrong", redirect: false })
    expect(result).toEqual({ ok: false, error: "InvalidResponse", code: undefined, url: null, status: 401 })
  })
})
