// An app on a real https origin for attack tests, and the attacker positions of SECURITY.md's threat
// model: a second browser (the attacker's own) and a sibling subdomain that can plant cookies.
import { afterAll, beforeAll, expect } from "vitest"
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import type { ProviderTokensEngine } from "../../src/provider-tokens/types.js"
import type { JWT, LoggerInstance, Session } from "../../src/types.js"
import { appPage, csrf, postForm, session } from "../handler/support.js"
import type { EmailConfig, OIDCConfig } from "../../src/providers/types.js"
import { TestBrowser } from "../servers/browser.js"
import { startOidcServer, type OidcServer, type TestAccount } from "../servers/oidc-provider.js"

export const ORIGIN = "https://app.example.com"
export const SECRET = "latchkey-attack-test-secret-0123456789"

/**
 * createAuth pinned to ORIGIN by AUTH_URL. The returned dispatch sends ORIGIN to the handler, any
 * other `.example` host (where an open redirect would land) to a page saying so, and the rest
 * (the local provider servers) to the network.
 */
export function secureApp<P extends ProviderTokensEngine | undefined = undefined>(config: Partial<AuthConfig> & Pick<AuthConfig, "providers"> & { providerTokens?: P }) {
  const auth = createAuth<JWT, Session, P>({ secret: SECRET, env: { AUTH_URL: `${ORIGIN}/auth` }, ...config })
  const dispatch: typeof fetch = async (input, init) => {
    const url = new URL(String(input))
    if (url.origin === ORIGIN) return url.pathname.startsWith(config.basePath ?? "/auth") ? auth.handler(new Request(url, init as RequestInit)) : appPage(url.href)
    if (url.hostname.endsWith(".example")) return new Response(`left the app for ${url.origin}`, { headers: { "content-type": "text/plain" } })
    return fetch(input, init)
  }
  return { ...auth, dispatch, browser: () => new TestBrowser(undefined, dispatch) }
}

/** The CSRF token, a form post and the session JSON, as the handler tests have them, on ORIGIN. */
export const csrfOf = (browser: TestBrowser) => csrf(browser, ORIGIN)
export const post = (browser: TestBrowser, path: string, fields: Record<string, string>) => postForm(browser, path, fields, ORIGIN)
export const sessionOf = (browser: TestBrowser) => session(browser, ORIGIN)

/**
 * What a sibling subdomain can do: set cookies for the parent domain, which the browser then sends
 * to ORIGIN. Browsers refuse a `__Host-` cookie set with a Domain attribute (RFC 6265bis §4.1.3.2),
 * so the sibling cannot plant one of those; every other name, `__Secure-` included, it can.
 */
export function plantFromSibling(browser: TestBrowser, cookies: Record<string, string>): void {
  const names = Object.keys(cookies)
  expect(names.length).toBeGreaterThan(0)
  for (const name of names) {
    if (name.startsWith("__Host-")) continue
    browser.acceptCookies(ORIGIN, [`${name}=${cookies[name]}; Domain=example.com; Path=/; Secure`])
  }
}

/** A second browser holding every cookie `victim` holds for `origin` (stolen by malware, a shared machine, a leaked HAR). */
export function stolenFrom(victim: TestBrowser, thief: TestBrowser, origin = ORIGIN): TestBrowser {
  const lines = [...victim.cookies(origin)].map(([name, value]) => `${name}=${value}; Path=/${origin.startsWith("https:") ? "; Secure" : ""}`)
  thief.acceptCookies(origin, lines)
  return thief
}

/** The cookies a browser holds for ORIGIN, as name → value. */
export function jarOf(browser: TestBrowser): Record<string, string> {
  return Object.fromEntries(browser.cookies(ORIGIN))
}

/**
 * A real OpenID provider ("corp") for ORIGIN's app, started before the file's tests and stopped
 * after: `provider()` is the config an app writes, `signInAs(sub)` picks who the next sign-in is.
 */
export function corpProvider(accounts: TestAccount[]) {
  let server: OidcServer | undefined
  beforeAll(async () => {
    server = await startOidcServer({ accounts, clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${ORIGIN}/auth/callback/corp`], grant_types: ["authorization_code"] }] })
  })
  afterAll(() => server?.close())
  const running = () => server ?? expect.fail("the corp provider has not started")
  return {
    provider: (): OIDCConfig => ({ id: "corp", name: "Corp", type: "oidc", issuer: running().issuer, clientId: "app", clientSecret: "app-secret" }),
    signInAs: (sub: string) => running().signInAs(sub),
  }
}

/** A logger that records every value it is handed, at every level. */
export function recordingLogger(): { logger: LoggerInstance; logged: unknown[] } {
  const logged: unknown[] = []
  const logger: LoggerInstance = {
    error: (error) => void logged.push(error),
    warn: (code, metadata) => void logged.push(code, metadata),
    debug: (message, metadata) => void logged.push(message, metadata),
  }
  return { logger, logged }
}

/** An email provider whose mails land in `sent` (address, link and token), with `overrides` on the config. */
export function mailbox(overrides: Partial<EmailConfig> = {}) {
  const sent: { to: string; url: string; token: string }[] = []
  const provider: EmailConfig = {
    id: "email",
    name: "Email",
    type: "email",
    from: "auth@example.com",
    sendVerificationRequest: ({ identifier, url, token }) => void sent.push({ to: identifier, url, token }),
    ...overrides,
  }
  return { sent, provider }
}
