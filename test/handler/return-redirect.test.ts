// `X-Auth-Return-Redirect: 1`: a script's POST gets the redirect as `200 { url, error?, code? }`
// with the same cookies, because fetch cannot read where a cross-origin redirect goes. Driven
// through createAuth(...).handler with the browser-like cookie jar.
import { describe, expect, it } from "vitest"
import { CredentialsSignin } from "../../src/errors.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import type { EmailConfig } from "../../src/providers/email/types.js"
import { startDemoProvider } from "../../examples/demo-provider.mjs"
import { APP, app, csrf, session } from "./support.js"

class Locked extends CredentialsSignin {
  override code = "locked"
}

const credentials = Credentials({
  credentials: { username: {}, password: { type: "password" } },
  authorize: ({ username, password }) => {
    if (username === "locked") throw new Locked()
    return username === "ada" && password === "right" ? { id: "u-ada", name: "Ada", email: "ada@example.com" } : null
  },
})

/** A script's POST, as latchkey/client sends it. */
function scriptPost(browser: ReturnType<typeof app>["browser"], path: string, fields: Record<string, string>, headers: Record<string, string> = { "x-auth-return-redirect": "1" }) {
  return browser.open(`${APP}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields).toString() })
}

describe("redirects returned as JSON", () => {
  it("a credentials sign-in answers { url } with the session cookie set", async () => {
    const { browser } = app({ providers: [credentials] })
    const { response } = await scriptPost(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username: "ada", password: "right", callbackUrl: "/dashboard" })
    expect(response.status).toBe(200)
    expect(response.headers.get("location")).toBeNull()
    expect(response.headers.get("content-type")).toContain("application/json")
    expect(await response.json()).toEqual({ url: `${APP}/dashboard` })
    // Each cookie its own Set-Cookie line: the session, and the CSRF cookie kept as long as the session it binds.
    expect(response.headers.getSetCookie().map((line) => line.split("=")[0]).sort()).toEqual(["authjs.csrf-token", "authjs.session-token"])
    expect(await session(browser)).toMatchObject({ user: { name: "Ada", email: "ada@example.com" } })
  })

  it("a refusal names the error and the CredentialsSignin code in fields of their own", async () => {
    const { browser } = app({ providers: [credentials] })
    const token = await csrf(browser)
    const wrong = await scriptPost(browser, "/auth/signin/credentials", { csrfToken: token, username: "ada", password: "wrong" })
    expect(await wrong.response.json()).toEqual({ url: `${APP}/auth/signin?error=CredentialsSignin&code=credentials`, error: "CredentialsSignin", code: "credentials" })
    const locked = await scriptPost(browser, "/auth/callback/credentials", { csrfToken: token, username: "locked", password: "x" })
    expect(await locked.response.json()).toMatchObject({ error: "CredentialsSignin", code: "locked" })
  })

  it("a destination whose own query says error is a success, not a refusal", async () => {
    const { browser } = app({ providers: [credentials] })
    const { response } = await scriptPost(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username: "ada", password: "right", callbackUrl: "/report?error=none&code=7" })
    expect(await response.json()).toEqual({ url: `${APP}/report?error=none&code=7` })
  })

  it("a custom sign-in or error page carries the error too", async () => {
    const { browser } = app({ providers: [credentials], pages: { signIn: "/login", error: "/oops" } })
    const refused = await scriptPost(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username: "ada", password: "wrong" })
    expect(await refused.response.json()).toEqual({ url: `${APP}/login?error=CredentialsSignin&code=credentials`, error: "CredentialsSignin", code: "credentials" })
    const csrfRefused = await scriptPost(browser, "/auth/signout", { csrfToken: "forged" })
    // MissingCSRF is a sign-in error, as in Auth.js: the sign-in page shows it.
    expect(await csrfRefused.response.json()).toEqual({ url: `${APP}/login?error=MissingCSRF`, error: "MissingCSRF" })
  })

  it("an OAuth sign-in answers the provider's authorization URL, with the check cookies set", async () => {
    const provider = await startDemoProvider({ redirectUris: [`${APP}/auth/callback/demo`] })
    try {
      const demo = { id: "demo", name: "Demo", type: "oidc" as const, issuer: provider.issuer, clientId: "latchkey-demo", clientSecret: "latchkey-demo-secret" }
      const { browser } = app({ providers: [demo] })
      const { response } = await scriptPost(browser, "/auth/signin/demo", { csrfToken: await csrf(browser), callbackUrl: "/after" })
      const { url } = (await response.json()) as { url: string }
      expect(url.startsWith(`${provider.issuer}/auth?`)).toBe(true)
      expect(new URL(url).searchParams.get("code_challenge_method")).toBe("S256")
      const cookies = [...browser.cookies(APP).keys()]
      expect(cookies).toEqual(expect.arrayContaining(["authjs.pkce.code_verifier", "latchkey.callback-url"]))
    } finally {
      await provider.close()
    }
  })

  it("an email sign-in answers the verify-request page; a malformed address is a Verification refusal", async () => {
    const outbox: string[] = []
    const email: EmailConfig = { id: "email", name: "Email", type: "email", from: "auth@example.com", sendVerificationRequest: ({ url }) => void outbox.push(url) }
    const { browser } = app({ providers: [email], adapter: memoryAdapter() })
    const token = await csrf(browser)
    const sent = await scriptPost(browser, "/auth/signin/email", { csrfToken: token, email: "ada@example.com" })
    expect(await sent.response.json()).toEqual({ url: `${APP}/auth/verify-request?provider=email&type=email` })
    expect(outbox).toHaveLength(1)
    const malformed = await scriptPost(browser, "/auth/signin/email", { csrfToken: token, email: "not an address" })
    expect(await malformed.response.json()).toMatchObject({ error: "Verification" })
  })

  it("sign-out answers { url } and clears the session cookie", async () => {
    const { browser } = app({ providers: [credentials] })
    const token = await csrf(browser)
    await scriptPost(browser, "/auth/signin/credentials", { csrfToken: token, username: "ada", password: "right" })
    expect(await session(browser)).not.toBeNull()
    const { response } = await scriptPost(browser, "/auth/signout", { csrfToken: token, callbackUrl: "/bye" })
    expect(await response.json()).toEqual({ url: `${APP}/bye` })
    expect(await session(browser)).toBeNull()
  })

  it("without the header, the same POST is still a 302 (plain HTML forms keep working)", async () => {
    const { dispatch } = app({ providers: [credentials] })
    const response = await dispatch(`${APP}/auth/signout`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "csrfToken=forged", redirect: "manual" })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${APP}/auth/signin?error=MissingCSRF`)
  })

  it("another origin's page cannot read the answer: no CORS header is ever sent", async () => {
    const { browser } = app({ providers: [credentials] })
    const { response } = await scriptPost(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username: "ada", password: "right" }, { "x-auth-return-redirect": "1", origin: "https://evil.example" })
    expect(response.headers.get("access-control-allow-origin")).toBeNull()
    expect(response.headers.get("access-control-allow-credentials")).toBeNull()
  })
})
