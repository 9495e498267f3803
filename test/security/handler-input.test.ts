// Hostile input to the handler, as the outside review sent it: redirects with characters the URL
// parser strips, hostile Host headers, oversized and malformed requests, tables keyed by user input,
// forged CSRF cookies and hostile email fields. Every request goes through createAuth().handler.
import { describe, expect, it } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import { encode } from "../../src/jwt/encode.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import type { EmailConfig } from "../../src/providers/types.js"
import type { LoggerInstance } from "../../src/types.js"
import { csrfOf, jarOf, ORIGIN, plantFromSibling, post, SECRET, secureApp, sessionOf } from "./support.js"

const EVIL = ["/\t/evil.example", "/\r/evil.example", "/\n/evil.example", "/\\evil.example", "//evil.example", "\t//evil.example", "https://evil.example", "/\t\\evil.example", "java\tscript:alert(1)"]

const user = (name = "ada") => Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: `id-${String(username ?? name)}`, name: String(username ?? name) }) })

function recordingLogger() {
  const errors: unknown[] = []
  const logger: LoggerInstance = { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} }
  return { errors, logger }
}

/** Where a redirect response points, resolved against the app. */
function target(response: Response): URL {
  return new URL(response.headers.get("location")!, ORIGIN)
}

describe("open redirects through tab, CR and LF (review item 3)", () => {
  it("POST /signout with a hostile callbackUrl stays on the origin", async () => {
    expect(EVIL.length).toBeGreaterThan(0)
    const site = secureApp({ providers: [user()] })
    for (const callbackUrl of EVIL) {
      const browser = site.browser()
      const csrfToken = await csrfOf(browser)
      const cookie = Object.entries(jarOf(browser)).map(([name, value]) => `${name}=${value}`).join("; ")
      const response = await site.handler(new Request(`${ORIGIN}/auth/signout`, { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken, callbackUrl }).toString() }))
      expect(response.status, JSON.stringify(callbackUrl)).toBe(302)
      expect(target(response).origin, JSON.stringify(callbackUrl)).toBe(ORIGIN)
    }
  })

  it("a callback-url cookie planted by a sibling is not followed after sign-in", async () => {
    expect(EVIL.length).toBeGreaterThan(0)
    const site = secureApp({ providers: [user()] })
    for (const planted of [...EVIL, "https://evil.example/phish"]) {
      const browser = site.browser()
      plantFromSibling(browser, { "__Secure-latchkey.callback-url": encodeURIComponent(planted) })
      const { url } = await post(browser, "/auth/signin/credentials", { csrfToken: await csrfOf(browser), username: "ada" })
      expect(url.origin, JSON.stringify(planted)).toBe(ORIGIN)
      expect(url.pathname, JSON.stringify(planted)).toBe("/")
    }
  })

  it("redirect and signIn callback answers are held to the origin", async () => {
    expect(EVIL.length).toBeGreaterThan(0)
    for (const answer of EVIL) {
      const viaRedirect = secureApp({ providers: [user()], callbacks: { redirect: () => answer } })
      const first = viaRedirect.browser()
      const { url } = await post(first, "/auth/signin/credentials", { csrfToken: await csrfOf(first), username: "ada" })
      expect(url.origin, JSON.stringify(answer)).toBe(ORIGIN)
      const viaSignIn = secureApp({ providers: [user()], callbacks: { signIn: () => answer } })
      const second = viaSignIn.browser()
      const refused = await post(second, "/auth/signin/credentials", { csrfToken: await csrfOf(second), username: "ada" })
      expect(refused.url.origin, JSON.stringify(answer)).toBe(ORIGIN)
    }
  })

  it("the sign-out page never carries a hostile callbackUrl into its form", async () => {
    const site = secureApp({ providers: [user()] })
    const { response } = await site.browser().open(`${ORIGIN}/auth/signout?callbackUrl=${encodeURIComponent("/\t/evil.example")}`)
    const page = await response.text()
    expect(page).not.toContain("evil.example")
  })
})

describe("pages.signIn gets only a checked callbackUrl (review item 10)", () => {
  it.each(["https://evil.example/", "/\t/evil.example", "//evil.example"])("%j is not forwarded", async (callbackUrl) => {
    const site = secureApp({ providers: [user()], pages: { signIn: "/login" } })
    const response = await site.handler(new Request(`${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`))
    const location = target(response)
    expect(location.pathname).toBe("/login")
    const forwarded = location.searchParams.get("callbackUrl")
    if (forwarded !== null) expect(new URL(forwarded).origin).toBe(ORIGIN)
  })

  it("a same-origin callbackUrl is forwarded", async () => {
    const site = secureApp({ providers: [user()], pages: { signIn: "/login" } })
    const response = await site.handler(new Request(`${ORIGIN}/auth/signin?callbackUrl=%2Fdashboard`))
    expect(target(response).searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`)
  })
})

describe("Host headers (review item 5)", () => {
  const trusting = () => createAuth({ providers: [user()], secret: SECRET, trustHost: true, env: {} })

  it.each([
    ["15 000 slashes in Host", "Host", "/".repeat(15_000)],
    ["15 000 slashes in X-Forwarded-Host", "X-Forwarded-Host", "/".repeat(15_000)],
    ["a path in Host", "Host", "app.example.com/evil"],
    ["a backslash and userinfo", "X-Forwarded-Host", "evil.example\\@app.example.com"],
    ["userinfo", "X-Forwarded-Host", "app.example.com@evil.example"],
    ["a port out of range", "Host", "app.example.com:99999"],
  ])("%s is refused with 400 before any provider is resolved", async (_label, header, value) => {
    const { handler } = trusting()
    const response = await handler(new Request("http://app.example.com/auth/providers", { headers: { [header]: value } }))
    expect(response.status).toBe(400)
  })

  it.each([
    ["app.example.com", "http://app.example.com"],
    ["App.Example.COM:8443", "http://app.example.com:8443"],
    ["[::1]:3000", "http://[::1]:3000"],
    ["192.168.1.20:3000", "http://192.168.1.20:3000"],
  ])("%j is a valid host, and builds the callback URLs of %s", async (host, origin) => {
    const { handler } = trusting()
    const response = await handler(new Request("http://placeholder/auth/providers", { headers: { host } }))
    expect(response.status).toBe(200)
    const providers = Object.values((await response.json()) as Record<string, { callbackUrl: string }>)
    expect(providers).toHaveLength(1)
    expect(providers[0]!.callbackUrl).toBe(`${origin}/auth/callback/credentials`)
  })
})

describe("auth() chooses the cookie exactly as the handler does (review item 8)", () => {
  it("on https, a plain-named session cookie (settable over http or by a sibling) is not read", async () => {
    const site = secureApp({ providers: [user()] })
    const token = await encode({ token: { sub: "attacker", name: "Attacker" }, secret: SECRET, salt: "authjs.session-token" })
    const request = new Request(`${ORIGIN}/`, { headers: { cookie: `authjs.session-token=${token}` } })
    expect(await site.auth(request)).toBeNull()
    const viaRoute = await site.handler(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `authjs.session-token=${token}` } }))
    expect(await viaRoute.json()).toBeNull()
  })

  it("on https, the __Secure- session cookie is read by both", async () => {
    const site = secureApp({ providers: [user()] })
    const browser = site.browser()
    await post(browser, "/auth/signin/credentials", { csrfToken: await csrfOf(browser), username: "ada" })
    const cookie = Object.entries(jarOf(browser)).map(([name, value]) => `${name}=${value}`).join("; ")
    expect((await site.auth(new Request(`${ORIGIN}/page`, { headers: { cookie } })))?.user?.name).toBe("ada")
  })
})

describe("tables keyed by user input (review item 11)", () => {
  it.each(["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"])("?error=%s shows the default message and logs nothing", async (code) => {
    const { errors, logger } = recordingLogger()
    const site = secureApp({ providers: [user()], logger })
    const error = await site.handler(new Request(`${ORIGIN}/auth/error?error=${code}`))
    expect(error.status).toBe(200)
    expect(await error.text()).toContain("Something went wrong while signing in")
    const signin = await site.handler(new Request(`${ORIGIN}/auth/signin?error=${code}`))
    expect(signin.status).toBe(200)
    expect(await signin.text()).toContain("Something went wrong while signing in")
    expect(errors).toEqual([])
  })
})

describe("malformed percent-encoding (review item 12)", () => {
  it.each(["/auth/signin/%E0%A4%A", "/auth/callback/%E0%A4%A", "/auth/signin/%", "/auth/callback/%ZZ"])("%s answers 404", async (path) => {
    const site = secureApp({ providers: [user()] })
    const response = await site.handler(new Request(`${ORIGIN}${path}`))
    expect(response.status).toBe(404)
  })
})

/** A request body that yields `total` bytes on demand and counts what was pulled. */
function countingBody(total: number) {
  const chunk = new Uint8Array(64 * 1024).fill(0x61)
  const pulled = { bytes: 0 }
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= total) return controller.close()
      pulled.bytes += chunk.byteLength
      controller.enqueue(chunk)
    },
  })
  return { stream, pulled }
}

describe("request bodies are bounded (review item 13)", () => {
  it.each(["/auth/signin/credentials", "/auth/signout", "/auth/session", "/auth/callback/credentials"])("a 64 MiB streamed POST to %s is refused with 413 after reading at most the limit", async (path) => {
    const site = secureApp({ providers: [user()] })
    const { stream, pulled } = countingBody(64 * 1024 * 1024)
    const request = new Request(`${ORIGIN}${path}`, { method: "POST", body: stream, duplex: "half", headers: { "content-type": "application/x-www-form-urlencoded" } } as RequestInit)
    const response = await site.handler(request)
    expect(response.status).toBe(413)
    expect(pulled.bytes).toBeLessThanOrEqual(256 * 1024)
  })

  it("a declared Content-Length over the limit is refused without reading the body", async () => {
    const site = secureApp({ providers: [user()] })
    const { stream, pulled } = countingBody(2 * 1024 * 1024)
    const headers = { "content-type": "application/json", "content-length": String(2 * 1024 * 1024) }
    const response = await site.handler(new Request(`${ORIGIN}/auth/session`, { method: "POST", body: stream, duplex: "half", headers } as RequestInit))
    expect(response.status).toBe(413)
    expect(pulled.bytes).toBeLessThanOrEqual(64 * 1024)
  })

  it("an ordinary form still works", async () => {
    const site = secureApp({ providers: [user()] })
    const browser = site.browser()
    await post(browser, "/auth/signin/credentials", { csrfToken: await csrfOf(browser), username: "ada", padding: "x".repeat(8 * 1024) })
    expect((await sessionOf(browser))?.user.name).toBe("ada")
  })
})

describe("CSRF (the suite must catch a broken binding)", () => {
  it("an attacker-made token|junk cookie with a matching form field is refused", async () => {
    const site = secureApp({ providers: [user()] })
    for (const value of ["forged|junk", "forged|", "forged", `forged|${"A".repeat(43)}`]) {
      const response = await site.handler(
        new Request(`${ORIGIN}/auth/signin/credentials`, {
          method: "POST",
          headers: { cookie: `__Host-authjs.csrf-token=${encodeURIComponent(value)}`, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ csrfToken: "forged", username: "ada" }).toString(),
        })
      )
      expect(target(response).searchParams.get("error"), value).toBe("MissingCSRF")
      expect(response.headers.getSetCookie().some((line) => line.includes("session-token")), value).toBe(false)
    }
  })
})

function emailApp(onSend: (to: string) => void, options: { normalizeIdentifier?: (raw: string) => string; onSignIn?: () => void } = {}) {
  const { normalizeIdentifier, onSignIn } = options
  const provider: EmailConfig = { id: "email", name: "Email", type: "email", from: "auth@example.com", sendVerificationRequest: ({ identifier }) => onSend(identifier), ...(normalizeIdentifier ? { normalizeIdentifier } : {}) }
  return secureApp({ providers: [provider], adapter: memoryAdapter(), callbacks: { signIn: () => (onSignIn?.(), true) } })
}

describe("email addresses (review item 2 and the syntax the suite must catch)", () => {
  it.each([
    "a@b@example.com",
    "ada@example.com,eve@evil.example",
    "ada@example.com;eve@evil.example",
    "ada@example.com eve@evil.example",
    "Ada <ada@example.com>",
    '"ada"@example.com',
    "ada@example",
    "ada@.example.com",
    "ada@example..com",
    "ada@example.com.",
    "@example.com",
    "ada@",
    "ada\uff20example.com",
    "ada\ufe6bexample.com",
    `${"a".repeat(310)}@example.com`,
  ])("%j is refused before any callback or sender sees it", async (email) => {
    const sent: string[] = []
    let signInCalls = 0
    const site = emailApp((to) => void sent.push(to), { onSignIn: () => void signInCalls++ })
    const browser = site.browser()
    const { url } = await post(browser, "/auth/signin/email", { csrfToken: await csrfOf(browser), email })
    expect(url.searchParams.get("error")).toBe("Verification")
    expect(sent).toEqual([])
    expect(signInCalls).toBe(0)
  })

  it("a 60 KB field of dots and @ (inside the body limit) never reaches the normaliser, and is refused", async () => {
    const seen: number[] = []
    const site = emailApp(() => {}, { normalizeIdentifier: (raw) => (seen.push(raw.length), raw.toLowerCase()) })
    const browser = site.browser()
    const email = `a@${".".repeat(60 * 1024)}@`
    const { url } = await post(browser, "/auth/signin/email", { csrfToken: await csrfOf(browser), email })
    expect(url.searchParams.get("error")).toBe("Verification")
    expect(seen).toEqual([])
  })

  it("GET /callback/email with a 16k hostile address answers Verification", async () => {
    const site = emailApp(() => {})
    const response = await site.handler(new Request(`${ORIGIN}/auth/callback/email?token=x&email=${encodeURIComponent(`a@${".".repeat(16_000)}`)}`))
    expect(target(response).searchParams.get("error")).toBe("Verification")
  })

  it("a plain address with surrounding space and capitals is accepted as its lower-case form", async () => {
    const sent: string[] = []
    const site = emailApp((to) => void sent.push(to))
    const browser = site.browser()
    await post(browser, "/auth/signin/email", { csrfToken: await csrfOf(browser), email: "  Ada.Lovelace+tag@Example.CO.uk " })
    expect(sent).toEqual(["ada.lovelace+tag@example.co.uk"])
  })
})

describe("smaller things (review item 14)", () => {
  it("HEAD does not consume a magic link; the GET after it signs in", async () => {
    const links: string[] = []
    const provider: EmailConfig = { id: "email", name: "Email", type: "email", from: "auth@example.com", sendVerificationRequest: ({ url }) => void links.push(url) }
    const site = secureApp({ providers: [provider], adapter: memoryAdapter() })
    const browser = site.browser()
    await post(browser, "/auth/signin/email", { csrfToken: await csrfOf(browser), email: "ada@example.com" })
    expect(links).toHaveLength(1)
    const head = await site.handler(new Request(links[0]!, { method: "HEAD" }))
    expect(head.headers.getSetCookie().some((line) => line.includes("session-token"))).toBe(false)
    await browser.open(links[0]!)
    expect((await sessionOf(browser))?.user.email).toBe("ada@example.com")
  })

  it("every page, JSON answer and redirect says nosniff", async () => {
    const site = secureApp({ providers: [user()] })
    const paths = ["/auth/signin", "/auth/error?error=Configuration", "/auth/verify-request", "/auth/signout", "/auth/session", "/auth/csrf", "/auth/providers", "/auth/nowhere", "/auth/callback/credentials"]
    expect(paths.length).toBeGreaterThan(0)
    for (const path of paths) {
      const response = await site.handler(new Request(`${ORIGIN}${path}`))
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff")
    }
  })

  it("credentials sign-in goes to this attempt's callbackUrl, not the previous attempt's", async () => {
    const site = secureApp({ providers: [Credentials({ credentials: { username: {} }, authorize: ({ username }) => (username === "ada" ? { id: "1", name: "ada" } : null) })] })
    const browser = site.browser()
    await post(browser, "/auth/signin/credentials", { csrfToken: await csrfOf(browser), username: "wrong", callbackUrl: "/first" })
    const { url } = await post(browser, "/auth/signin/credentials", { csrfToken: await csrfOf(browser), username: "ada", callbackUrl: "/second" })
    expect(url.href).toBe(`${ORIGIN}/second`)
  })
})
