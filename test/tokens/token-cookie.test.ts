// The provider token cookie of JWT sessions: the session token carries only "<expires_at>:<provider>",
// and the token set lives in its own sealed cookie, bound to the session token it was written with.
// A read with nothing due never opens that cookie; a token cookie that is not the session's (planted
// from another user's session by a sibling subdomain, older than the session, or missing) is no
// provider tokens, never someone else's. The cookie is removed with the session, renamed by the
// `cookies` option, follows a __Host- session cookie's prefix, and is chunked when large.
import { describe, expect, it } from "vitest"
import { DEFAULT_ACCOUNT } from "../servers/oidc-provider.js"
import { csrfOf, jarOf, ORIGIN, plantFromSibling, post, secureApp } from "../security/support.js"
import { refreshingProvider, requestFrom, sealedClaims, sealedTokens, sessionRead, sessionTokenHash, signedIn, TOKEN_COOKIE, tokensSetBy } from "./support.js"
import { providerTokens, type ProviderTokensEngine } from "../../src/provider-tokens/index.js"

const MALLORY = { sub: "user-2", email: "mallory@example.com", name: "Mallory", picture: "https://example.com/mallory.png" }
const idp = refreshingProvider({ accounts: [DEFAULT_ACCOUNT, MALLORY] })
const ON = { providerTokens: providerTokens({ refresh: true }) }

/** The browser's cookie header with `name` replaced by `value` (or removed when undefined). */
function withCookie(request: Request, name: string, value: string | undefined): Request {
  const pairs = (request.headers.get("cookie") ?? "").split("; ").filter((pair) => !pair.startsWith(`${name}=`))
  if (value !== undefined) pairs.push(`${name}=${value}`)
  return new Request(request.url, { headers: { cookie: pairs.join("; ") } })
}

/** A signed-in browser whose access token was refreshed by GET /session: nothing is due now. */
async function settled<P extends ProviderTokensEngine | undefined>(config: Parameters<typeof signedIn<P>>[1]) {
  const signed = await signedIn(idp(), config)
  const { response } = await signed.browser.open(`${ORIGIN}/auth/session`)
  expect(response.headers.getSetCookie().some((line) => line.startsWith(`${TOKEN_COOKIE}=`))).toBe(true)
  return signed
}

describe("the provider token cookie", () => {
  it("keeps the session token small, and a read with nothing due never opens the token cookie", async () => {
    const debug: string[] = []
    const { site, browser } = await settled({ ...ON, debug: true, logger: { debug: (message) => debug.push(message) } })
    const claim = (await sealedClaims(browser))["latchkey.tokens"]
    const tokens = await sealedTokens(browser)
    // The session holds the expiry and the provider as one short string; the token set is bound to it by its session token's hash.
    expect(claim).toBe(`${tokens.expires_at}:corp`)
    expect(tokens.session).toBe(await sessionTokenHash(browser))
    expect(await site.getAccessToken(requestFrom(browser), "corp")).toBe(tokens.access_token)
    // A token cookie that cannot be opened: reads that open it say so at debug; a read with nothing due does not.
    const broken = withCookie(requestFrom(browser), TOKEN_COOKIE, "not-a-sealed-token")
    debug.length = 0
    for (let i = 0; i < 3; i++) expect((await site.auth(broken.clone()))?.user?.email).toBe("ada@example.com")
    expect(debug.filter((line) => line.startsWith("provider tokens"))).toEqual([])
    expect(await site.getAccessToken(broken.clone(), "corp")).toBeNull()
    expect(debug.filter((line) => line.startsWith("provider tokens"))).toEqual(["provider tokens: the token cookie was rejected"])
  })

  it("attack: a token cookie planted from another user's session is never used, whether or not a refresh is due", async () => {
    const site = secureApp({ providers: [idp().provider()], ...ON })
    const signIn = async (sub: string) => {
      idp().server.signInAs(sub)
      const browser = site.browser()
      await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
      idp().server.signInAs(DEFAULT_ACCOUNT.sub)
      return browser
    }
    const attacker = await signIn(MALLORY.sub)
    await attacker.open(`${ORIGIN}/auth/session`)
    const attackerTokens = await sealedTokens(attacker)
    const planted = Object.fromEntries(Object.entries(jarOf(attacker)).filter(([name]) => name.includes("provider-tokens")))

    // Nothing due: the victim's server code asks for the token to call the provider's API.
    const settledVictim = await signIn(DEFAULT_ACCOUNT.sub)
    await settledVictim.open(`${ORIGIN}/auth/session`)
    plantFromSibling(settledVictim, planted)
    expect(jarOf(settledVictim)[TOKEN_COOKIE]).toBe(planted[TOKEN_COOKIE])
    expect(await site.getAccessToken(requestFrom(settledVictim), "corp")).toBeNull()

    // Due: the read that refreshes must not refresh (or hand out) the attacker's tokens.
    const dueVictim = await signIn(DEFAULT_ACCOUNT.sub)
    plantFromSibling(dueVictim, planted)
    const grants = idp().refreshGrants()
    const { session, setCookies } = await sessionRead(site, requestFrom(dueVictim))
    expect(session?.user?.email).toBe("ada@example.com")
    expect(session?.error).toBeUndefined()
    expect(idp().refreshGrants()).toBe(grants)
    expect(await tokensSetBy(setCookies)).toBeUndefined()
    dueVictim.acceptCookies(ORIGIN, setCookies)
    expect(dueVictim.cookies(ORIGIN).has(TOKEN_COOKIE)).toBe(false)
    expect((await sealedClaims(dueVictim))["latchkey.tokens"]).toBe(":corp")
    const seen = await site.getAccessToken(requestFrom(dueVictim), "corp")
    expect(seen).toBeNull()
    expect(seen).not.toBe(attackerTokens.access_token)
  })

  it("a token cookie older than the session (its write was lost) is no tokens, and its rotated refresh token is not replayed", async () => {
    const { site, browser } = await signedIn(idp(), ON)
    const old = jarOf(browser)[TOKEN_COOKIE]!
    await browser.open(`${ORIGIN}/auth/session`)
    const grants = idp().refreshGrants()
    const refused = idp().refusedRefreshes().length
    const mixed = withCookie(requestFrom(browser), TOKEN_COOKIE, old)
    expect(await site.getAccessToken(mixed, "corp")).toBeNull()
    expect(idp().refreshGrants()).toBe(grants)
    expect(idp().refusedRefreshes().slice(refused)).toEqual([])
  })

  it("a missing token cookie is no tokens: the session reads on, and the next write drops the claim's expiry", async () => {
    const { site, browser } = await signedIn(idp(), ON)
    const missing = withCookie(requestFrom(browser), TOKEN_COOKIE, undefined)
    const grants = idp().refreshGrants()
    expect((await site.auth(missing.clone()))?.user?.email).toBe("ada@example.com")
    expect(await site.getAccessToken(missing.clone(), "corp")).toBeNull()
    const { session, setCookies } = await sessionRead(site, missing.clone())
    expect(session?.error).toBeUndefined()
    expect(idp().refreshGrants()).toBe(grants)
    expect(setCookies.some((line) => line.startsWith(`${TOKEN_COOKIE}=`))).toBe(false)
    browser.acceptCookies(ORIGIN, setCookies)
    expect((await sealedClaims(browser))["latchkey.tokens"]).toBe(":corp")
  })

  it("is removed on sign-out and whenever the session is cleared", async () => {
    const signedOut = await signedIn(idp(), ON)
    expect(signedOut.browser.cookies(ORIGIN).has(TOKEN_COOKIE)).toBe(true)
    await post(signedOut.browser, "/auth/signout", { csrfToken: await csrfOf(signedOut.browser) })
    expect([...signedOut.browser.cookies(ORIGIN).keys()].filter((name) => name.includes("session-token") || name.includes("provider-tokens"))).toEqual([])

    let ended = false
    const { site, browser } = await signedIn(idp(), { ...ON, callbacks: { jwt: ({ token }) => (ended ? null : token) } })
    ended = true
    const { session, setCookies } = await sessionRead(site, requestFrom(browser))
    expect(session).toBeNull()
    expect(setCookies.some((line) => line.startsWith(`${TOKEN_COOKIE}=;`) && /max-age=0/i.test(line))).toBe(true)
  })

  it("is renamed by the cookies option, takes a __Host- session cookie's prefix and attributes, and refuses what browsers would drop", async () => {
    const renamed = await signedIn(idp(), { ...ON, cookies: { providerTokens: { name: "__Secure-app.provider-tokens" } } })
    expect(renamed.browser.cookies(ORIGIN).has("__Secure-app.provider-tokens")).toBe(true)
    expect(renamed.browser.cookies(ORIGIN).has(TOKEN_COOKIE)).toBe(false)
    expect(await renamed.site.getAccessToken(requestFrom(renamed.browser), "corp")).toEqual(expect.any(String))

    const site = secureApp({ providers: [idp().provider()], ...ON, cookies: { sessionToken: { name: "__Host-app.session", options: { sameSite: "strict" } } } })
    const browser = site.browser()
    const csrfToken = await csrfOf(browser)
    const cookie = requestFrom(browser).headers.get("cookie")!
    const started = await site.handler(new Request(`${ORIGIN}/auth/signin/corp`, { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken }) }))
    browser.acceptCookies(ORIGIN, started.headers.getSetCookie())
    const { request } = await browser.navigate(started.headers.get("location")!, `${ORIGIN}/auth/callback/corp`)
    const callback = await site.handler(request)
    const written = callback.headers.getSetCookie()
    const line = written.find((value) => value.startsWith("__Host-latchkey.provider-tokens="))
    expect(line).toBeDefined()
    expect(line).toMatch(/; Path=\//)
    expect(line).toMatch(/SameSite=Strict/i)
    expect(line).not.toMatch(/Domain=/i)
    expect(line).toMatch(/Max-Age=2592000/)

    for (const cookies of [{ providerTokens: { name: "__Host-app.tokens", options: { domain: "example.com" } } }, { providerTokens: { name: "bad name" } }, { sessionToken: { options: { domain: "example.com" } }, providerTokens: { name: "__Host-app.tokens" } }]) {
      expect(() => secureApp({ providers: [idp().provider()], ...ON, cookies })).toThrow(expect.objectContaining({ code: "ERR_INVALID_OPTION" }))
    }
  })

  it("is chunked like the session cookie when the provider's tokens are large, and every chunk is removed on sign-out", async () => {
    // A provider whose access tokens are long JWTs (as Microsoft Entra ID's are): the sign-in's is padded.
    const long = `eyJ${"a".repeat(6000)}`
    const padded: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (!String(input).endsWith("/token") || !response.ok) return response
      const body = (await response.json()) as Record<string, unknown>
      return Response.json({ ...body, access_token: long }, { status: response.status })
    }
    const { site, browser } = await signedIn(idp(), { providerTokens: providerTokens({ refresh: true, signOut: { idTokenHint: true } }), fetch: padded })
    const names = [...browser.cookies(ORIGIN).keys()].filter((name) => name.startsWith(`${TOKEN_COOKIE}.`))
    expect(names.sort()).toEqual([`${TOKEN_COOKIE}.0`, `${TOKEN_COOKIE}.1`, `${TOKEN_COOKIE}.2`])
    expect(browser.cookies(ORIGIN).has(TOKEN_COOKIE)).toBe(false)
    // The session cookie stays whole and small.
    expect(jarOf(browser)["__Secure-authjs.session-token"]!.length).toBeLessThan(1024)
    expect(await site.getAccessToken(requestFrom(browser), "corp")).toBe(long)
    await post(browser, "/auth/signout", { csrfToken: await csrfOf(browser) })
    expect([...browser.cookies(ORIGIN).keys()].filter((name) => name.includes("provider-tokens"))).toEqual([])
  })
})
