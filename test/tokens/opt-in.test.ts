// Provider tokens come from latchkey/provider-tokens: `providerTokens({ refresh, signOut })`, passed
// to createAuth as `providerTokens`, so an app that keeps none bundles none of that code, and every
// provider-token option is an option of that plug-in (no createAuth option needs another to work).
// The options createAuth once had for them are refused, naming their new place; `getAccessToken`
// exists only where it works; and a session made while an app kept provider tokens, read by the
// same app after it stopped, shows callbacks no leftover claim and drops it, with the token cookie,
// at the next write.
import { describe, expect, it } from "vitest"
import { providerTokens } from "../../src/provider-tokens/index.js"
import { csrfOf, ORIGIN, secureApp } from "../security/support.js"
import { refreshingProvider, requestFrom, sealedClaims, signedIn, TOKEN_COOKIE } from "./support.js"

const idp = refreshingProvider()
const IMPORT = 'import { providerTokens } from "latchkey/provider-tokens"'

/** What createAuth throws for `config`, or undefined. */
function refusal(config: Record<string, unknown>): unknown {
  try {
    secureApp({ providers: [idp().provider()], ...config })
  } catch (error) {
    return error
  }
  return undefined
}

describe("provider tokens are opted into with latchkey/provider-tokens", () => {
  it("refuses every provider-token option createAuth once had, naming its place in the plug-in and what to import", () => {
    const moved: [Record<string, unknown>, string, string][] = [
      [{ session: { refreshProviderTokens: true } }, "session.refreshProviderTokens", "providerTokens({ refresh: true })"],
      [{ session: { refreshProviderTokens: { skew: 120 } } }, "session.refreshProviderTokens", "providerTokens({ refresh: true })"],
      [{ session: { refreshProviderTokens: false } }, "session.refreshProviderTokens", "providerTokens({ refresh: true })"],
      [{ signOut: { federated: true } }, "signOut", "providerTokens({ signOut: { federated: true } })"],
      [{ signOut: { revokeTokens: true } }, "signOut", "providerTokens({ signOut: { federated: true } })"],
      [{ signOut: { idTokenHint: true } }, "signOut", "providerTokens({ signOut: { federated: true } })"],
      // The old shape's plug-in, passed uncalled, beside a moved option or alone.
      [{ providerTokens, session: { refreshProviderTokens: true } }, "session.refreshProviderTokens", "providerTokens({ refresh: true })"],
      [{ providerTokens }, "providerTokens", "providerTokens({ refresh: true })"],
    ]
    for (const [config, option, place] of moved) {
      const thrown = refusal(config)
      expect(thrown, JSON.stringify(config)).toMatchObject({ code: "ERR_INVALID_OPTION", option })
      expect((thrown as Error).message).toContain(place)
      expect((thrown as Error).message).toContain(IMPORT)
    }
    // The new shapes start.
    for (const options of [{ refresh: true }, { refresh: { skew: 120 } }, { signOut: { federated: true } }, { signOut: { revokeTokens: true } }, { refresh: false, signOut: { idTokenHint: true } }] as const) {
      expect(refusal({ providerTokens: providerTokens(options) }), JSON.stringify(options)).toBeUndefined()
    }
  })

  it("refuses a plug-in that keeps nothing, or options of the wrong kind, by name", () => {
    const wrong: [unknown, string][] = [
      [{}, "providerTokens"],
      [{ refresh: false }, "providerTokens"],
      [undefined, "providerTokens"],
      [{ refresh: "yes" }, "providerTokens.refresh"],
      [{ signOut: true }, "providerTokens.signOut"],
      [{ signOut: { federated: "true" } }, "providerTokens.signOut.federated"],
    ]
    for (const [options, option] of wrong) expect(() => providerTokens(options as never), JSON.stringify(options)).toThrow(expect.objectContaining({ code: "ERR_INVALID_OPTION", option }))
  })

  it("getAccessToken exists only with a plug-in that refreshes", async () => {
    expect("getAccessToken" in secureApp({ providers: [idp().provider()] })).toBe(false)
    expect("getAccessToken" in secureApp({ providers: [idp().provider()], providerTokens: providerTokens({ signOut: { federated: true } }) })).toBe(false)
    const site = secureApp({ providers: [idp().provider()], providerTokens: providerTokens({ refresh: true }) })
    expect(await site.getAccessToken(new Request(`${ORIGIN}/dashboard`), "corp")).toBeNull()
  })

  it("a session from when the app kept provider tokens: callbacks never see the claim, and the next write drops it with the token cookie", async () => {
    const { browser } = await signedIn(idp(), { providerTokens: providerTokens({ refresh: true }) })
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
