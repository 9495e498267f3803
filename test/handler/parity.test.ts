// Auth.js behaviours a migrating app relies on, driven through createAuth().handler the way such an
// app's forms and fetches reach it.
import { describe, expect, it } from "vitest"
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import { encode } from "../../src/jwt/encode.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import type { EmailConfig } from "../../src/providers/types.js"
import { TestBrowser } from "../servers/browser.js"
import { APP, app, csrf, postForm, SECRET, session } from "./support.js"

describe("credentials as Auth.js forms use them", () => {
  const ada = () => Credentials({ credentials: { username: {} }, authorize: ({ username }) => (username === "ada" ? { id: "1", name: "Ada" } : null) })

  it("POST /callback/credentials (where Auth.js forms post) signs in, CSRF-checked", async () => {
    const { browser } = app({ providers: [ada()] })
    const refused = await postForm(browser, "/auth/callback/credentials", { username: "ada" })
    expect(refused.url.searchParams.get("error")).toBe("MissingCSRF")
    expect(await session(browser)).toBeNull()
    const { url } = await postForm(browser, "/auth/callback/credentials", { csrfToken: await csrf(browser), username: "ada", callbackUrl: "/home" })
    expect(url.href).toBe(`${APP}/home`)
    expect((await session(browser))?.user.name).toBe("Ada")
  })

  it("an authorize result without an id signs in, under a generated id", async () => {
    const seen: unknown[] = []
    const provider = Credentials({ credentials: { username: {} }, authorize: () => ({ name: "No Id", email: "noid@example.com" }) })
    const { browser } = app({ providers: [provider], callbacks: { jwt: ({ token }) => (seen.push(token.sub), token) } })
    await postForm(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username: "x" })
    expect((await session(browser))?.user.email).toBe("noid@example.com")
    expect(seen.length).toBeGreaterThan(0)
    expect(seen[0]).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("Credentials passed uncalled works like every other provider", async () => {
    const { dispatch } = app({ providers: [Credentials] })
    const response = await dispatch(`${APP}/auth/providers`)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ credentials: { id: "credentials", type: "credentials" } })
  })
})

describe("an email signIn callback that refuses stops the email", () => {
  function emailApp(signIn: () => unknown) {
    const sent: string[] = []
    const stored: unknown[] = []
    const adapter = memoryAdapter()
    const recording = { ...adapter, createVerificationToken: (token: Parameters<NonNullable<typeof adapter.createVerificationToken>>[0]) => (stored.push(token), adapter.createVerificationToken!(token)) }
    const provider: EmailConfig = { id: "email", name: "Email", type: "email", from: "a@example.com", sendVerificationRequest: ({ url }) => void sent.push(url) }
    const built = app({ providers: [provider], adapter: recording, callbacks: { signIn: signIn as never }, logger: { error: () => {} } })
    return { ...built, sent, stored }
  }

  it("a relative URL answer redirects there; nothing is stored or sent", async () => {
    const { browser, sent, stored } = emailApp(() => "/blocked")
    const { url } = await postForm(browser, "/auth/signin/email", { csrfToken: await csrf(browser), email: "ada@example.com" })
    expect(url.href).toBe(`${APP}/blocked`)
    expect(sent).toEqual([])
    expect(stored).toEqual([])
  })

  it("a throwing callback is AccessDenied; nothing is stored or sent", async () => {
    const { browser, sent, stored } = emailApp(() => {
      throw new Error("no")
    })
    const { url } = await postForm(browser, "/auth/signin/email", { csrfToken: await csrf(browser), email: "ada@example.com" })
    expect(url.searchParams.get("error")).toBe("AccessDenied")
    expect(sent).toEqual([])
    expect(stored).toEqual([])
  })

  it("true sends the link", async () => {
    const { browser, sent, stored } = emailApp(() => true)
    await postForm(browser, "/auth/signin/email", { csrfToken: await csrf(browser), email: "ada@example.com" })
    expect(sent).toHaveLength(1)
    expect(stored).toHaveLength(1)
  })
})

describe("JSON routes", () => {
  it.each(["/auth/session", "/auth/csrf"])("%s is private and never cached", async (path) => {
    const { dispatch } = app({ providers: [Credentials({ credentials: {}, authorize: () => null })] })
    const response = await dispatch(`${APP}${path}`)
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
    expect(response.headers.get("expires")).toBe("0")
    expect(response.headers.get("pragma")).toBe("no-cache")
  })

  it("a callback to an unknown provider sends the browser to the error page", async () => {
    const { dispatch } = app({ providers: [Credentials({ credentials: {}, authorize: () => null })] })
    const response = await dispatch(`${APP}/auth/callback/nobody?code=x`, { redirect: "manual" })
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("Configuration")
  })
})

describe("an app on plain http outside loopback", () => {
  it.each(["http://192.168.1.20:3000", "http://app:3000", "http://myapp.test"])("%s signs in, with cookies that are not Secure", async (origin) => {
    const auth = createAuth({ providers: [Credentials({ credentials: {}, authorize: () => ({ id: "1", name: "Ada" }) })], secret: SECRET, env: { AUTH_URL: `${origin}/auth` } })
    const browser = new TestBrowser(undefined, (input, init) => auth.handler(new Request(String(input), init as RequestInit)))
    const { response } = await browser.open(`${origin}/auth/csrf`)
    const { csrfToken } = (await response.json()) as { csrfToken: string }
    const signIn = await auth.handler(
      new Request(`${origin}/auth/signin/credentials`, {
        method: "POST",
        headers: { cookie: [...browser.cookies(origin)].map(([name, value]) => `${name}=${value}`).join("; "), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken }).toString(),
      })
    )
    expect(signIn.status).toBe(302)
    const cookies = signIn.headers.getSetCookie()
    const sessionCookie = cookies.find((line) => line.startsWith("authjs.session-token="))
    expect(sessionCookie).toBeDefined()
    expect(sessionCookie).not.toMatch(/;\s*Secure/i)
  })

  it("an AUTH_URL that is not a URL is refused by name", () => {
    for (const value of ["secret", "localhost:3000", "ftp://app.example.com"]) {
      expect(() => createAuth({ providers: [], secret: SECRET, env: { AUTH_URL: value } }), value).toThrow(expect.objectContaining({ code: "ERR_INVALID_OPTION", option: "AUTH_URL" }))
    }
  })
})

describe("configuration that is loud, not silent", () => {
  it("errors knowable at createAuth throw there, typed", async () => {
    const { default: GitHub } = await import("../../src/providers/github.js")
    const { default: Keycloak } = await import("../../src/providers/keycloak.js")
    const cases = [
      () => createAuth({ providers: [GitHub], secret: SECRET, env: {} }),
      () => createAuth({ providers: [Keycloak({ clientId: "k", clientSecret: "s" })], secret: SECRET, env: {} }),
      () => createAuth({ providers: [GitHub({ clientId: "a" }), GitHub({ clientId: "b" })], secret: SECRET, env: {} }),
    ]
    expect(cases).toHaveLength(3)
    for (const make of cases) expect(make).toThrow(expect.objectContaining({ code: "ERR_INVALID_PROVIDER" }))
  })

  it("with no logger, errors reach the console with a [latchkey] prefix and their code", async () => {
    const lines: unknown[][] = []
    const original = console.error
    console.error = (...args: unknown[]) => void lines.push(args)
    try {
      const { handler } = createAuth({ providers: [Credentials({ credentials: {}, authorize: () => null })], secret: SECRET, env: {} })
      await handler(new Request(`${APP}/auth/session`))
    } finally {
      console.error = original
    }
    expect(lines).toHaveLength(1)
    expect(String(lines[0]![0])).toMatch(/^\[latchkey\]\[error\] ERR_LATCHKEY: Untrusted host/)
  })

  it("a logger replaces the console for the levels it gives; debug is off unless asked for", async () => {
    const seen: string[] = []
    const provider = Credentials({ credentials: {}, authorize: () => null })
    const quiet = createAuth({ providers: [provider], secret: SECRET, trustHost: true, env: {}, logger: { debug: (message) => void seen.push(message) } })
    await quiet.handler(new Request(`${APP}/auth/session`, { headers: { cookie: "authjs.session-token=garbage" } }))
    expect(seen).toEqual([])
    const chatty = createAuth({ providers: [provider], secret: SECRET, trustHost: true, env: {}, debug: true, logger: { debug: (message) => void seen.push(message) } })
    await chatty.handler(new Request(`${APP}/auth/session`, { headers: { cookie: "authjs.session-token=garbage" } }))
    expect(seen).toEqual(["session token rejected"])
  })
})

describe("next-auth v4 variables and settings checked up front", () => {
  it("NEXTAUTH_URL and NEXTAUTH_SECRET are read when the AUTH_ names are missing, with one warning each", async () => {
    const warnings: string[] = []
    const { handler } = createAuth({
      providers: [Credentials({ credentials: {}, authorize: () => ({ id: "1", name: "Ada" }) })],
      env: { NEXTAUTH_URL: "https://legacy.example.com/auth", NEXTAUTH_SECRET: SECRET },
      logger: { warn: (code, metadata) => void warnings.push(`${code} ${JSON.stringify(metadata)}`) },
    })
    const response = await handler(new Request("https://legacy.example.com/auth/providers"))
    expect(await response.json()).toMatchObject({ credentials: { callbackUrl: "https://legacy.example.com/auth/callback/credentials" } })
    expect(warnings).toHaveLength(2)
    expect(warnings.join("\n")).toContain("NEXTAUTH_URL is read as AUTH_URL")
    expect(warnings.join("\n")).toContain("NEXTAUTH_SECRET is read as AUTH_SECRET")
  })

  it("session.maxAge of 0 and pages on another origin throw at createAuth", () => {
    const providers = [Credentials({ credentials: {}, authorize: () => null })]
    expect(() => createAuth({ providers, secret: SECRET, env: {}, session: { maxAge: 0 } })).toThrow(expect.objectContaining({ option: "session.maxAge" }))
    expect(() => createAuth({ providers, secret: SECRET, env: { AUTH_URL: "https://app.example.com" }, pages: { signIn: "https://evil.example/login" } })).toThrow(expect.objectContaining({ option: "pages.signIn" }))
  })
})

describe("checked once at createAuth", () => {
  it("a WebAuthn/passkey provider is refused without the ceremony from latchkey/webauthn", async () => {
    const { default: Passkey } = await import("../../src/providers/passkey.js")
    expect(() => createAuth({ providers: [Passkey], secret: SECRET, env: {} })).toThrow(expect.objectContaining({ code: "ERR_INVALID_PROVIDER", field: "webauthn" }))
  })

  it("refuses a client id with no secret (it could never sign in), and warns about an AUTH_URL path that disagrees with basePath", async () => {
    const { default: GitHub } = await import("../../src/providers/github.js")
    const warnings: string[] = []
    const make = (providers: AuthConfig["providers"]) => () =>
      createAuth({ providers, secret: SECRET, basePath: "/api/auth", env: { AUTH_URL: "https://app.example.com/auth" }, logger: { warn: (code) => void warnings.push(code) } })
    expect(make([GitHub({ clientId: "id-only" })])).toThrow(expect.objectContaining({ code: "ERR_INVALID_PROVIDER", field: "clientSecret" }))
    warnings.length = 0
    make([GitHub({ clientId: "id", clientSecret: "secret" })])()
    expect(warnings).toEqual(["BASE_PATH_MISMATCH"])
  })

  it("JSON routes answer a failure as JSON, never the HTML error page", async () => {
    const { handler } = createAuth({
      providers: [Credentials({ credentials: {}, authorize: () => null })],
      secret: SECRET,
      trustHost: true,
      env: {},
      logger: { error: () => {} },
      callbacks: {
        jwt: () => {
          throw new Error("database down")
        },
      },
    })
    const token = await encode({ token: { sub: "1" }, secret: SECRET, salt: "authjs.session-token" })
    const response = await handler(new Request(`${APP}/auth/session`, { headers: { cookie: `authjs.session-token=${token}` } }))
    expect(response.status).toBe(500)
    expect(response.headers.get("content-type")).toContain("application/json")
    expect(await response.json()).toEqual({ error: "Configuration" })
  })
})

describe("Auth.js events, pages and triggers a migrating app uses", () => {
  it("a first sign-in runs the jwt callback with trigger signUp and lands on pages.newUser; the next one is signIn", async () => {
    const triggers: string[] = []
    const adapter = memoryAdapter()
    const links: string[] = []
    const provider: EmailConfig = { id: "email", name: "Email", type: "email", from: "a@example.com", sendVerificationRequest: ({ url }) => void links.push(url) }
    const { browser } = app({ providers: [provider], adapter, session: { strategy: "jwt" }, pages: { newUser: "/welcome" }, callbacks: { jwt: ({ token, trigger }) => (triggers.push(trigger), token) } })
    await postForm(browser, "/auth/signin/email", { csrfToken: await csrf(browser), email: "new@example.com", callbackUrl: "/dash" })
    const first = await browser.open(links[0]!)
    expect(first.url.pathname).toBe("/welcome")
    expect(first.url.searchParams.get("callbackUrl")).toBe(`${APP}/dash`)
    await postForm(browser, "/auth/signin/email", { csrfToken: await csrf(browser), email: "new@example.com", callbackUrl: "/dash" })
    const second = await browser.open(links[1]!)
    expect(second.url.href).toBe(`${APP}/dash`)
    expect(triggers.filter((trigger) => trigger !== "session")).toEqual(["signUp", "signIn"])
  })

  it("following a link sets an existing user's emailVerified and fires updateUser; reading the session fires session", async () => {
    const adapter = memoryAdapter()
    const existing = await adapter.createUser!({ id: "u1", email: "old@example.com", emailVerified: null })
    const updated: unknown[] = []
    const sessions: unknown[] = []
    const links: string[] = []
    const provider: EmailConfig = { id: "email", name: "Email", type: "email", from: "a@example.com", sendVerificationRequest: ({ url }) => void links.push(url) }
    const { browser } = app({ providers: [provider], adapter, events: { updateUser: ({ user }) => void updated.push(user), session: ({ session }) => void sessions.push(session) } })
    await postForm(browser, "/auth/signin/email", { csrfToken: await csrf(browser), email: "old@example.com" })
    await browser.open(links[0]!)
    expect(adapter.users.get(existing.id)?.emailVerified).toBeInstanceOf(Date)
    expect(updated).toHaveLength(1)
    expect(await session(browser)).toMatchObject({ user: { email: "old@example.com" } })
    expect(sessions).toHaveLength(1)
  })
})

describe("a CredentialsSignin thrown by authorize reaches the client with its code", () => {
  async function refusedWith(thrown: unknown): Promise<URL> {
    const provider = Credentials({
      credentials: { username: {} },
      authorize: () => {
        throw thrown
      },
    })
    const { browser } = app({ providers: [provider], logger: { error: () => {} } })
    return (await postForm(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username: "x" })).url
  }

  it("latchkey's CredentialsSignin, subclassed with its own code", async () => {
    const { CredentialsSignin } = await import("../../src/errors.js")
    class InvalidLogin extends CredentialsSignin {
      override code = "invalid_credentials"
    }
    const url = await refusedWith(new InvalidLogin())
    expect(url.pathname).toBe("/auth/signin")
    expect(url.searchParams.get("error")).toBe("CredentialsSignin")
    expect(url.searchParams.get("code")).toBe("invalid_credentials")
  })

  it("Auth.js's own CredentialsSignin, as a migrating app throws it", async () => {
    const { CredentialsSignin } = await import("@auth/core/errors")
    class Locked extends CredentialsSignin {
      override code = "account_locked"
    }
    const url = await refusedWith(new Locked())
    expect(url.searchParams.get("code")).toBe("account_locked")
  })

  it("a code that is not a plain token is sent as credentials; null from authorize is code=credentials", async () => {
    const { CredentialsSignin } = await import("../../src/errors.js")
    const hostile = Object.assign(new CredentialsSignin(), { code: "<script>alert(1)</script>" })
    expect((await refusedWith(hostile)).searchParams.get("code")).toBe("credentials")
    const { browser } = app({ providers: [Credentials({ credentials: {}, authorize: () => null })] })
    const { url } = await postForm(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser) })
    expect(url.searchParams.get("code")).toBe("credentials")
  })

  it("any other error thrown by authorize is a Configuration failure, not a refusal", async () => {
    const url = await refusedWith(new Error("database down"))
    expect(url.searchParams.get("error")).toBe("Configuration")
  })
})

describe("the CSRF cookie", () => {
  it("is written as Auth.js writes it (hex hash), and latchkey 0.1's base64url form is still read", async () => {
    const { dispatch, browser } = app({ providers: [Credentials({ credentials: {}, authorize: () => ({ id: "1", name: "Ada" }) })] })
    await csrf(browser)
    expect(decodeURIComponent(browser.cookies(APP).get("authjs.csrf-token")!)).toMatch(/^[A-Za-z0-9_-]+\|[0-9a-f]{64}$/)
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`legacy-token${SECRET}`)))
    const base64url = btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
    const response = await dispatch(`${APP}/auth/signin/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: `authjs.csrf-token=${encodeURIComponent(`legacy-token|${base64url}`)}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: "legacy-token" }).toString(),
    })
    expect(response.headers.get("location")).toBe(`${APP}/`)
  })
})

describe("the cookies option for the sign-in checks", () => {
  it("renames the PKCE, state and nonce cookies as Auth.js's cookies option does, and the sign-in still completes", async () => {
    const { startOidcServer } = await import("../servers/oidc-provider.js")
    const idp = await startOidcServer({ clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${APP}/auth/callback/corp`], grant_types: ["authorization_code"] }] })
    try {
      const corp = { id: "corp", name: "Corp", type: "oidc" as const, issuer: idp.issuer, clientId: "app", clientSecret: "app-secret", checks: ["pkce" as const, "state" as const, "nonce" as const] }
      const cookies = { pkceCodeVerifier: { name: "my.pkce" }, state: { name: "my.state" }, nonce: { name: "my.nonce" } }
      const { browser, dispatch } = app({ providers: [corp], cookies })
      const token = await csrf(browser)
      const jar = [...browser.cookies(APP)].map(([name, value]) => `${name}=${value}`).join("; ")
      const start = await dispatch(`${APP}/auth/signin/corp`, { method: "POST", redirect: "manual", headers: { cookie: jar, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken: token }).toString() })
      expect(start.headers.getSetCookie().map((line) => line.split("=")[0]).sort()).toEqual(["my.nonce", "my.pkce", "my.state"])
      browser.acceptCookies(APP, start.headers.getSetCookie())
      await browser.open(start.headers.get("location")!)
      expect(await session(browser)).not.toBeNull()
    } finally {
      await idp.close()
    }
  })

  it("refuses attributes for a check cookie, and unknown cookie names", () => {
    const providers = [Credentials({ credentials: {}, authorize: () => null })]
    expect(() => createAuth({ providers, secret: SECRET, env: {}, cookies: { state: { name: "s", options: { sameSite: "none" } } as never } })).toThrow(expect.objectContaining({ option: "cookies.state" }))
    expect(() => createAuth({ providers, secret: SECRET, env: {}, cookies: { bogus: { name: "x" } } as never })).toThrow(expect.objectContaining({ option: "cookies.bogus" }))
  })

  it("refuses a domain or a path for a cookie whose default name over https is __Host-, where browsers would drop it", () => {
    const providers = [Credentials({ credentials: {}, authorize: () => null })]
    const start = (cookies: object) => () => createAuth({ providers, secret: SECRET, env: {}, cookies: cookies as never })
    expect(start({ csrfToken: { options: { domain: "example.com" } } })).toThrow(expect.objectContaining({ option: "cookies.csrfToken", message: expect.stringContaining("__Host-authjs.csrf-token") }))
    expect(start({ csrfToken: { options: { path: "/auth" } } })).toThrow(expect.objectContaining({ option: "cookies.csrfToken" }))
    // The token cookie takes a __Host- session cookie's prefix, and its attributes start from the session's own.
    expect(start({ sessionToken: { name: "__Host-app.session" }, providerTokens: { options: { domain: "example.com" } } })).toThrow(expect.objectContaining({ option: "cookies.providerTokens" }))
    // Named without the prefix, or next to a __Secure- session, a domain is the app's to set.
    expect(start({ csrfToken: { name: "app.csrf", options: { domain: "example.com" } } })).not.toThrow()
    expect(start({ sessionToken: { options: { domain: "example.com" } }, providerTokens: { options: { domain: "example.com" } } })).not.toThrow()
  })
})
