// Passkey tests: an app on the origin the fixtures were recorded for (test/fixtures/webauthn/
// recorded.json, real responses from Chromium's virtual authenticator), driven through createAuth's
// handler by a browser-like cookie jar. A recorded response answers one fixed challenge, so a test
// gives the browser the challenge cookie the handler would have issued for it, sealed exactly as
// the options route seals it (routes.test.ts checks that route's cookie has this form).
import { readFileSync } from "node:fs"
import { expect } from "vitest"
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import { sealChallenge, type Ceremony, type Registrant } from "../../src/webauthn/challenge.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Passkey from "../../src/providers/passkey.js"
import { webauthn } from "../../src/webauthn/index.js"
import { TestBrowser } from "../servers/browser.js"

export interface RecordedCeremony {
  challenge: string
  email?: string
  response: Record<string, any>
}

export const fixtures = JSON.parse(readFileSync(new URL("../fixtures/webauthn/recorded.json", import.meta.url), "utf8")) as {
  origin: string
  rpId: string
  registrations: Record<"ada" | "grace", RecordedCeremony & { email: string }>
  assertions: Record<"ada1" | "ada2" | "grace1", RecordedCeremony>
}

export const ORIGIN = fixtures.origin
export const SECRET = "latchkey-passkey-test-secret-0123456789"

/** A deep copy of a recorded response, for tests that tamper with it. */
export function copy<T>(value: T): T {
  return structuredClone(value)
}

/** An app with a passkey provider (sign-up on) and a memory adapter, pinned to the fixtures' origin. */
export function passkeyApp(config: Partial<AuthConfig> = {}, strategy: "jwt" | "database" = "jwt") {
  const adapter = memoryAdapter()
  const warnings: { code: string; message: string }[] = []
  const errors: Error[] = []
  const logger = { warn: (code: string, metadata?: unknown) => warnings.push({ code, message: String((metadata as { message?: unknown })?.message ?? "") }), error: (error: Error) => errors.push(error) }
  const full: AuthConfig = { providers: [Passkey({ allowSignUp: true })], adapter, webauthn, secret: SECRET, env: { AUTH_URL: `${ORIGIN}/auth` }, session: { strategy }, logger, ...config }
  let auth = createAuth(full)
  const dispatch: typeof fetch = async (input, init) => {
    const url = new URL(String(input))
    if (url.origin !== ORIGIN || !url.pathname.startsWith("/auth")) return new Response("app page")
    return auth.handler(new Request(url, init as RequestInit))
  }
  /**
   * Another instance of the app (or the same one restarted) takes over: same adapter and secret,
   * `changes` applied, and a fresh process memory. Browsers keep their cookies. A recorded
   * response can be used once per instance, so a test that needs one twice restarts in between.
   */
  const restart = (changes: Partial<AuthConfig> = {}) => {
    auth = createAuth({ ...full, ...changes })
  }
  const browser = () => new TestBrowser(undefined, dispatch)
  /** The reasons passkey ceremonies were refused for, as logged. */
  const refusals = () => warnings.filter((warning) => warning.code === "ERR_WEBAUTHN").map((warning) => warning.message.split(":")[0])
  return { handler: (request: Request) => auth.handler(request), adapter: (full.adapter ?? adapter) as ReturnType<typeof memoryAdapter>, browser, warnings, errors, refusals, restart }
}

/** Gives `browser` the challenge cookie the options route would have set for this ceremony. */
export async function plantChallenge(browser: TestBrowser, challenge: string, ceremony: Ceremony, provider = "passkey", registrant?: Registrant): Promise<void> {
  browser.acceptCookies(ORIGIN, await sealChallenge({ secret: [SECRET], secure: false }, { challenge, ceremony, provider, registrant }, 300))
}

export async function csrfOf(browser: TestBrowser): Promise<string> {
  const { response } = await browser.open(`${ORIGIN}/auth/csrf`)
  return ((await response.json()) as { csrfToken: string }).csrfToken
}

/** POSTs the callback as the served script does (JSON), and answers status and body. */
export async function callback(browser: TestBrowser, action: "register" | "authenticate", data: unknown, extra: Record<string, unknown> = {}, provider = "passkey") {
  const csrfToken = await csrfOf(browser)
  const { response } = await browser.open(`${ORIGIN}/auth/callback/${provider}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ action, data: JSON.stringify(data), csrfToken, ...extra }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, any>, response }
}

export async function sessionOf(browser: TestBrowser): Promise<Record<string, any> | null> {
  const { response } = await browser.open(`${ORIGIN}/auth/session`)
  return (await response.json()) as Record<string, any> | null
}

/** Signs up with a recorded registration (a new user for its email), checking it worked. */
export async function signUp(browser: TestBrowser, who: "ada" | "grace") {
  const recorded = fixtures.registrations[who]
  await plantChallenge(browser, recorded.challenge, "register", "passkey", { email: recorded.email, name: recorded.email })
  const result = await callback(browser, "register", recorded.response)
  expect(result.status, JSON.stringify(result.body)).toBe(200)
  return result
}

/** Signs in with a recorded assertion. */
export async function signIn(browser: TestBrowser, which: "ada1" | "ada2" | "grace1", response = fixtures.assertions[which].response) {
  await plantChallenge(browser, fixtures.assertions[which].challenge, "authenticate")
  return callback(browser, "authenticate", response)
}

/** Signs out through the handler. */
export async function signOut(browser: TestBrowser): Promise<void> {
  const csrfToken = await csrfOf(browser)
  await browser.open(`${ORIGIN}/auth/signout`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken }).toString() })
  expect(await sessionOf(browser)).toBeNull()
}
