// Round three's mutation survivors on the passkey routes: defences that existed but that no test
// failed without. Each is attacked here through createAuth's handler with the recorded passkey
// responses: another user's passkey through the management API, an assertion signed for the
// internal origin of an app behind a proxy, and the challenge cookie's lifetime.
import { describe, expect, it } from "vitest"
import { decode } from "../../src/jwt/decode.js"
import Passkey from "../../src/providers/passkey.js"
import { challengeCookieName, sealChallenge } from "../../src/webauthn/challenge.js"
import { TestBrowser } from "../servers/browser.js"
import { callback, csrfOf, fixtures, ORIGIN, passkeyApp, SECRET, sessionOf, signIn, signUp } from "./support.js"

const ada = fixtures.registrations.ada
const grace = fixtures.registrations.grace

/** A POST to the management API from `browser`, as an account page sends it. */
async function changePasskey(browser: TestBrowser, fields: Record<string, string>) {
  const { response } = await browser.open(`${ORIGIN}/auth/passkeys`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: await csrfOf(browser), ...fields }).toString(),
  })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

describe("the management API touches only the signed-in user's passkeys", () => {
  it("Grace can neither rename nor delete Ada's passkey: NotFound, and Ada's passkey is as it was and still signs her in", async () => {
    const app = passkeyApp()
    await signUp(app.browser(), "ada")
    const eve = app.browser()
    await signUp(eve, "grace")
    // Grace has a passkey of her own, so were the owner check gone, deleting Ada's would pass the last-method rule.
    expect(await changePasskey(eve, { action: "rename", id: ada.response.id, name: "pwned" })).toEqual({ status: 404, body: { error: "NotFound" } })
    expect(await changePasskey(eve, { action: "delete", id: ada.response.id })).toEqual({ status: 404, body: { error: "NotFound" } })
    const stored = await app.adapter.getAuthenticator(Buffer.from(ada.response.id, "base64url").toString("base64"))
    expect(stored).not.toBeNull()
    expect(stored?.name ?? null).toBeNull()
    const victim = app.browser()
    expect((await signIn(victim, "ada1")).status).toBe(200)
    expect((await sessionOf(victim))?.user.email).toBe(ada.email)
  })
})

/** Plants the challenge cookie an https app issues (`__Host-`), for a recorded assertion. */
async function plantSecureChallenge(browser: TestBrowser, challenge: string): Promise<void> {
  browser.acceptCookies(ORIGIN, await sealChallenge({ secret: [SECRET], secure: true }, { challenge, ceremony: "authenticate", provider: "passkey" }, 300))
}

describe("behind a proxy, the accepted origin is the app's public origin, not the request's", () => {
  // The recorded assertion was signed in a page on ORIGIN (http://localhost:47613): here that is the
  // internal address the proxy forwards to, while users reach the app at https://localhost.
  it.each([
    ["AUTH_URL names the public origin", { env: { AUTH_URL: "https://localhost/auth" } }, {}],
    ["trustHost with X-Forwarded-Host and -Proto", { env: {}, trustHost: true }, { "x-forwarded-host": "localhost", "x-forwarded-proto": "https" }],
  ])("%s: an assertion signed for the internal origin is refused (VerificationFailed)", async (_, changes, forwarded: Record<string, string>) => {
    const app = passkeyApp()
    await signUp(app.browser(), "ada")
    app.restart(changes)
    const proxied = new TestBrowser(undefined, async (input, init) => {
      const request = new Request(String(input), init as RequestInit)
      for (const [name, value] of Object.entries(forwarded)) request.headers.set(name, value)
      return app.handler(request)
    })
    await plantSecureChallenge(proxied, fixtures.assertions.ada1.challenge)
    const result = await callback(proxied, "authenticate", fixtures.assertions.ada1.response)
    expect([result.status, result.body]).toEqual([400, { error: "VerificationFailed" }])
    expect(app.refusals()).toContain("verification_failed")
    expect(result.response.headers.getSetCookie().some((line) => line.includes("session-token=") && !/max-age=0/i.test(line))).toBe(false)

    // The same assertion, on an app whose public origin is the one it was signed for, signs in.
    app.restart()
    expect((await signIn(app.browser(), "ada1")).status).toBe(200)
  })
})

describe("the challenge cookie lives exactly as long as the ceremony", () => {
  it.each([
    [300_000, 300],
    [120_000, 120],
    [1_500, 2],
  ])("timeout %i ms: Max-Age=%i, and the sealed challenge expires then too", async (timeout, seconds) => {
    const app = passkeyApp({ providers: [Passkey({ allowSignUp: true, timeout })] })
    for (const action of ["authenticate", "register&email=new%40example.com"]) {
      const browser = app.browser()
      const { response } = await browser.open(`${ORIGIN}/auth/webauthn-options/passkey?action=${action}`)
      const cookie = response.headers.getSetCookie().find((line) => line.startsWith(`${challengeCookieName(false)}=`))
      expect(cookie, action).toMatch(new RegExp(`; Max-Age=${seconds}(;|$)`, "i"))
      const sealed = await decode({ token: browser.cookies(ORIGIN).get(challengeCookieName(false))!, secret: SECRET, salt: challengeCookieName(false) })
      expect((sealed?.exp as number) - (sealed?.iat as number), action).toBe(seconds)
    }
  })
})
