// Review 8: the security advisories and security bugs reported against Auth.js / next-auth /
// @auth/core (and its adapters), replayed against latchkey through `createAuth(...).handler` with
// browser-like cookie jars and a real OpenID provider (oidc-provider on 127.0.0.1). Each describe
// names the defence and cites the Auth.js report it is modelled on. Each test owns its app and
// adapter; the IdP servers are per describe, on ephemeral ports.
import { UnstorageAdapter } from "@auth/unstorage-adapter"
import { createStorage } from "unstorage"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Adapter, VerificationToken } from "../../src/adapters/adapter.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { Latchkey } from "../../src/integrations/next/index.js"
import { getToken } from "../../src/jwt/get-token.js"
import type { CredentialsConfig, OIDCConfig } from "../../src/providers/types.js"
import { TestBrowser } from "../servers/browser.js"
import { startOidcServer, type OidcServer, type TestAccount } from "../servers/oidc-provider.js"
import { account, passwordApp, PW, reset, resetLink, signIn } from "./password-support.js"
import { csrfOf, mailbox, jarOf, ORIGIN, post, recordingLogger, SECRET, secureApp, sessionOf } from "./support.js"

const SESSION_COOKIE = "__Secure-authjs.session-token"

/** A real OpenID provider with one client per id in `clientIds`, redirecting to ORIGIN's callbacks. */
function idpWith(accounts: TestAccount[], clientIds: string[]) {
  let server: OidcServer | undefined
  beforeAll(async () => {
    const client = (id: string) => ({ client_id: id, client_secret: `${id}-secret`, redirect_uris: [`${ORIGIN}/auth/callback/${id}`], grant_types: ["authorization_code"] })
    server = await startOidcServer({ accounts, clients: clientIds.map(client) })
  })
  afterAll(() => server?.close())
  const running = () => server ?? expect.fail("the IdP has not started")
  return {
    /** A provider as an app writes one (the docs' shape: id, issuer, client id and secret, scopes). */
    provider: (id: string, extra: Partial<OIDCConfig> = {}): OIDCConfig => ({
      id,
      name: id,
      type: "oidc",
      issuer: running().issuer,
      clientId: id,
      clientSecret: `${id}-secret`,
      authorization: { params: { scope: "openid email profile" } },
      ...extra,
    }),
    signInAs: (sub: string) => running().signInAs(sub),
  }
}

/** The Cookie header a browser would send to ORIGIN. */
function cookieHeader(browser: TestBrowser): string {
  return [...browser.cookies(ORIGIN)].map(([name, value]) => `${name}=${value}`).join("; ")
}

// ---------------------------------------------------------------------------------------------
// 1. allowDangerousEmailAccountLinking and an unverified address.
// Modelled on the account-takeover reports against Auth.js's email linking
// (https://github.com/karakeep-app/karakeep/issues/2921, https://github.com/nextauthjs/next-auth/pull/5513):
// linking by address is safe only when the provider proved the address. latchkey refuses
// `email_verified: false`; Apple (and Cognito's userinfo) send the claim as the *string* "false",
// which latchkey's own AppleProfile type documents.
// ---------------------------------------------------------------------------------------------
describe("allowDangerousEmailAccountLinking: an address the provider says is unverified never joins an existing user", () => {
  const ADA = { sub: "ada-sub", email: "ada@example.com", name: "Ada" }
  /** Eve typed Ada's address at the partner IdP; it says so as Apple does, in a string. */
  const EVE_STRING = { sub: "eve-string", email: "ada@example.com", name: "Eve", email_verified: "false" as unknown as boolean }
  const EVE_BOOLEAN = { sub: "eve-boolean", email: "ada@example.com", name: "Eve", email_verified: false }
  const idp = idpWith([ADA, EVE_STRING, EVE_BOOLEAN], ["corp", "partner"])

  async function signInWith(site: ReturnType<typeof secureApp>, providerId: string, sub: string) {
    const browser = site.browser()
    idp.signInAs(sub)
    const { url } = await post(browser, `/auth/signin/${providerId}`, { csrfToken: await csrfOf(browser) })
    return { url, session: await sessionOf(browser) }
  }

  it('control: email_verified: false (a boolean) is refused with OAuthAccountNotLinked', async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [idp.provider("corp"), idp.provider("partner", { allowDangerousEmailAccountLinking: true })], adapter })
    expect((await signInWith(site, "corp", ADA.sub)).session?.user.email).toBe(ADA.email)
    const eve = await signInWith(site, "partner", EVE_BOOLEAN.sub)
    expect(eve.url.searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect(eve.session).toBeNull()
  })

  it('email_verified: "false" (a string, as Apple sends it) is refused too: Eve does not get Ada\'s account', async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [idp.provider("corp"), idp.provider("partner", { allowDangerousEmailAccountLinking: true })], adapter })
    const ada = await signInWith(site, "corp", ADA.sub)
    expect(ada.session?.user.email).toBe(ADA.email)
    const eve = await signInWith(site, "partner", EVE_STRING.sub)
    // Safe behaviour: refused as the boolean is, and no partner account joins Ada's user.
    expect(eve.session, "Eve, who only typed Ada's address at the partner IdP, holds a session").toBeNull()
    expect(eve.url.searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect([...adapter.accounts.values()].map((account) => account.provider)).toEqual(["corp"])
  })
})

// ---------------------------------------------------------------------------------------------
// 2. A magic link checked by its address only.
// Modelled on CVE-2022-39263 / GHSA-4rxr-27mm-mxq9 ("Upstash Adapter missing token verification"):
// the adapter's useVerificationToken looked the row up by identifier alone, so anyone who knew a
// victim's address signed in as the victim with any token while a link was outstanding. latchkey
// re-checks the row's identifier (collations) but not its token; magic links and password links both.
// ---------------------------------------------------------------------------------------------
describe("magic links: a row the adapter hands back is used only when it is the link's own token", () => {
  /** The Upstash adapter before 3.0.2, as its code was: one verification row per identifier, found by identifier alone. */
  function identifierKeyedTokens(): Adapter {
    const base = memoryAdapter()
    const rows = new Map<string, VerificationToken>()
    return {
      ...base,
      createVerificationToken: (row: VerificationToken) => (rows.set(row.identifier, row), row),
      useVerificationToken: ({ identifier }: { identifier: string; token: string }) => {
        const row = rows.get(identifier) ?? null
        rows.delete(identifier)
        return row
      },
    }
  }

  async function forgeLinkAgainst(adapter: Adapter) {
    const { sent, provider } = mailbox()
    const site = secureApp({ providers: [provider], adapter })
    // Mallory asks for a link to Ada's address (anyone can), which goes to Ada's inbox...
    const mallory = site.browser()
    await post(mallory, "/auth/signin/email", { csrfToken: await csrfOf(mallory), email: "ada@example.com" })
    expect(sent).toHaveLength(1)
    // ...and follows a link of her own making, with Ada's address and a token she invented.
    const forged = new URL(sent[0]!.url)
    forged.searchParams.set("token", "mallory-made-this-up")
    const { url } = await mallory.open(forged)
    return { url, session: await sessionOf(mallory) }
  }

  it("control: latchkey's memory adapter refuses the invented token", async () => {
    const { url, session } = await forgeLinkAgainst(memoryAdapter())
    expect(url.searchParams.get("error")).toBe("Verification")
    expect(session).toBeNull()
  })

  it("control: Auth.js's unstorage adapter (Upstash's successor) refuses the invented token", async () => {
    const storage = createStorage()
    const { url, session } = await forgeLinkAgainst(UnstorageAdapter(storage) as unknown as Adapter)
    expect(url.searchParams.get("error")).toBe("Verification")
    expect(session).toBeNull()
  })

  /** Mallory resets Ada's password with a token she invented around Ada's user id; answers whether her password then opens Ada's account. */
  async function forgeResetAgainst(adapter: Adapter) {
    const app = passwordApp({ strategy: "jwt", adapter })
    await account(app, "ada@example.com", PW.ada)
    // Ada's user id is all Mallory needs besides her address (ids show up in profile URLs, APIs, ...).
    const adaId = (await adapter.getUserByEmail!("ada@example.com"))!.id
    // Mallory asks for a reset of Ada's account (anyone can): the link goes to Ada's inbox.
    const mallory = app.browser()
    const link = await resetLink(app, "ada@example.com", mallory)
    const invented = `${"A".repeat(43)}.${Buffer.from(adaId).toString("base64url")}`
    expect(invented).not.toBe(link.searchParams.get("token"))
    await reset(mallory, link, "mallory's new password for ada", { token: invented, email: "ada@example.com" })
    return {
      malloryIn: (await signIn(app, "ada@example.com", "mallory's new password for ada")).response.status === 200,
      adaIn: (await signIn(app, "ada@example.com", PW.ada)).response.status === 200,
    }
  }

  it("control: with latchkey's memory adapter, a password reset with an invented token sets nothing", async () => {
    expect(await forgeResetAgainst(memoryAdapter())).toEqual({ malloryIn: false, adaIn: true })
  })

  it("an adapter that finds the row by identifier alone (the Upstash bug): a password reset with an invented token does not set Ada's password", async () => {
    const { malloryIn, adaIn } = await forgeResetAgainst(identifierKeyedTokens())
    expect(malloryIn, "Mallory's password opens Ada's account").toBe(false)
    expect(adaIn).toBe(true)
  })

  it("an adapter that finds the row by identifier alone (the Upstash bug) does not let an invented token sign in as Ada", async () => {
    const { url, session } = await forgeLinkAgainst(identifierKeyedTokens())
    expect(session, "Mallory, holding only an invented token, holds a session").toBeNull()
    expect(url.searchParams.get("error")).toBe("Verification")
  })
})

// ---------------------------------------------------------------------------------------------
// 3. A "mock user" from another sealed cookie.
// Modelled on CVE-2023-48309 / GHSA-v64w-49xw-qq89: next-auth's state/PKCE/nonce cookies were JWTs
// sealed like the session, so one taken from an interrupted OAuth sign-in, put in the session
// cookie, passed the default middleware as a signed-in (empty) user.
// ---------------------------------------------------------------------------------------------
describe("no sealed cookie but a session opens as a session (check cookies, callback-url, CSRF)", () => {
  const idp = idpWith([{ sub: "ada-sub", email: "ada@example.com", name: "Ada" }], ["corp"])

  /** Every cookie an attacker's interrupted sign-in leaves in their own browser: name → value. */
  async function interruptedSignIn() {
    const config = { providers: [idp.provider("corp", { checks: ["pkce", "state", "nonce"] as OIDCConfig["checks"] })] }
    const site = secureApp(config)
    const attacker = site.browser()
    const csrfToken = await csrfOf(attacker)
    // The attacker posts the sign-in form and stops at the provider's door.
    const started = await site.dispatch(`${ORIGIN}/auth/signin/corp`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(attacker) },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${ORIGIN}/dashboard` }).toString(),
    })
    expect(started.status).toBe(302)
    attacker.acceptCookies(ORIGIN, started.headers.getSetCookie())
    const jar = jarOf(attacker)
    const names = Object.keys(jar)
    // The flow left its three checks, the callback-url and the CSRF cookie: the attacker holds them all.
    expect(names.filter((name) => /pkce|state|nonce|callback-url|csrf/.test(name))).toHaveLength(5)
    return { site, config, jar }
  }

  it("each of them, put in the session cookie or sent as a Bearer token, reads as signed out: /session, auth(), getToken and the Next proxy", async () => {
    const { site, config, jar } = await interruptedSignIn()
    const { proxy } = Latchkey({ ...config, secret: SECRET, env: { AUTH_URL: `${ORIGIN}/auth` } })
    const gate = proxy()
    for (const [name, value] of Object.entries(jar)) {
      const variants: Record<string, string>[] = [{ cookie: `${SESSION_COOKIE}=${value}` }, { authorization: `Bearer ${value}` }]
      for (const headers of variants) {
        const label = `${name} as ${Object.keys(headers)[0]}`
        const session = await site.dispatch(`${ORIGIN}/auth/session`, { headers })
        expect(session.status, label).toBe(200)
        expect(await session.json(), label).toBeNull()
        expect(await site.auth(new Request(`${ORIGIN}/dashboard`, { headers })), label).toBeNull()
        expect(await getToken({ req: new Request(`${ORIGIN}/dashboard`, { headers }), secret: SECRET }), label).toBeNull()
        const gated = await gate(new Request(`${ORIGIN}/dashboard`, { headers }))
        expect(gated?.status, label).toBe(307)
        expect(new URL(gated!.headers.get("location")!).pathname, label).toBe("/auth/signin")
      }
    }
  })
})

// ---------------------------------------------------------------------------------------------
// 4. Malformed percent-encoding where a token is read.
// Modelled on GHSA-xmf8-cvqr-rfgj ("getToken() throws an uncaught exception on malformed Bearer
// authorization headers"): a `URIError` out of a session read is a 500 on every route that reads.
// ---------------------------------------------------------------------------------------------
describe("a session read never throws on malformed percent-encoding (cookie, chunk or Bearer)", () => {
  const inputs: Record<string, string>[] = [
    { authorization: "Bearer %%" },
    { authorization: "Bearer %E0%A4%A" },
    { cookie: `${SESSION_COOKIE}=%E0%A4%A` },
    { cookie: `${SESSION_COOKIE}.0=%%; ${SESSION_COOKIE}.1=%zz` },
    { cookie: `${SESSION_COOKIE}=%`, authorization: "Bearer %" },
  ]
  for (const headers of inputs) {
    it(`${JSON.stringify(headers)}: /session answers 200 null, auth() and getToken() answer null`, async () => {
      const site = secureApp({ providers: [] })
      const response = await site.dispatch(`${ORIGIN}/auth/session`, { headers })
      expect(response.status).toBe(200)
      expect(await response.json()).toBeNull()
      await expect(site.auth(new Request(`${ORIGIN}/`, { headers }))).resolves.toBeNull()
      await expect(getToken({ req: new Request(`${ORIGIN}/`, { headers }), secret: SECRET })).resolves.toBeNull()
    })
  }
})

// ---------------------------------------------------------------------------------------------
// 5. Crafted addresses that mail systems deliver elsewhere.
// Modelled on GHSA-5jpx-9hw9-2fx4 (Auth.js email misdelivery through nodemailer's address parser:
// `"e@attacker.com"@victim.com`), GHSA-xv97-c62v-4587 / CVE-2022-35924 (comma-separated recipients),
// GHSA-pgjx-7f9g-9463 / CVE-2022-31127 (HTML in the address), GHSA-7rqj-j65f-68wh (homoglyph @), and
// the nodemailer comment misroute fixed in 9.1.0 (`user@good-corp.com(x)evil.com`).
// ---------------------------------------------------------------------------------------------
describe("email sign-in: an address a mailer could route elsewhere never reaches the signIn callback or the sender", () => {
  const crafted = [
    '"mallory@evil.example"@corp.example',
    "mallory@evil.example(x)corp.example",
    "mallory(x)@corp.example",
    "ada@corp.example(x)evil.example",
    "ada@corp.example,mallory@evil.example",
    "ada@corp.example;mallory@evil.example",
    "<mallory@evil.example>ada@corp.example",
    "ada@corp.example\r\nbcc:mallory@evil.example",
    'ada@corp.example <a href="https://evil.example">claim</a>',
    "mallory@evil.example\uFF20corp.example",
    "ada@[127.0.0.1]",
    "mallory@evil.example\\@corp.example",
  ]
  for (const address of crafted) {
    it(`${JSON.stringify(address)} is refused: no mail, no signIn callback, no token stored`, async () => {
      const { sent, provider } = mailbox()
      const seen: unknown[] = []
      const adapter = memoryAdapter()
      const created: VerificationToken[] = []
      const site = secureApp({
        providers: [provider],
        adapter: { ...adapter, createVerificationToken: (row: VerificationToken) => (created.push(row), adapter.createVerificationToken(row)) },
        callbacks: { signIn: ({ user }) => (seen.push(user.email), String(user.email).endsWith("@corp.example")) },
      })
      const browser = site.browser()
      const { url } = await post(browser, "/auth/signin/email", { csrfToken: await csrfOf(browser), email: address })
      expect(url.searchParams.get("error")).toBe("Verification")
      expect(sent).toEqual([])
      expect(seen).toEqual([])
      expect(created).toEqual([])
    })
  }
})

// ---------------------------------------------------------------------------------------------
// 6. Host-header poisoning of mailed links.
// Modelled on Auth.js's host trust (`trustHost` / `AUTH_TRUST_HOST` / `AUTH_URL`; next-auth v4's
// NEXTAUTH_URL) and GHSA-g5fm-jp9v-2432 / CVE-2022-31093 (request-derived URLs): a mailed link built
// from X-Forwarded-Host would hand the victim's token to the attacker's host.
// ---------------------------------------------------------------------------------------------
describe("with AUTH_URL pinned, a forged Host or X-Forwarded-Host never moves a mailed link (even with trustHost)", () => {
  it("the link Mallory triggers for Ada points at AUTH_URL's origin", async () => {
    const { sent, provider } = mailbox()
    const site = secureApp({ providers: [provider], adapter: memoryAdapter(), trustHost: true })
    const browser = site.browser()
    const csrfToken = await csrfOf(browser)
    const response = await site.handler(
      new Request(`${ORIGIN}/auth/signin/email`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(browser), host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" },
        body: new URLSearchParams({ csrfToken, email: "ada@example.com", callbackUrl: "https://evil.example/" }).toString(),
      })
    )
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).origin).toBe(ORIGIN)
    expect(sent).toHaveLength(1)
    const link = new URL(sent[0]!.url)
    expect(link.origin).toBe(ORIGIN)
    expect(link.searchParams.get("callbackUrl")).toBeNull()
  })
})

// ---------------------------------------------------------------------------------------------
// 7. Session updates from the client.
// Modelled on Auth.js's session update (`update()` / `trigger: "update"`, where the client's
// `session` reaches the jwt callback; no advisory found, the docs warn the app to validate it):
// without a jwt callback that reads it, the client's data must change nothing.
// ---------------------------------------------------------------------------------------------
describe("a session update without a jwt callback changes nothing the client sends", () => {
  it("POST /session with data naming another user, role and expiry leaves the session as it was", async () => {
    const credentials: CredentialsConfig = {
      id: "credentials",
      name: "Credentials",
      type: "credentials",
      credentials: { username: {} },
      authorize: (fields) => (fields.username === "ada" ? { id: "ada-id", name: "Ada", email: "ada@example.com" } : null),
    }
    const site = secureApp({ providers: [credentials] })
    const browser = site.browser()
    await post(browser, "/auth/callback/credentials", { csrfToken: await csrfOf(browser), username: "ada" })
    const before = await sessionOf(browser)
    expect(before?.user.email).toBe("ada@example.com")
    const { response } = await browser.open(`${ORIGIN}/auth/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ csrfToken: await csrfOf(browser), data: { user: { id: "admin", email: "admin@example.com", role: "admin" }, sub: "admin", role: "admin", expires: "2999-01-01T00:00:00.000Z" } }),
    })
    expect(response.status).toBe(200)
    const after = await sessionOf(browser)
    expect(after?.user).toEqual(before?.user)
    expect(JSON.stringify(after)).not.toContain("admin")
    expect(await getToken({ req: new Request(ORIGIN, { headers: { cookie: cookieHeader(browser) } }), secret: SECRET })).toMatchObject({ sub: "ada-id", email: "ada@example.com" })
  })
})

// ---------------------------------------------------------------------------------------------
// 8. Chunked session cookies at sign-out.
// Modelled on the Auth.js cookie-chunking reports (next-auth's chunking, https://github.com/nextauthjs/next-auth/pull/3101;
// chunks failing and logging users out, https://github.com/sidebase/nuxt-auth/issues/293): chunks
// left behind after sign-out must not read as a session.
// ---------------------------------------------------------------------------------------------
describe("a chunked session is ended whole at sign-out: no chunk is left that reads as a session", () => {
  it("a 3-chunk session signs out to no session cookie at all, and the old chunks replayed read as signed out", async () => {
    const credentials: CredentialsConfig = {
      id: "credentials",
      name: "Credentials",
      type: "credentials",
      credentials: { username: {} },
      authorize: () => ({ id: "ada-id", name: "Ada", email: "ada@example.com", image: `https://example.com/${"a".repeat(9000)}.png` }),
    }
    const site = secureApp({ providers: [credentials] })
    const browser = site.browser()
    await post(browser, "/auth/callback/credentials", { csrfToken: await csrfOf(browser), username: "ada" })
    const chunks = Object.keys(jarOf(browser)).filter((name) => name.startsWith(SESSION_COOKIE))
    expect(chunks.length).toBeGreaterThanOrEqual(3)
    const stolen = cookieHeader(browser)
    expect((await sessionOf(browser))?.user.email).toBe("ada@example.com")
    await post(browser, "/auth/signout", { csrfToken: await csrfOf(browser) })
    expect(Object.keys(jarOf(browser)).filter((name) => name.startsWith(SESSION_COOKIE))).toEqual([])
    expect(await sessionOf(browser)).toBeNull()
    // JWT sessions are not revocable one by one (SECURITY.md): the stolen chunks still read until
    // they expire. What must hold is that a *partial* set, as a browser that dropped one would keep, does not.
    const partial = stolen.split("; ").filter((pair) => !pair.startsWith(`${SESSION_COOKIE}.1=`)).join("; ")
    const response = await site.dispatch(`${ORIGIN}/auth/session`, { headers: { cookie: partial } })
    expect(await response.json()).toBeNull()
  })
})

describe("a session that grows into chunks, or shrinks out of them, leaves no stale cookie behind", () => {
  // Modelled on the chunking reports against Auth.js-based stacks (https://github.com/sidebase/nuxt-auth/issues/293:
  // chunked session cookies failing to decode and logging users out; the same stale-cookie class fixed
  // in https://github.com/auth0/nextjs-auth0/pull/303). latchkey refuses a request that carries a session
  // whole *and* chunked (cookie tossing), so a stale cookie left by latchkey itself would sign the user out.
  it("an update that makes the session chunked, then small again, keeps the user signed in throughout", async () => {
    const credentials: CredentialsConfig = { id: "credentials", name: "Credentials", type: "credentials", credentials: { username: {} }, authorize: () => ({ id: "ada-id", name: "Ada", email: "ada@example.com" }) }
    const site = secureApp({
      providers: [credentials],
      callbacks: {
        jwt: ({ token, trigger, session }: { token: any; trigger?: string; session?: any }) => {
          if (trigger === "update") token.notes = typeof session?.notes === "string" ? session.notes : undefined
          return token
        },
      },
    })
    const browser = site.browser()
    await post(browser, "/auth/callback/credentials", { csrfToken: await csrfOf(browser), username: "ada" })
    const sessionCookies = () => Object.keys(jarOf(browser)).filter((name) => name.startsWith(SESSION_COOKIE)).sort()
    expect(sessionCookies()).toEqual([SESSION_COOKIE])
    const update = async (notes: string) => {
      const { response } = await browser.open(`${ORIGIN}/auth/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ csrfToken: await csrfOf(browser), data: { notes } }) })
      expect(response.status).toBe(200)
    }
    await update("n".repeat(9000))
    expect(sessionCookies().length).toBeGreaterThanOrEqual(3)
    expect(sessionCookies()).not.toContain(SESSION_COOKIE)
    expect((await sessionOf(browser))?.user.email).toBe("ada@example.com")
    await update("short")
    expect(sessionCookies()).toEqual([SESSION_COOKIE])
    expect((await sessionOf(browser))?.user.email).toBe("ada@example.com")
  })
})

// ---------------------------------------------------------------------------------------------
// 9. User enumeration through email sign-in.
// Modelled on account enumeration through magic-link / OTP sign-in (no next-auth advisory found; the
// same class reported against a peer: https://github.com/better-auth/better-auth/issues/7944).
// ---------------------------------------------------------------------------------------------
describe("email sign-in answers a known and an unknown address alike", () => {
  it("same status, destination and cookie names; a link is mailed either way", async () => {
    const adapter = memoryAdapter()
    await adapter.createUser({ id: "ada-id", email: "ada@example.com", emailVerified: new Date() })
    const { sent, provider } = mailbox()
    const site = secureApp({ providers: [provider], adapter })
    async function ask(email: string) {
      const browser = site.browser()
      const csrfToken = await csrfOf(browser)
      const response = await site.dispatch(`${ORIGIN}/auth/signin/email`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(browser) },
        body: new URLSearchParams({ csrfToken, email, callbackUrl: "/dashboard" }).toString(),
      })
      const cookies = response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf("=")))
      return { status: response.status, location: response.headers.get("location"), cookies, body: await response.text() }
    }
    const known = await ask("ada@example.com")
    const unknown = await ask("nobody@example.com")
    expect(unknown).toEqual(known)
    expect(sent.map((mail) => mail.to)).toEqual(["ada@example.com", "nobody@example.com"])
  })
})

// ---------------------------------------------------------------------------------------------
// 10. Secrets in debug logs.
// Modelled on next-auth's `debug: true` output carrying session data and PII
// (https://github.com/CDCgov/dibbs-query-connector/pull/377) and tokens logged by Auth.js adapters
// (https://github.com/F3-Nation/f3-nation/issues/374); log-leaks.test.ts covers errors without debug.
// ---------------------------------------------------------------------------------------------
describe("with debug: true, a full OAuth sign-in and a magic-link sign-in log no code, token or cookie", () => {
  const idp = idpWith([{ sub: "ada-sub", email: "ada@example.com", name: "Ada" }], ["corp"])

  it("nothing logged (sign-ins, a replayed link, a callback without its checks) holds the authorization code, the provider's tokens, the magic link's token or the session cookie", async () => {
    const { logger, logged } = recordingLogger()
    const secrets: string[] = []
    // The provider's answers and the code sent for them, seen on the wire.
    const wire: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (typeof init?.body === "string" || init?.body instanceof URLSearchParams) {
        const code = new URLSearchParams(String(init.body)).get("code")
        if (code) secrets.push(code)
      }
      if (String(input instanceof Request ? input.url : input).endsWith("/token")) {
        const tokens = (await response.clone().json()) as Record<string, unknown>
        for (const key of ["access_token", "id_token", "refresh_token"]) if (typeof tokens[key] === "string") secrets.push(tokens[key] as string)
      }
      return response
    }
    const { sent, provider: email } = mailbox()
    const site = secureApp({ providers: [idp.provider("corp"), email], adapter: memoryAdapter(), debug: true, logger, fetch: wire })
    const oauthBrowser = site.browser()
    idp.signInAs("ada-sub")
    await post(oauthBrowser, "/auth/signin/corp", { csrfToken: await csrfOf(oauthBrowser) })
    expect((await sessionOf(oauthBrowser))?.user.email).toBe("ada@example.com")
    const mailBrowser = site.browser()
    await post(mailBrowser, "/auth/signin/email", { csrfToken: await csrfOf(mailBrowser), email: "grace@example.com" })
    await mailBrowser.open(sent[0]!.url)
    expect((await sessionOf(mailBrowser))?.user.email).toBe("grace@example.com")
    secrets.push(sent[0]!.token)
    // The failure paths log: the link opened again, and a callback whose check cookies were lost.
    await site.browser().open(sent[0]!.url)
    const lost = site.browser()
    idp.signInAs("ada-sub")
    const csrfToken = await csrfOf(lost)
    const started = await site.dispatch(`${ORIGIN}/auth/signin/corp`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(lost) },
      body: new URLSearchParams({ csrfToken }).toString(),
    })
    const hop = await lost.navigate(started.headers.get("location")!, `${ORIGIN}/auth/callback/corp`)
    secrets.push(new URL(hop.request.url).searchParams.get("code")!)
    const refused = await site.dispatch(hop.request.url, { headers: { cookie: `__Host-authjs.csrf-token=${lost.cookies(ORIGIN).get("__Host-authjs.csrf-token")}` } })
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBeTruthy()
    expect(logged.length).toBeGreaterThan(0)
    for (const browser of [oauthBrowser, mailBrowser]) for (const [name, value] of browser.cookies(ORIGIN)) if (name.includes("session-token") || name.includes("csrf")) secrets.push(value)
    expect(secrets.length).toBeGreaterThanOrEqual(6)
    const text = logged.map((value) => (value instanceof Error ? `${value.name} ${value.message} ${String(value.stack)}` : JSON.stringify(value) ?? String(value))).join("\n")
    for (const secret of secrets) expect(text.includes(secret), `a logged value contains ${secret.slice(0, 12)}…`).toBe(false)
  })
})

// ---------------------------------------------------------------------------------------------
// 11. Failing open when the configuration or the store fails.
// Modelled on GHSA-8fpg-xm3f-6cx3 ("Configuration errors can cause existence-based auth checks to
// fail open": next-auth's auth() answered the error body as a session object, so `if (session)`
// passed).
// ---------------------------------------------------------------------------------------------
describe("a failing store or callback never reads as a session (auth(), /session, the Next proxy)", () => {
  const credentials: CredentialsConfig = {
    id: "credentials",
    name: "Credentials",
    type: "credentials",
    credentials: { username: {} },
    authorize: () => ({ id: "ada-id", name: "Ada", email: "ada@example.com" }),
  }

  it("database sessions whose store throws: /session 200 null, auth() null, the proxy sends to sign-in", async () => {
    const base = memoryAdapter()
    let broken = false
    const adapter: Adapter = {
      ...base,
      getSessionAndUser: (token: string) => {
        if (broken) throw new Error("connection refused")
        return base.getSessionAndUser(token)
      },
    }
    const config = { providers: [credentials], adapter, session: { strategy: "database" as const } }
    const site = secureApp(config)
    const browser = site.browser()
    await post(browser, "/auth/callback/credentials", { csrfToken: await csrfOf(browser), username: "ada" })
    expect((await sessionOf(browser))?.user.email).toBe("ada@example.com")
    broken = true
    const headers = { cookie: cookieHeader(browser) }
    const response = await site.dispatch(`${ORIGIN}/auth/session`, { headers })
    const body = await response.json()
    expect(body === null || (response.status !== 200 && (body as { user?: unknown }).user === undefined)).toBe(true)
    await expect(site.auth(new Request(`${ORIGIN}/`, { headers }))).resolves.toBeNull()
    const { proxy } = Latchkey({ ...config, secret: SECRET, env: { AUTH_URL: `${ORIGIN}/auth` } })
    const gated = await proxy()(new Request(`${ORIGIN}/dashboard`, { headers }))
    expect(gated?.status).toBe(307)
  })

  it("a session callback that throws: /session answers no session shape, auth() does not answer one, the proxy does not let the request through", async () => {
    let broken = false
    const config = {
      providers: [credentials],
      callbacks: {
        session: ({ session }: { session: any }) => {
          if (broken) throw new Error("the app's database is down")
          return session
        },
      },
    }
    const site = secureApp(config)
    const browser = site.browser()
    await post(browser, "/auth/callback/credentials", { csrfToken: await csrfOf(browser), username: "ada" })
    expect((await sessionOf(browser))?.user.email).toBe("ada@example.com")
    broken = true
    const headers = { cookie: cookieHeader(browser) }
    const response = await site.dispatch(`${ORIGIN}/auth/session`, { headers })
    const body = (await response.json()) as Record<string, unknown> | null
    // What a client reads as a session (latchkey/client: 200 with `expires`; Auth.js's: any object) is not answered.
    expect(body === null || response.status !== 200).toBe(true)
    expect(body?.user).toBeUndefined()
    expect(body?.expires).toBeUndefined()
    const read = await site.auth(new Request(`${ORIGIN}/`, { headers })).catch(() => "threw")
    expect(read === null || read === "threw").toBe(true)
    const { proxy } = Latchkey({ ...config, secret: SECRET, env: { AUTH_URL: `${ORIGIN}/auth` } })
    const gated = await proxy()(new Request(`${ORIGIN}/dashboard`, { headers })).catch(() => "threw" as const)
    // Let through is `undefined` (or a NextResponse.next()); a redirect to sign-in or a throw (a 500) is closed.
    expect(gated === "threw" || gated?.status === 307).toBe(true)
  })
})

// ---------------------------------------------------------------------------------------------
// 12. A callback no check binds to the browser, linked into the signed-in user.
// Modelled on next-auth's "missing proper state, nonce and PKCE checks" (CVE-2023-27490, fixed in
// 4.20.1) and GHSA-x445-f3h2-j279 (check cookies not bound to their provider): a code the attacker
// obtained for their own IdP account, replayed in a signed-in victim's browser, links the attacker's
// account to the victim's user. `checks: ["none"]` is accepted (Auth.js accepts it too).
// ---------------------------------------------------------------------------------------------
describe('checks: ["none"]: a replayed callback is never linked into the session of the browser that opens it', () => {
  const ADA = { sub: "ada-sub", email: "ada@example.com", name: "Ada" }
  const MALLORY = { sub: "mallory-sub", email: "mallory@evil.example", name: "Mallory" }
  const idp = idpWith([ADA, MALLORY], ["corp"])

  /** Ada signed in; Mallory's own callback URL opened in Ada's browser; then Mallory signs in with her own IdP account. */
  async function replayInto(checks: OIDCConfig["checks"] | undefined) {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [idp.provider("corp", checks === undefined ? {} : { checks })], adapter })
    // Ada is signed in with her own corp account.
    const ada = site.browser()
    idp.signInAs(ADA.sub)
    await post(ada, "/auth/signin/corp", { csrfToken: await csrfOf(ada) })
    const adaUser = (await sessionOf(ada))?.user.id
    expect(adaUser).toBeDefined()
    // Mallory starts a sign-in as herself and stops at the callback: her code is in the URL.
    const mallory = site.browser()
    idp.signInAs(MALLORY.sub)
    const csrfToken = await csrfOf(mallory)
    const started = await site.dispatch(`${ORIGIN}/auth/signin/corp`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(mallory) },
      body: new URLSearchParams({ csrfToken }).toString(),
    })
    const hop = await mallory.navigate(started.headers.get("location")!, `${ORIGIN}/auth/callback/corp`)
    // Ada's browser is made to open it (a link, or a top-level navigation from Mallory's page).
    const { url } = await ada.open(hop.request.url)
    const linkedTo = [...adapter.accounts.values()].filter((account) => account.providerAccountId === MALLORY.sub).map((account) => account.userId)
    // Mallory then signs in with her own IdP account.
    const later = site.browser()
    idp.signInAs(MALLORY.sub)
    await post(later, "/auth/signin/corp", { csrfToken: await csrfOf(later) })
    return { adaUser, replayedTo: url, linkedTo, malloryLandsIn: (await sessionOf(later))?.user.id }
  }

  it("control: with the default checks (PKCE), the replay is refused and links nothing", async () => {
    const { adaUser, replayedTo, linkedTo, malloryLandsIn } = await replayInto(undefined)
    expect(replayedTo.pathname).toBe("/auth/error")
    expect(linkedTo).not.toContain(adaUser)
    expect(malloryLandsIn).not.toBe(adaUser)
  })

  it('with checks: ["none"], Mallory\'s callback opened in Ada\'s signed-in browser does not join Mallory\'s IdP account to Ada\'s user', async () => {
    const { adaUser, linkedTo, malloryLandsIn } = await replayInto(["none"])
    // Safe behaviour: Mallory's IdP account is not a way into Ada's account.
    expect(linkedTo, "Mallory's IdP account was linked to Ada's user").not.toContain(adaUser)
    expect(malloryLandsIn, "Mallory, signing in with her own IdP account, lands in Ada's account").not.toBe(adaUser)
  })

  it('checks: ["none"] is named in a warning at start-up, never taken in silence', () => {
    const warnings: string[] = []
    secureApp({ providers: [idp.provider("corp", { checks: ["none"] })], logger: { warn: (code) => void warnings.push(code) } })
    expect(warnings).toContain("PROVIDER_NO_CHECKS")
    warnings.length = 0
    secureApp({ providers: [idp.provider("corp", {})], logger: { warn: (code) => void warnings.push(code) } })
    expect(warnings).not.toContain("PROVIDER_NO_CHECKS")
  })
})
