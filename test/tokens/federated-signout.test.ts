// Federated sign-out against a real oidc-provider: POST /signout with federated=true ends the
// provider's session through its end_session_endpoint (a silent authorize then needs a login
// again), the post-logout redirect is held to the app's origin whatever the form says, the
// id_token is sent as a hint only when the app keeps it, a provider without an end-session
// endpoint signs out locally, and revokeTokens revokes the refresh token at the provider.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getToken } from "../../src/jwt/get-token.js"
import { refreshTokens } from "../../src/oauth/tokens.js"
import type { TestBrowser } from "../servers/browser.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { csrfOf, ORIGIN, post, SECRET } from "../security/support.js"
import { refreshingProvider, requestFrom, sealedTokens, signedIn, TOKEN_COOKIE } from "./support.js"
import { providerTokens } from "../../src/provider-tokens/index.js"

const idp = refreshingProvider()
const CALLBACK = `${ORIGIN}/auth/callback/corp`

/** A silent authorization request (prompt=none): a code while the provider session lives, login_required after. */
async function silentAuthorize(browser: TestBrowser, issuer: string): Promise<URLSearchParams> {
  const url = new URL(`${issuer}/auth`)
  for (const [name, value] of Object.entries({ client_id: "app", response_type: "code", redirect_uri: CALLBACK, scope: "openid", prompt: "none", state: "s" })) url.searchParams.set(name, value)
  const { request } = await browser.navigate(url, CALLBACK)
  return new URL(request.url).searchParams
}

/** The Location the handler answers a sign-out form with, not followed. */
async function signOutLocation(site: Awaited<ReturnType<typeof signedIn>>["site"], browser: TestBrowser, fields: Record<string, string>): Promise<URL> {
  const csrfToken = await csrfOf(browser)
  const cookie = [...browser.cookies(ORIGIN)].map(([name, value]) => `${name}=${value}`).join("; ")
  const response = await site.handler(
    new Request(`${ORIGIN}/auth/signout`, { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken, ...fields }) })
  )
  expect(response.status).toBe(302)
  return new URL(response.headers.get("location")!)
}

describe("federated sign-out", () => {
  it("ends the provider session: a new authorize request needs the login page again", async () => {
    const { browser } = await signedIn(idp(), { providerTokens: providerTokens({ signOut: { federated: true, idTokenHint: true } }) })
    expect((await silentAuthorize(browser, idp().server.issuer)).get("code")).toEqual(expect.any(String))
    const { url } = await post(browser, "/auth/signout", { csrfToken: await csrfOf(browser) })
    expect(url.href).toBe(`${ORIGIN}/`)
    expect(browser.cookies(ORIGIN).has("__Secure-authjs.session-token")).toBe(false)
    const after = await silentAuthorize(browser, idp().server.issuer)
    expect(after.get("code")).toBeNull()
    expect(after.get("error")).toBe("login_required")
  })

  it("without federated (the default), the provider session lives on", async () => {
    const { browser } = await signedIn(idp(), {})
    const { url } = await post(browser, "/auth/signout", { csrfToken: await csrfOf(browser) })
    expect(url.href).toBe(`${ORIGIN}/`)
    expect((await silentAuthorize(browser, idp().server.issuer)).get("code")).toEqual(expect.any(String))
  })

  it("sends client_id, the id_token as a hint only when the app keeps it, and the same-origin destination", async () => {
    const kept = await signedIn(idp(), { providerTokens: providerTokens({ signOut: { federated: true, idTokenHint: true } }) })
    const idToken = (await sealedTokens(kept.browser)).id_token
    expect(typeof idToken).toBe("string")
    const withHint = await signOutLocation(kept.site, kept.browser, { callbackUrl: `${ORIGIN}/bye` })
    expect(`${withHint.origin}${withHint.pathname}`).toBe(`${idp().server.issuer}/session/end`)
    expect(Object.fromEntries(withHint.searchParams)).toEqual({ client_id: "app", post_logout_redirect_uri: `${ORIGIN}/bye`, id_token_hint: idToken })

    const plain = await signedIn(idp(), { providerTokens: providerTokens({ signOut: { federated: true } }) })
    const sealedPlain = await getToken({ req: requestFrom(plain.browser), secret: SECRET, secureCookie: true })
    expect(sealedPlain?.["latchkey.tokens"]).toBe(":corp")
    expect(plain.browser.cookies(ORIGIN).has(TOKEN_COOKIE)).toBe(false)
    const withoutHint = await signOutLocation(plain.site, plain.browser, {})
    expect(withoutHint.searchParams.has("id_token_hint")).toBe(false)
    expect(withoutHint.searchParams.get("post_logout_redirect_uri")).toBe(`${ORIGIN}/`)
  })

  it("attack: a sign-out form cannot point the post-logout redirect off the app's origin", async () => {
    const { site, browser } = await signedIn(idp(), { providerTokens: providerTokens({ signOut: { federated: true } }) })
    for (const callbackUrl of ["https://evil.example/phish", "//evil.example/", "/\\evil.example", "https://app.example.com.evil.example/"]) {
      const location = await signOutLocation(site, browser, { callbackUrl })
      expect(location.origin).toBe(new URL(idp().server.issuer).origin)
      expect(new URL(location.searchParams.get("post_logout_redirect_uri")!).origin).toBe(ORIGIN)
    }
  })

  it("the form's federated=false overrides the config default", async () => {
    const { site, browser } = await signedIn(idp(), { providerTokens: providerTokens({ signOut: { federated: true } }) })
    const location = await signOutLocation(site, browser, { federated: "false" })
    expect(location.href).toBe(`${ORIGIN}/`)
  })

  it("revokeTokens revokes the refresh token at the provider", async () => {
    const { browser } = await signedIn(idp(), { providerTokens: providerTokens({ refresh: true, signOut: { revokeTokens: true } }) })
    const refreshToken = (await sealedTokens(browser)).refresh_token
    expect(typeof refreshToken).toBe("string")
    await post(browser, "/auth/signout", { csrfToken: await csrfOf(browser) })
    // Sign-out removes the token cookie with the session.
    expect([...browser.cookies(ORIGIN).keys()].filter((name) => name.includes("session-token") || name.includes("provider-tokens"))).toEqual([])
    await expect(refreshTokens(idp().provider(), refreshToken)).rejects.toMatchObject({ code: "ERR_OAUTH_TOKEN", error: "invalid_grant" })
  })
})

describe("federated sign-out with a provider that has no end_session_endpoint", () => {
  let server: OidcServer | undefined
  beforeAll(async () => {
    server = await startOidcServer({
      clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [CALLBACK], grant_types: ["authorization_code"] }],
      configuration: { features: { devInteractions: { enabled: false }, revocation: { enabled: true }, rpInitiatedLogout: { enabled: false } } },
    })
  })
  afterAll(() => server?.close())

  it("signs out of the app only, and says so at debug", async () => {
    const debug: string[] = []
    const provider = { ...idp().provider(), issuer: server!.issuer }
    const { site, browser } = await signedIn({ ...idp(), provider: () => provider }, { providerTokens: providerTokens({ signOut: { federated: true } }), debug: true, logger: { debug: (message) => debug.push(message) } })
    const location = await signOutLocation(site, browser, {})
    expect(location.href).toBe(`${ORIGIN}/`)
    expect(debug.some((line) => line.includes("no end_session_endpoint"))).toBe(true)
  })
})
