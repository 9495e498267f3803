// Where a sign-in lands, and where the redirect proxy forwards a code: the defences a mutation run
// removed without any test noticing. The callback-url cookie must be sealed AND on the origin (a
// sibling subdomain can plant it; a deployment sharing AUTH_SECRET can seal one for its own
// origin), and a redirect proxy allowlist's `*` stands for part of one DNS label, never for dots.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import { encode } from "../../src/jwt/encode.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import type { EmailConfig, OIDCConfig } from "../../src/providers/types.js"
import { TestBrowser } from "../servers/browser.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { csrfOf, jarOf, ORIGIN, plantFromSibling, post, SECRET, secureApp, sessionOf } from "./support.js"

const CALLBACK_URL_COOKIE = "__Secure-latchkey.callback-url"
let idp: OidcServer

beforeAll(async () => {
  idp = await startOidcServer({ clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${ORIGIN}/auth/callback/corp`], grant_types: ["authorization_code"] }] })
})
afterAll(() => idp.close())

const corp = (): OIDCConfig => ({ id: "corp", name: "Corp", type: "oidc", issuer: idp.issuer, clientId: "app", clientSecret: "app-secret" })

/** An app with the corp provider and magic links; `sent` holds each link it mailed. */
function site() {
  const sent: string[] = []
  const email: EmailConfig = { id: "email", name: "Email", type: "email", from: "auth@example.com", sendVerificationRequest: ({ url }) => void sent.push(url) }
  return { ...secureApp({ providers: [corp(), email], adapter: memoryAdapter() }), sent }
}

/**
 * A callback-url cookie sealed with the app's own secret for ANOTHER origin, as the attacker gets
 * one: by starting a sign-in with `callbackUrl` at a second deployment that shares AUTH_SECRET (a
 * preview behind the redirect proxy, a sibling service), whose handler seals it for its own origin.
 */
async function sealedByAnotherDeployment(url: string): Promise<string> {
  const other = new URL(url).origin
  const deployment = createAuth({ providers: [corp()], secret: SECRET, env: { AUTH_URL: `${other}/auth` } })
  const attacker = new TestBrowser(undefined, (input, init) => deployment.handler(new Request(String(input), init as RequestInit)))
  const { response } = await attacker.open(`${other}/auth/csrf`)
  const { csrfToken } = (await response.json()) as { csrfToken: string }
  const cookie = [...attacker.cookies(other)].map(([name, value]) => `${name}=${value}`).join("; ")
  const start = await deployment.handler(
    new Request(`${other}/auth/signin/corp`, { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken, callbackUrl: url }).toString() })
  )
  const line = start.headers.getSetCookie().find((set) => set.startsWith(`${CALLBACK_URL_COOKIE}=`))
  expect(line, "the other deployment sets a callback-url cookie").toBeDefined()
  return line!.slice(CALLBACK_URL_COOKIE.length + 1).split(";")[0]!
}

/** A magic link asked for in one browser with `callbackUrl`, for opening in another. */
async function linkTo(app: ReturnType<typeof site>, callbackUrl: string): Promise<string> {
  const requester = app.browser()
  await post(requester, "/auth/signin/email", { csrfToken: await csrfOf(requester), email: "ada@example.com", callbackUrl })
  expect(app.sent).toHaveLength(1)
  return app.sent[0]!
}

describe("a callback-url cookie planted by a sibling subdomain", () => {
  it("unsealed, even naming a page on the origin, does not choose where an OAuth sign-in lands", async () => {
    const app = site()
    const victim = app.browser()
    plantFromSibling(victim, { [CALLBACK_URL_COOKIE]: encodeURIComponent(`${ORIGIN}/planted-by-sibling`) })
    const { url } = await post(victim, "/auth/signin/corp", { csrfToken: await csrfOf(victim) })
    expect((await sessionOf(victim))?.user).toBeDefined()
    expect(url.href).toBe(`${ORIGIN}/`)
  })

  it("unsealed, does not displace the magic link's own callbackUrl", async () => {
    const app = site()
    const link = await linkTo(app, "/inbox")
    const victim = app.browser()
    plantFromSibling(victim, { [CALLBACK_URL_COOKIE]: encodeURIComponent(`${ORIGIN}/planted-by-sibling`) })
    const { url } = await victim.open(link)
    expect((await sessionOf(victim))?.user.email).toBe("ada@example.com")
    expect(url.href).toBe(`${ORIGIN}/inbox`)
  })

  it("sealed with the app's own secret for another origin, is still held to this origin (sealing is not trust)", async () => {
    const sealed = await sealedByAnotherDeployment("https://other.example.com/phish")
    const app = site()
    const link = await linkTo(app, "/inbox")
    const victim = app.browser()
    plantFromSibling(victim, { [CALLBACK_URL_COOKIE]: sealed })
    expect(jarOf(victim)[CALLBACK_URL_COOKIE]).toBe(sealed)
    const { url } = await victim.open(link)
    expect((await sessionOf(victim))?.user.email).toBe("ada@example.com")
    expect(url.href).toBe(`${ORIGIN}/inbox`)
  })
})

describe("the redirect proxy allowlist's `*` stays within one DNS label", () => {
  const STABLE = "https://auth.example.com"
  const ALLOWLIST = ["https://*.preview.example.com", "https://app-*.example"]
  const silent = { error: () => {}, warn: () => {} }
  const proxy = { redirectProxyUrl: `${STABLE}/auth`, redirectProxyOrigins: ALLOWLIST, logger: silent }

  /** A state sealed for `origin` with the shared secret, as any deployment reached under that Host would seal it. */
  const stateFor = (origin: string) => encode({ token: { origin }, secret: SECRET, salt: "authjs.redirect-proxy-state", maxAge: 900 })

  it.each(["https://pr-1.x.preview.example.com", "https://app-x.evil.example"])("the proxy does not forward a code to %s", async (origin) => {
    const stable = createAuth({ providers: [corp()], secret: SECRET, env: { AUTH_URL: `${STABLE}/auth` }, ...proxy })
    const response = await stable.handler(new Request(`${STABLE}/auth/callback/corp?code=victims-code&state=${await stateFor(origin)}`))
    const location = new URL(response.headers.get("location")!)
    expect(location.origin).toBe(STABLE)
    expect(location.searchParams.get("error")).toBe("Configuration")
    expect(response.headers.get("location")).not.toContain("victims-code")
  })

  it("while one label in the `*` is forwarded (the control)", async () => {
    const stable = createAuth({ providers: [corp()], secret: SECRET, env: { AUTH_URL: `${STABLE}/auth` }, ...proxy })
    for (const origin of ["https://pr-1.preview.example.com", "https://app-x.example"]) {
      const response = await stable.handler(new Request(`${STABLE}/auth/callback/corp?code=c&state=${await stateFor(origin)}`))
      expect(new URL(response.headers.get("location")!).origin, origin).toBe(origin)
    }
  })

  it.each(["https://pr-1.x.preview.example.com", "https://app-x.evil.example"])("a deployment reached as %s never starts a proxied sign-in", async (origin) => {
    const preview = createAuth({ providers: [corp()], secret: SECRET, trustHost: true, env: {}, ...proxy })
    const browser = new TestBrowser(undefined, (input, init) => preview.handler(new Request(String(input), init as RequestInit)))
    const { response } = await browser.open(`${origin}/auth/csrf`)
    const { csrfToken } = (await response.json()) as { csrfToken: string }
    const cookie = [...browser.cookies(origin)].map(([name, value]) => `${name}=${value}`).join("; ")
    const start = await preview.handler(new Request(`${origin}/auth/signin/corp`, { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken }).toString() }))
    const location = new URL(start.headers.get("location")!)
    expect(location.origin).toBe(origin)
    expect(location.searchParams.get("error")).toBe("Configuration")
  })
})
