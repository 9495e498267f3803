// The redirect proxy for preview deployments, end to end: a preview deployment signs in through a
// stable deployment whose callback URL is the only one the real oidc-provider knows. And the
// attacks on it: a spoofed preview origin, a state sealed for an origin off the allowlist.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import { encode } from "../../src/jwt/encode.js"
import type { OIDCConfig } from "../../src/providers/types.js"
import { TestBrowser } from "../servers/browser.js"
import { startOidcServer, type OidcServer, DEFAULT_ACCOUNT } from "../servers/oidc-provider.js"

const SECRET = "latchkey-proxy-test-secret-0123456789abcdef"
const STABLE = "https://auth.example.com"
const PREVIEW = "https://pr-7.preview.example.com"
let idp: OidcServer

beforeAll(async () => {
  idp = await startOidcServer({ clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${STABLE}/auth/callback/corp`], grant_types: ["authorization_code"] }] })
})
afterAll(() => idp.close())

const corp = (): OIDCConfig => ({ id: "corp", name: "Corp", type: "oidc", issuer: idp.issuer, clientId: "app", clientSecret: "app-secret" })
const proxyOptions = { redirectProxyUrl: `${STABLE}/auth`, redirectProxyOrigins: ["https://pr-*.preview.example.com"] }
const silent = { error: () => {}, warn: () => {} }

/** The stable deployment (pinned by AUTH_URL) and a preview (trusting its host), and a browser reaching both. */
function deployments(extra: Partial<AuthConfig> = {}) {
  const stable = createAuth({ providers: [corp()], secret: SECRET, env: { AUTH_URL: `${STABLE}/auth` }, logger: silent, ...proxyOptions, ...extra })
  const preview = createAuth({ providers: [corp()], secret: SECRET, trustHost: true, env: {}, logger: silent, ...proxyOptions, ...extra })
  const dispatch: typeof fetch = async (input, init) => {
    const url = new URL(String(input))
    if (url.origin === STABLE) return stable.handler(new Request(url, init as RequestInit))
    if (url.hostname.endsWith(".preview.example.com")) return preview.handler(new Request(url, init as RequestInit))
    if (url.hostname.endsWith(".example")) return new Response(`left for ${url.origin}`)
    return fetch(input, init)
  }
  return { stable, preview, dispatch, browser: new TestBrowser(undefined, dispatch) }
}

async function signInAtPreview(browser: TestBrowser) {
  const { response } = await browser.open(`${PREVIEW}/auth/csrf`)
  const { csrfToken } = (await response.json()) as { csrfToken: string }
  return browser.open(`${PREVIEW}/auth/signin/corp`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken, callbackUrl: "/after" }).toString() })
}

describe("redirect proxy", () => {
  it("a preview signs in through the stable deployment's registered callback", async () => {
    const { browser } = deployments()
    const { url } = await signInAtPreview(browser)
    expect(url.href).toBe(`${PREVIEW}/after`)
    const { response } = await browser.open(`${PREVIEW}/auth/session`)
    expect(await response.json()).toMatchObject({ user: { email: DEFAULT_ACCOUNT.email } })
  })

  it("the stable deployment's own sign-ins do not go through the proxy", async () => {
    const { browser } = deployments()
    const { response } = await browser.open(`${STABLE}/auth/csrf`)
    const { csrfToken } = (await response.json()) as { csrfToken: string }
    const { url } = await browser.open(`${STABLE}/auth/signin/corp`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken }).toString() })
    expect(url.href).toBe(`${STABLE}/`)
  })

  it("a preview reached under a host off the allowlist (a spoofed Host) never starts a proxied sign-in", async () => {
    const { preview } = deployments()
    const browser = new TestBrowser(undefined, (input, init) => preview.handler(new Request(String(input), init as RequestInit)))
    const evil = "https://evil.example"
    const { response } = await browser.open(`${evil}/auth/csrf`)
    const { csrfToken } = (await response.json()) as { csrfToken: string }
    const cookie = [...browser.cookies(evil)].map(([name, value]) => `${name}=${value}`).join("; ")
    const start = await preview.handler(new Request(`${evil}/auth/signin/corp`, { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken }).toString() }))
    const location = new URL(start.headers.get("location")!)
    expect(location.origin).toBe(evil)
    expect(location.searchParams.get("error")).toBe("Configuration")
  })

  it("the proxy refuses to forward a callback to an origin off the allowlist, and only ever forwards to the callback path", async () => {
    const { stable } = deployments()
    const state = await encode({ token: { origin: "https://evil.example" }, secret: SECRET, salt: "authjs.redirect-proxy-state", maxAge: 900 })
    const refused = await stable.handler(new Request(`${STABLE}/auth/callback/corp?code=stolen&state=${state}`))
    const location = new URL(refused.headers.get("location")!)
    expect(location.origin).toBe(STABLE)
    expect(location.searchParams.get("error")).toBe("Configuration")
    const allowed = await encode({ token: { origin: "https://pr-9.preview.example.com" }, secret: SECRET, salt: "authjs.redirect-proxy-state", maxAge: 900 })
    const forwarded = await stable.handler(new Request(`${STABLE}/auth/callback/corp?code=c&state=${allowed}`))
    const target = new URL(forwarded.headers.get("location")!)
    expect(target.origin + target.pathname).toBe("https://pr-9.preview.example.com/auth/callback/corp")
    expect(target.searchParams.get("code")).toBe("c")
  })

  it("a state sealed with another secret is not forwarded", async () => {
    const { stable } = deployments()
    const state = await encode({ token: { origin: "https://pr-9.preview.example.com" }, secret: "another-secret-entirely-0123456789abc", salt: "authjs.redirect-proxy-state", maxAge: 900 })
    const response = await stable.handler(new Request(`${STABLE}/auth/callback/corp?code=c&state=${state}`))
    expect(new URL(response.headers.get("location")!).origin).toBe(STABLE)
  })

  it("a proxy without an allowlist, or with a malformed entry, throws at createAuth", () => {
    expect(() => createAuth({ providers: [corp()], secret: SECRET, env: {}, redirectProxyUrl: `${STABLE}/auth` })).toThrow(expect.objectContaining({ option: "redirectProxyOrigins" }))
    expect(() => createAuth({ providers: [corp()], secret: SECRET, env: {}, redirectProxyUrl: `${STABLE}/auth`, redirectProxyOrigins: ["*.vercel.app"] })).toThrow(expect.objectContaining({ option: "redirectProxyOrigins" }))
  })

  it("AUTH_REDIRECT_PROXY_URL and AUTH_REDIRECT_PROXY_ORIGINS configure it from the environment", async () => {
    const env = { AUTH_REDIRECT_PROXY_URL: `${STABLE}/auth`, AUTH_REDIRECT_PROXY_ORIGINS: "https://pr-*.preview.example.com, https://staging.example.com" }
    const preview = createAuth({ providers: [corp()], secret: SECRET, trustHost: true, env, logger: silent })
    const browser = new TestBrowser(undefined, (input, init) => preview.handler(new Request(String(input), init as RequestInit)))
    const { response } = await browser.open(`${PREVIEW}/auth/csrf`)
    const { csrfToken } = (await response.json()) as { csrfToken: string }
    const cookie = [...browser.cookies(PREVIEW)].map(([name, value]) => `${name}=${value}`).join("; ")
    const start = await preview.handler(new Request(`${PREVIEW}/auth/signin/corp`, { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken }).toString() }))
    const authorize = new URL(start.headers.get("location")!)
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${STABLE}/auth/callback/corp`)
  })
})
