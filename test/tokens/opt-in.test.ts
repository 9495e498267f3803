// Provider tokens come from latchkey/provider-tokens, passed to createAuth as `providerTokens`, so an
// app that keeps none bundles none of that code. Every option that keeps provider tokens without it
// is refused at createAuth, saying what to import; and a session made while an app kept provider
// tokens, read by the same app after it stopped, shows callbacks no leftover claim and drops it,
// with the token cookie, at the next write.
import { describe, expect, it } from "vitest"
import { providerTokens } from "../../src/provider-tokens/index.js"
import { csrfOf, ORIGIN, secureApp } from "../security/support.js"
import { refreshingProvider, requestFrom, sealedClaims, signedIn, TOKEN_COOKIE } from "./support.js"

const idp = refreshingProvider()
const IMPORT = 'import { providerTokens } from "latchkey/provider-tokens"'

describe("provider tokens are opted into with latchkey/provider-tokens", () => {
  it("refuses every option that keeps provider tokens without providerTokens, saying what to import", () => {
    const configs = [
      { session: { refreshProviderTokens: true } },
      { session: { refreshProviderTokens: { skew: 120 } } },
      { signOut: { federated: true } },
      { signOut: { revokeTokens: true } },
      { signOut: { idTokenHint: true } },
    ]
    for (const config of configs) {
      let thrown: unknown
      try {
        secureApp({ providers: [idp().provider()], ...config })
      } catch (error) {
        thrown = error
      }
      expect(thrown, JSON.stringify(config)).toMatchObject({ code: "ERR_INVALID_OPTION", option: "providerTokens" })
      expect((thrown as Error).message).toContain(IMPORT)
      // With it, the same config starts.
      expect(() => secureApp({ providers: [idp().provider()], ...config, providerTokens })).not.toThrow()
    }
    // Off is off: nothing to import.
    expect(() => secureApp({ providers: [idp().provider()], session: { refreshProviderTokens: false } })).not.toThrow()
  })

  it("getAccessToken without providerTokens rejects with a typed error instead of answering null", async () => {
    const site = secureApp({ providers: [idp().provider()] })
    await expect(site.getAccessToken(new Request(`${ORIGIN}/dashboard`), "corp")).rejects.toMatchObject({ code: "ERR_INVALID_OPTION", message: expect.stringContaining("latchkey/provider-tokens") })
  })

  it("a session from when the app kept provider tokens: callbacks never see the claim, and the next write drops it with the token cookie", async () => {
    const { browser } = await signedIn(idp(), { providerTokens, session: { refreshProviderTokens: true } })
    expect((await sealedClaims(browser))["latchkey.tokens"]).toMatch(/^[0-9]+:corp$/)
    expect(requestFrom(browser).headers.get("cookie")).toContain(`${TOKEN_COOKIE}=`)
    const seen: Record<string, unknown>[] = []
    const signedOut: unknown[] = []
    const after = secureApp({
      providers: [idp().provider()],
      callbacks: {
        jwt: ({ token }) => (seen.push(token), token),
        session: ({ session, token }) => (seen.push(token), session),
      },
      events: { signOut: (message) => void signedOut.push(message) },
    })
    const response = await after.handler(new Request(`${ORIGIN}/auth/session`, { headers: requestFrom(browser).headers }))
    expect(((await response.json()) as { user?: { email?: string } }).user?.email).toBe("ada@example.com")
    const setCookies = response.headers.getSetCookie()
    const session = setCookies.find((line) => line.startsWith("__Secure-authjs.session-token="))
    expect(session, "the session is written again without the claim").toBeDefined()
    expect(setCookies.some((line) => line.startsWith(`${TOKEN_COOKIE}=;`))).toBe(true)
    expect(seen.length).toBeGreaterThan(0)
    for (const token of seen) expect(token).not.toHaveProperty(["latchkey.tokens"])
    // Before the browser keeps the rewritten cookie, sign-out's event sees no leftover claim either.
    const csrfToken = await csrfOf(browser)
    const form = { cookie: requestFrom(browser).headers.get("cookie")!, "content-type": "application/x-www-form-urlencoded" }
    await after.handler(new Request(`${ORIGIN}/auth/signout`, { method: "POST", headers: form, body: new URLSearchParams({ csrfToken }) }))
    expect(signedOut).toHaveLength(1)
    expect((signedOut[0] as { token: Record<string, unknown> }).token).toMatchObject({ email: "ada@example.com" })
    expect((signedOut[0] as { token: Record<string, unknown> }).token).not.toHaveProperty(["latchkey.tokens"])
  })
})
