// Review 6: provider tokens (latchkey/provider-tokens) and the OAuth callback, against a real
// oidc-provider that rotates refresh tokens (test/tokens/support.ts). Every test here is a repro of
// a defect: it fails on the code as reviewed, and says what the right behaviour is.
import { describe, expect, it } from "vitest"
import type { Adapter, AdapterAccount } from "../../src/adapters/adapter.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { createAuth } from "../../src/handler/index.js"
import { providerTokens } from "../../src/provider-tokens/index.js"
import { gatedFetch, refreshingProvider, requestFrom, signedIn } from "../tokens/support.js"
import { ORIGIN, SECRET } from "./support.js"

const idp = refreshingProvider()

const quietLogger = { error: () => {}, warn: () => {}, debug: () => {} }

describe("database sessions: the account row and the refresh", () => {
  // BUG (medium): a refresh whose write-back fails is still remembered as the outcome "someone
  // else already stored". src/provider-tokens/account-refresh.ts:105-121 logs the failed write,
  // while the coordinator (refresh-flight.ts:109,153 `share`) has already remembered the outcome
  // under the consumed refresh token's hash; every later read of the (still old) row then gets
  // `shared: true` (account-refresh.ts:104) and skips the write. The row keeps a refresh token the
  // provider has already rotated away, served from this process's memory only: after a restart, on
  // another instance, or once the memory expires (5 min .. 24 h), the used refresh token is
  // replayed, and a rotating provider (oidc-provider, Auth0, Okta) answers invalid_grant and revokes
  // the whole grant: the user's provider tokens end (RefreshTokenError) for a transient DB error.
  // Right: a read that finds the row still holding the consumed refresh token writes the successor
  // (only the writer's own failure should be retried; `shared` must not mean "stored" when the
  // store failed), so the row ends up with the live refresh token.
  it("a failed write-back of a refreshed token is retried, not left with the consumed refresh token", async () => {
    const base = memoryAdapter()
    let failNext = false
    const adapter: Adapter = {
      ...base,
      updateAccount(account) {
        if (failNext) {
          failNext = false
          throw new Error("connection reset")
        }
        return base.updateAccount!(account)
      },
    }
    const config = { adapter, logger: quietLogger, providerTokens: providerTokens({ refresh: true }), session: { strategy: "database" as const } }
    const { site, browser } = await signedIn(idp(), config)
    const row = () => [...base.accounts.values()].find((account) => account.provider === "corp") as AdapterAccount
    const consumed = row().refresh_token
    failNext = true
    // The first read refreshes (the sign-in's token is due at once); its write fails.
    const first = await site.getAccessToken(requestFrom(browser), "corp")
    expect(first).toEqual(expect.any(String))
    // Later reads in this process get the successor from memory...
    expect(await site.getAccessToken(requestFrom(browser), "corp")).toBe(first)
    // ...but the row must not still hold the refresh token the provider already rotated away.
    expect(row().refresh_token).not.toBe(consumed)
    // The harm: another instance (or this one after a restart) reads the row and must still have tokens.
    const other = createAuth({ secret: SECRET, env: { AUTH_URL: `${ORIGIN}/auth` }, providers: [idp().provider()], ...config })
    const refusedBefore = idp().refusedRefreshes().length
    const session = (await other.auth(requestFrom(browser))) as unknown as Record<string, unknown> | null
    expect(idp().refusedRefreshes().slice(refusedBefore)).toEqual([])
    expect(session?.error).toBeUndefined()
  })

  // BUG (medium): with an Auth.js adapter that has no `updateAccount` (the documented path: "latchkey
  // unlinks the account and links it again"), a refresh that lands after the user was deleted (or
  // after unlinkAccount removed the row) re-creates the account row with fresh provider tokens.
  // src/provider-tokens/account-refresh.ts:53-65 (`writeAccount`) runs unlinkAccount + linkAccount
  // on the row as it was read before the refresh, without checking that it still exists; deleteUser
  // (src/handler/accounts.ts:141) and unlinkAccount (accounts.ts:123) do not stop refreshes in flight.
  // The deleted user's live refresh token is then stored again (an orphan row the app believes
  // gone: a "disconnect Google" / GDPR delete that silently keeps the grant).
  // Right: write back only into a row that still exists (e.g. getAccount / getUserByAccount first,
  // or updateAccount semantics "no row, no write"), and never link a row that was removed meanwhile.
  it("a refresh in flight while the user is deleted does not re-create their account row (adapter without updateAccount)", async () => {
    const base = memoryAdapter()
    const { updateAccount: _dropped, ...authjsLike } = base
    const adapter: Adapter = authjsLike
    const gate = gatedFetch()
    const config = { adapter, fetch: gate.fetch, logger: quietLogger, providerTokens: providerTokens({ refresh: true }), session: { strategy: "database" as const } }
    const { site, browser } = await signedIn(idp(), config)
    const userId = [...base.accounts.values()].find((account) => account.provider === "corp")!.userId
    gate.hold()
    // A read starts the refresh (the sign-in's token is due); the provider is slow.
    const reading = site.auth(requestFrom(browser)).catch(() => null)
    await gate.arrived
    // Meanwhile the user deletes their account.
    await site.deleteUser(userId)
    expect([...base.accounts.values()].filter((account) => account.userId === userId)).toEqual([])
    gate.release()
    await reading
    // Right: the deleted user's account stays deleted, with no provider tokens stored anywhere.
    expect([...base.accounts.values()].filter((account) => account.userId === userId)).toEqual([])
  })
})

describe("the OAuth callback", () => {
  // BUG (low): an unauthenticated callback destroys the sign-in in flight. src/oauth/finish.ts:132-136
  // throws OAuthCallbackError for any `?error=` before a check is read (RFC 6749 §4.1.2.1 binds an
  // error response to `state`; oauth4webapi's validateAuthResponse, which Auth.js uses, checks state
  // first, and Auth.js reads the pkce cookie only after it), and src/handler/callback.ts:54
  // answers every failed callback by clearing all of the pkce/state/nonce cookies. So a third-party
  // page that navigates the victim to `/auth/callback/corp?error=access_denied` (a top-level GET:
  // SameSite=Lax cookies go along) while the victim is at the provider's login page silently kills
  // the victim's sign-in: when the victim comes back with a valid code, the PKCE verifier is gone and
  // the sign-in fails (InvalidCheck). The same happens with two tabs: the stale callback of the
  // first sign-in destroys the second one's checks.
  // Right: a callback that is not bound to the flow in flight (an error without the matching state,
  // a state mismatch) is refused without touching its check cookies; only a callback that got as
  // far as the code exchange (or a matched state) consumes them.
  it("attack: a forged ?error= callback without state does not abort the victim's sign-in in flight", async () => {
    const site = createAuth({ secret: SECRET, env: { AUTH_URL: `${ORIGIN}/auth` }, providers: [idp().provider()], logger: quietLogger })
    const { TestBrowser } = await import("../servers/browser.js")
    const dispatch: typeof fetch = async (input, init) => {
      const url = new URL(String(input))
      if (url.origin === ORIGIN) return url.pathname.startsWith("/auth") ? site.handler(new Request(url, init as RequestInit)) : new Response("app page")
      return fetch(input, init)
    }
    const browser = new TestBrowser(undefined, dispatch)
    const { response: csrfResponse } = await browser.open(`${ORIGIN}/auth/csrf`)
    const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string }
    // The victim starts signing in and is now at the provider (the hop back to the app not yet taken).
    const started = await site.handler(
      new Request(`${ORIGIN}/auth/signin/corp`, {
        method: "POST",
        headers: { cookie: [...browser.cookies(ORIGIN)].map(([name, value]) => `${name}=${value}`).join("; "), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken }),
      })
    )
    browser.acceptCookies(ORIGIN, started.headers.getSetCookie())
    const { request: callback } = await browser.navigate(started.headers.get("location")!, `${ORIGIN}/auth/callback/corp`)
    expect(new URL(callback.url).searchParams.get("code")).toEqual(expect.any(String))
    // A third-party page navigates the victim's browser to a forged error callback (no state).
    await browser.open(`${ORIGIN}/auth/callback/corp?error=access_denied`)
    // The victim's real callback arrives with the provider's code and the right state.
    const { url } = await browser.open(callback.url)
    expect(url.href).toBe(`${ORIGIN}/`)
    expect(browser.cookies(ORIGIN).has("__Secure-authjs.session-token")).toBe(true)
  })
})

describe("JWT sessions: the token cookie and the account it came from", () => {
  // BUG (medium): unlinkAccount does not end the provider tokens a JWT session keeps for that
  // account. With JWT sessions and an adapter, the token cookie (src/provider-tokens/jwt-session.ts)
  // is the only home of the tokens; src/handler/accounts.ts:123-140 (`unlinkAccount`) removes the
  // row but nothing marks the session's `latchkey.tokens` claim or its token cookie, and
  // `accessTokenOf` (src/provider-tokens/access-token.ts:41-50) / `refreshedClaim`
  // (jwt-session.ts:230-245) never ask whether the account is still linked. A user who clicks
  // "Disconnect Corp" keeps having the app call Corp's API on their behalf, and the refresh token of
  // the unlinked account keeps being refreshed (and re-issued into the cookie) for the whole
  // session lifetime. Right: after unlinkAccount of the account a JWT session holds tokens for,
  // getAccessToken(request, thatProvider) answers null and no refresh runs with its refresh token
  // (e.g. check the account still exists before a refresh or a hand-out when an adapter is
  // configured, or record the unlink so the next read drops the claim; optionally revoke).
  it("after unlinkAccount, getAccessToken no longer hands out (or refreshes) the unlinked account's token", async () => {
    const adapter = memoryAdapter()
    const email = { id: "email", name: "Email", type: "email" as const, from: "auth@example.com", sendVerificationRequest: () => {} }
    const { site, browser } = await signedIn(idp(), { adapter, session: { strategy: "jwt" }, logger: quietLogger, providers: [idp().provider(), email], providerTokens: providerTokens({ refresh: true }) })
    const account = [...adapter.accounts.values()].find((row) => row.provider === "corp")!
    expect(await site.getAccessToken(requestFrom(browser), "corp")).toEqual(expect.any(String))
    // The user disconnects Corp (they can still sign in by email).
    await site.unlinkAccount(requestFrom(browser), { provider: "corp", providerAccountId: account.providerAccountId })
    expect([...adapter.accounts.values()].some((row) => row.provider === "corp")).toBe(false)
    const grants = idp().refreshGrants()
    expect(await site.getAccessToken(requestFrom(browser), "corp")).toBeNull()
    expect(idp().refreshGrants()).toBe(grants)
  })
})
