// Provider tokens kept fresh in JWT sessions, against a real oidc-provider that rotates refresh
// tokens: one refresh however many reads race, both cookies re-issued by the routes that can write
// them, a stale cookie pair that never replays a rotated refresh token, a refused refresh token
// ending the tokens without an exception, and a provider that cannot be reached leaving the old
// token. The session token carries only "<expires_at>:<provider>"; the token set is in the token
// cookie (see token-cookie.test.ts for how it is bound to the session).
import { describe, expect, it } from "vitest"
import { memoryRefreshStore } from "../../src/provider-tokens/refresh-store.js"
import { revokeToken } from "../../src/oauth/tokens.js"
import { csrfOf, ORIGIN, secureApp } from "../security/support.js"
import { refreshingProvider, requestFrom, sealedClaims, sealedTokens, sessionRead, sessionTokenHash, signedIn, SIGN_IN_TOKEN_TTL, TOKEN_COOKIE, tokensSetBy } from "./support.js"
import { providerTokens } from "../../src/provider-tokens/index.js"

const idp = refreshingProvider()
const ON = { providerTokens: providerTokens({ refresh: true }) }

describe("JWT sessions with refreshProviderTokens", () => {
  it("50 concurrent reads (auth(), GET /session, getAccessToken) of a due session make one refresh, and all see the new token", async () => {
    const { site, browser } = await signedIn(idp(), ON)
    const before = await sealedTokens(browser)
    expect(before.expires_at - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(SIGN_IN_TOKEN_TTL)
    const grants = idp().refreshGrants()
    const refused = idp().refusedRefreshes().length
    const request = requestFrom(browser)
    const reads = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 3 === 0 ? site.auth(request.clone()) : i % 3 === 1 ? sessionRead(site, request.clone()) : site.getAccessToken(request.clone(), "corp")
      )
    )
    expect(reads).toHaveLength(50)
    expect(idp().refreshGrants() - grants).toBe(1)
    expect(idp().refusedRefreshes().slice(refused)).toEqual([])
    const seen: unknown[] = []
    for (const read of reads) {
      if (typeof read === "string") seen.push(read)
      else if (read && "setCookies" in read) {
        expect(read.session?.error).toBeUndefined()
        seen.push((await tokensSetBy(read.setCookies))?.access_token)
      } else expect(read).toMatchObject({ user: { email: "ada@example.com" } })
    }
    expect(seen.length).toBe(33)
    expect(new Set(seen).size).toBe(1)
    const [fresh] = seen
    expect(typeof fresh).toBe("string")
    expect(fresh).not.toBe(before.access_token)
  })

  it("GET /session re-issues both cookies with the rotated refresh token, and the new pair needs no refresh", async () => {
    const { site, browser } = await signedIn(idp(), ON)
    const before = await sealedTokens(browser)
    const grants = idp().refreshGrants()
    const { response } = await browser.open(`${ORIGIN}/auth/session`)
    const written = response.headers.getSetCookie()
    expect(written.some((line) => line.startsWith("__Secure-authjs.session-token="))).toBe(true)
    expect(written.some((line) => line.startsWith(`${TOKEN_COOKIE}=`))).toBe(true)
    const after = await sealedTokens(browser)
    expect(after.refresh_token).not.toBe(before.refresh_token)
    expect(after.access_token).not.toBe(before.access_token)
    expect(after.expires_at).toBeGreaterThan(Math.floor(Date.now() / 1000) + 600)
    // The session holds only what a read needs to decide; the token cookie is bound to the new session token.
    expect((await sealedClaims(browser))["latchkey.tokens"]).toBe(`${after.expires_at}:corp`)
    expect(after.session).toBe(await sessionTokenHash(browser))
    expect(after.session).not.toBe(before.session)
    await site.auth(requestFrom(browser))
    expect(await site.getAccessToken(requestFrom(browser), "corp")).toBe(after.access_token)
    expect(idp().refreshGrants() - grants).toBe(1)
  })

  it("a stale cookie pair read after a rotation gets the successor and never replays the rotated refresh token", async () => {
    const { site, browser } = await signedIn(idp(), ON)
    const stale = requestFrom(browser)
    const grants = idp().refreshGrants()
    const refused = idp().refusedRefreshes().length
    const first = await site.getAccessToken(stale.clone(), "corp")
    expect(typeof first).toBe("string")
    // The browser's cookies are re-issued elsewhere; this request still carries the old pair.
    await browser.open(`${ORIGIN}/auth/session`)
    expect((await sealedTokens(browser)).access_token).toBe(first)
    for (let i = 0; i < 3; i++) {
      expect((await site.auth(stale.clone()))?.user?.email).toBe("ada@example.com")
      expect(await site.getAccessToken(stale.clone(), "corp")).toBe(first)
    }
    expect((await tokensSetBy((await sessionRead(site, stale.clone())).setCookies))?.access_token).toBe(first)
    expect(idp().refreshGrants() - grants).toBe(1)
    // A replay would have been refused, and would have revoked the grant (so the next refresh fails too).
    expect(idp().refusedRefreshes().slice(refused)).toEqual([])
  })

  it("another instance sharing the store finds the successor of a stale cookie pair instead of replaying it", async () => {
    const store = memoryRefreshStore()
    const { site, browser } = await signedIn(idp(), { providerTokens: providerTokens({ refresh: { store } }) })
    const stale = requestFrom(browser)
    const grants = idp().refreshGrants()
    const refused = idp().refusedRefreshes().length
    const first = await site.getAccessToken(stale.clone(), "corp")
    const other = secureApp({ providers: [idp().provider()], providerTokens: providerTokens({ refresh: { store } }) })
    expect(await other.getAccessToken(stale.clone(), "corp")).toBe(first)
    expect(idp().refreshGrants() - grants).toBe(1)
    expect(idp().refusedRefreshes().slice(refused)).toEqual([])
  })

  it("a revoked refresh token gives error RefreshTokenError in the session, without an exception, and drops the tokens", async () => {
    const { site, browser } = await signedIn(idp(), ON)
    const { refresh_token } = await sealedTokens(browser)
    await revokeToken(idp().provider(), refresh_token, { tokenTypeHint: "refresh_token" })
    const refusedBefore = idp().refusedRefreshes().length
    const request = requestFrom(browser)
    const session = (await site.auth(request.clone())) as unknown as Record<string, any>
    expect(session.error).toBe("RefreshTokenError")
    expect(session.user).toMatchObject({ email: "ada@example.com" })
    expect(idp().refusedRefreshes().slice(refusedBefore)).toEqual(["invalid_grant"])
    expect(await site.getAccessToken(request.clone(), "corp")).toBeNull()
    // The refusal is remembered: the stale cookie does not ask the provider again.
    const { session: json, setCookies } = await sessionRead(site, request.clone())
    expect(json?.error).toBe("RefreshTokenError")
    expect(idp().refusedRefreshes().length - refusedBefore).toBe(1)
    // The session written back keeps the verdict; the token cookie is removed.
    browser.acceptCookies(ORIGIN, setCookies)
    expect((await sealedClaims(browser))["latchkey.tokens"]).toBe("!:corp")
    expect(browser.cookies(ORIGIN).has(TOKEN_COOKIE)).toBe(false)
  })

  it("a provider that cannot be reached is tried twice, then the old token is kept and a coded line logged without it", async () => {
    let attempts = 0
    const warnings: unknown[][] = []
    const unreachable: typeof fetch = async (input, init) => {
      const body = typeof init?.body === "string" ? init.body : init?.body instanceof URLSearchParams ? init.body.toString() : ""
      if (String(input).endsWith("/token") && body.includes("grant_type=refresh_token")) {
        attempts++
        throw new TypeError("fetch failed")
      }
      return fetch(input, init)
    }
    const { site, browser } = await signedIn(idp(), { ...ON, fetch: unreachable, logger: { warn: (...args) => warnings.push(args) } })
    const old = await sealedTokens(browser)
    const session = (await site.auth(requestFrom(browser))) as unknown as Record<string, any>
    expect(attempts).toBe(2)
    expect(session.error).toBeUndefined()
    // Held back for a few seconds after the failure: the old token, and no third attempt.
    expect(await site.getAccessToken(requestFrom(browser), "corp")).toBe(old.access_token)
    expect(attempts).toBe(2)
    const failure = warnings.find(([code]) => code === "ERR_REFRESH_FAILED")
    expect(failure).toBeDefined()
    const logged = JSON.stringify(warnings)
    for (const secret of [old.access_token, old.refresh_token]) expect(logged).not.toContain(secret)
  })

  it("a 5xx from the token endpoint is retried once, and the retry's tokens are used", async () => {
    let attempts = 0
    const flaky: typeof fetch = async (input, init) => {
      const body = typeof init?.body === "string" ? init.body : init?.body instanceof URLSearchParams ? init.body.toString() : ""
      if (String(input).endsWith("/token") && body.includes("grant_type=refresh_token") && attempts++ === 0) {
        return Response.json({ error: "temporarily_unavailable" }, { status: 503 })
      }
      return fetch(input, init)
    }
    const { site, browser } = await signedIn(idp(), { ...ON, fetch: flaky })
    const old = await sealedTokens(browser)
    const grants = idp().refreshGrants()
    const token = await site.getAccessToken(requestFrom(browser), "corp")
    expect(attempts).toBe(2)
    expect(idp().refreshGrants() - grants).toBe(1)
    expect(token).toEqual(expect.any(String))
    expect(token).not.toBe(old.access_token)
  })

  it("keeps and refreshes only the providers listed, and refuses options that cannot work", async () => {
    const { site, browser } = await signedIn(idp(), { providerTokens: providerTokens({ refresh: { providers: ["google"] } }) })
    expect((await sealedClaims(browser))["latchkey.tokens"]).toBe(":corp")
    expect(browser.cookies(ORIGIN).has(TOKEN_COOKIE)).toBe(false)
    const grants = idp().refreshGrants()
    expect(await site.getAccessToken(requestFrom(browser), "corp")).toBeNull()
    expect(idp().refreshGrants()).toBe(grants)
    for (const refresh of [{ skew: -1 }, { skew: 1.5 }, { providers: "corp" }, { store: {} }] as never[]) {
      expect(() => secureApp({ providers: [idp().provider()], providerTokens: providerTokens({ refresh }) })).toThrow(expect.objectContaining({ code: "ERR_INVALID_OPTION" }))
    }
  })

  it("a shared store that fails leaves the read standing on the old token, logged without it", async () => {
    const errors: Error[] = []
    const broken = {
      acquire: async () => Promise.reject(new Error("ECONNREFUSED 127.0.0.1:6379")),
      release: async () => {},
      put: async () => {},
      get: async () => Promise.reject(new Error("ECONNREFUSED 127.0.0.1:6379")),
    }
    const { site, browser } = await signedIn(idp(), { providerTokens: providerTokens({ refresh: { store: broken } }), logger: { error: (error) => errors.push(error) } })
    const old = await sealedTokens(browser)
    const grants = idp().refreshGrants()
    expect(await site.getAccessToken(requestFrom(browser), "corp")).toBe(old.access_token)
    expect(idp().refreshGrants()).toBe(grants)
    expect(errors).toHaveLength(1)
    expect(errors[0]!.message).toMatch(/refresh store failed/)
    expect(JSON.stringify([errors[0]!.message, errors[0]!.cause])).not.toContain(old.refresh_token)
  })

  it("getAccessToken returns the fresh access token, and null for another provider or no session", async () => {
    const { site, browser } = await signedIn(idp(), ON)
    const old = await sealedTokens(browser)
    const grants = idp().refreshGrants()
    const token = await site.getAccessToken(requestFrom(browser), "corp")
    expect(typeof token).toBe("string")
    expect(token).not.toBe(old.access_token)
    expect(idp().refreshGrants() - grants).toBe(1)
    expect(await site.getAccessToken(requestFrom(browser), "github")).toBeNull()
    expect(await site.getAccessToken(new Request(`${ORIGIN}/dashboard`), "corp")).toBeNull()
  })

  it("callbacks and the session never see a provider token, and a callback cannot forge the claim", async () => {
    const seen: unknown[] = []
    const { site, browser } = await signedIn(idp(), {
      providerTokens: providerTokens({ refresh: true, signOut: { idTokenHint: true } }),
      callbacks: {
        jwt: ({ token }) => {
          seen.push(token)
          return { ...token, ["latchkey.tokens"]: `0:forged` }
        },
        session: ({ session, token }) => {
          seen.push(token)
          return { ...session, token } as never
        },
      },
    })
    const sealed = await sealedTokens(browser)
    expect(typeof sealed.id_token).toBe("string")
    expect(sealed.provider).toBe("corp")
    const session = await site.auth(requestFrom(browser))
    const { session: json, setCookies } = await sessionRead(site, requestFrom(browser))
    const visible = JSON.stringify([seen, session, json])
    expect(seen.length).toBeGreaterThan(0)
    for (const secret of [sealed.access_token, sealed.refresh_token, sealed.id_token, sealed.session]) expect(visible).not.toContain(secret)
    expect(visible).toContain('"latchkey.tokens":{"provider":"corp","expires_at":')
    // What the jwt callback returned under the reserved claim is not what is kept.
    browser.acceptCookies(ORIGIN, setCookies)
    const kept = await sealedTokens(browser)
    expect((await sealedClaims(browser))["latchkey.tokens"]).toBe(`${kept.expires_at}:corp`)
    expect(kept.session).toBe(await sessionTokenHash(browser))
  })
})

describe("JWT sessions with the switch off (the default)", () => {
  it("seal no provider tokens, write no token cookie, never refresh, and read as before", async () => {
    const { site, browser } = await signedIn(idp(), {})
    const grants = idp().refreshGrants()
    const claims = await sealedClaims(browser)
    expect(Object.keys(claims).sort()).toEqual(["email", "exp", "iat", "jti", "latchkey.browser", "latchkey.version", "name", "picture", "sub"])
    expect([...browser.cookies(ORIGIN).keys()].filter((name) => name.includes("provider-tokens"))).toEqual([])
    const session = await site.auth(requestFrom(browser))
    expect(Object.keys(session ?? {}).sort()).toEqual(["expires", "user"])
    const { session: json, setCookies } = await sessionRead(site, requestFrom(browser))
    expect(json).toEqual(session)
    expect(setCookies).toEqual([])
    const csrfToken = await csrfOf(browser)
    const signOut = await site.handler(
      new Request(`${ORIGIN}/auth/signout`, { method: "POST", headers: { cookie: requestFrom(browser).headers.get("cookie")!, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken }) })
    )
    const cleared = signOut.headers.getSetCookie()
    expect(cleared.some((line) => line.startsWith("__Secure-authjs.session-token=;"))).toBe(true)
    expect(cleared.some((line) => line.includes("provider-tokens"))).toBe(false)
    expect(idp().refreshGrants()).toBe(grants)
    expect("getAccessToken" in site).toBe(false)
  })
})
