// The passkey routes end to end through createAuth's handler, with real recorded responses: sign-up,
// sign-in, adding a passkey to the signed-in user, and the management API, with JWT and database
// sessions; the options route's own answer and cookie; start-up errors for a missing ceremony.
import { describe, expect, it } from "vitest"
import { createAuth, InvalidOptionError, InvalidProviderError } from "../../src/index.js"
import { challengeCookieName } from "../../src/webauthn/challenge.js"
import { decode } from "../../src/jwt/decode.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Passkey from "../../src/providers/passkey.js"
import { webauthn } from "../../src/webauthn/index.js"
import { callback, csrfOf, fixtures, ORIGIN, passkeyApp, plantChallenge, SECRET, sessionOf, signIn, signOut, signUp } from "./support.js"

const ada = fixtures.registrations.ada
const base64 = (base64url: string) => Buffer.from(base64url, "base64url").toString("base64")

describe.each(["jwt", "database"] as const)("passkeys with %s sessions", (strategy) => {
  it("signs up with a new passkey: a user, the Auth.js webauthn account and authenticator rows, and a session", async () => {
    const app = passkeyApp({}, strategy)
    const browser = app.browser()
    const { body } = await signUp(browser, "ada")
    expect(body.url).toBe(`${ORIGIN}/`)
    expect((await sessionOf(browser))?.user).toMatchObject({ email: "ada@example.com" })
    const [user] = [...app.adapter.users.values()]
    expect(user).toMatchObject({ email: "ada@example.com", emailVerified: null })
    const credentialID = base64(ada.response.id)
    expect(app.adapter.accounts.get(`passkey\u0000${credentialID}`)).toEqual({ userId: user!.id, provider: "passkey", type: "webauthn", providerAccountId: credentialID })
    expect(await app.adapter.getAuthenticator(credentialID)).toMatchObject({
      userId: user!.id,
      providerAccountId: credentialID,
      credentialID,
      counter: 1,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      transports: "internal",
    })
    // The key is the COSE key from the attestation, in standard base64 as Auth.js stores it.
    expect((await app.adapter.getAuthenticator(credentialID))!.credentialPublicKey).toMatch(/^[A-Za-z0-9+/]+=*$/)
  })

  it("signs in with the passkey after signing out, and moves the counter forward each time", async () => {
    const app = passkeyApp({}, strategy)
    const browser = app.browser()
    await signUp(browser, "ada")
    await signOut(browser)
    const first = await signIn(browser, "ada1")
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect((await sessionOf(browser))?.user?.email).toBe("ada@example.com")
    const credentialID = base64(ada.response.id)
    expect((await app.adapter.getAuthenticator(credentialID))!.counter).toBe(2)
    await signOut(browser)
    expect((await signIn(browser, "ada2")).status).toBe(200)
    expect((await app.adapter.getAuthenticator(credentialID))!.counter).toBe(3)
    expect((await sessionOf(browser))?.user?.email).toBe("ada@example.com")
  })

  it("adds a second passkey to the signed-in user, lists, renames and deletes it, and refuses to delete the last", async () => {
    const app = passkeyApp({}, strategy)
    const browser = app.browser()
    await signUp(browser, "ada")
    const [user] = [...app.adapter.users.values()]
    const grace = fixtures.registrations.grace
    await plantChallenge(browser, grace.challenge, "register", "passkey", { userId: String(user!.id) })
    const added = await callback(browser, "register", grace.response, { name: "Work laptop" })
    expect(added.status, JSON.stringify(added.body)).toBe(200)
    expect(added.body.passkey).toMatchObject({ id: grace.response.id, name: "Work laptop", transports: ["internal"] })
    expect(app.adapter.users.size).toBe(1)

    const list = async () => (await (await browser.open(`${ORIGIN}/auth/passkeys`)).response.json()) as { passkeys: { id: string; name: string | null }[] }
    expect((await list()).passkeys.map((passkey) => passkey.id).sort()).toEqual([ada.response.id, grace.response.id].sort())
    const change = async (fields: Record<string, string>) => {
      const { response } = await browser.open(`${ORIGIN}/auth/passkeys`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken: await csrfOf(browser), ...fields }).toString(),
      })
      return { status: response.status, body: (await response.json()) as Record<string, any> }
    }
    const renamed = await change({ action: "rename", id: ada.response.id, name: "  Phone  " })
    expect(renamed.status).toBe(200)
    expect(renamed.body.passkeys.find((passkey: { id: string }) => passkey.id === ada.response.id).name).toBe("Phone")
    const deleted = await change({ action: "delete", id: grace.response.id })
    expect(deleted.status).toBe(200)
    expect(deleted.body.passkeys.map((passkey: { id: string }) => passkey.id)).toEqual([ada.response.id])
    expect(app.adapter.accounts.has(`passkey\u0000${base64(grace.response.id)}`)).toBe(false)
    const last = await change({ action: "delete", id: ada.response.id })
    expect(last).toEqual({ status: 409, body: { error: "LastSignInMethod" } })
    expect(await app.adapter.getAuthenticator(base64(ada.response.id))).not.toBeNull()
  })
})

describe("callbacks, events and pages around a passkey sign-in", () => {
  it("asks the signIn callback before a sign-up writes anything, and a refusal leaves no user, account or passkey", async () => {
    const seen: unknown[] = []
    const app = passkeyApp({ callbacks: { signIn: ({ user, account }) => (seen.push({ user, account }), false) } })
    const browser = app.browser()
    await plantChallenge(browser, ada.challenge, "register", "passkey", { email: ada.email, name: ada.email })
    const result = await callback(browser, "register", ada.response)
    expect(result.body).toEqual({ url: `${ORIGIN}/auth/error?error=AccessDenied` })
    expect(seen).toEqual([{ user: { email: "ada@example.com", name: "ada@example.com" }, account: { provider: "passkey", type: "webauthn", providerAccountId: base64(ada.response.id) } }])
    expect([app.adapter.users.size, app.adapter.accounts.size, (await app.adapter.getAuthenticator(base64(ada.response.id))) === null]).toEqual([0, 0, true])
    expect(await sessionOf(browser)).toBeNull()
  })

  it("fires createUser, linkAccount and signIn, runs the jwt callback with trigger signUp, and sends a new user to pages.newUser", async () => {
    const events: string[] = []
    const triggers: [string, string | undefined][] = []
    const app = passkeyApp({
      pages: { newUser: "/welcome" },
      events: { createUser: () => void events.push("createUser"), linkAccount: () => void events.push("linkAccount"), signIn: ({ isNewUser }) => void events.push(`signIn ${isNewUser}`) },
      callbacks: { jwt: ({ token, trigger, account }) => (triggers.push([trigger, account?.type]), token) },
    })
    const browser = app.browser()
    const { body } = await signUp(browser, "ada")
    expect(body.url).toBe(`${ORIGIN}/welcome?callbackUrl=${encodeURIComponent(`${ORIGIN}/`)}`)
    expect(events).toEqual(["linkAccount", "createUser", "signIn true"])
    expect(triggers[0]).toEqual(["signUp", "webauthn"])
    await signOut(browser)
    const again = await signIn(browser, "ada1")
    expect(again.body.url).toBe(`${ORIGIN}/`)
    expect(events.at(-1)).toBe("signIn false")
    expect(triggers.some(([trigger]) => trigger === "signIn")).toBe(true)
  })

  it("leaves nothing half-written when storing the passkey fails: no user, no account, no session", async () => {
    const base = memoryAdapter()
    const app = passkeyApp({ adapter: { ...base, createAuthenticator: () => Promise.reject(Object.assign(new Error("disk full"), { code: "ENOSPC" })) } })
    const browser = app.browser()
    await plantChallenge(browser, ada.challenge, "register", "passkey", { email: ada.email, name: ada.email })
    const result = await callback(browser, "register", ada.response)
    expect([result.status, result.body]).toEqual([500, { error: "Configuration" }])
    expect([base.users.size, base.accounts.size]).toEqual([0, 0])
    expect(await sessionOf(browser)).toBeNull()
    // Logged as the failed method, without the database's message (which may quote what it was given).
    expect(app.errors.map((error) => [error.name, error.message, JSON.stringify(error.cause)])).toEqual([["AdapterError", "The adapter's createAuthenticator failed.", '{"name":"Error","code":"ENOSPC","message":""}']])
  })

  it("follows a same-origin callbackUrl after sign-in, and never another origin's", async () => {
    const app = passkeyApp()
    const browser = app.browser()
    await signUp(browser, "ada")
    await signOut(browser)
    await plantChallenge(browser, fixtures.assertions.ada1.challenge, "authenticate")
    const away = await callback(browser, "authenticate", fixtures.assertions.ada1.response, { callbackUrl: "https://evil.example/steal" })
    expect(away.body.url).toBe(`${ORIGIN}/`)
    await signOut(browser)
    await plantChallenge(browser, fixtures.assertions.ada2.challenge, "authenticate")
    const home = await callback(browser, "authenticate", fixtures.assertions.ada2.response, { callbackUrl: "/dashboard" })
    expect(home.body.url).toBe(`${ORIGIN}/dashboard`)
  })
})

describe("the options route", () => {
  it("answers discoverable-credential options and seals their challenge, bound to the ceremony and provider, into the cookie", async () => {
    const app = passkeyApp()
    const browser = app.browser()
    const { response } = await browser.open(`${ORIGIN}/auth/webauthn-options/passkey?action=authenticate`)
    expect(response.status).toBe(200)
    const body = (await response.json()) as { action: string; options: Record<string, any> }
    expect(body.action).toBe("authenticate")
    expect(body.options).toMatchObject({ rpId: "localhost", userVerification: "required", timeout: 300000 })
    expect(body.options.allowCredentials).toBeUndefined()
    const cookie = browser.cookies(ORIGIN).get(challengeCookieName(false))!
    const sealed = await decode({ token: cookie, secret: SECRET, salt: challengeCookieName(false) })
    expect(sealed).toMatchObject({ challenge: body.options.challenge, ceremony: "authenticate", provider: "passkey" })
    expect(response.headers.getSetCookie().join()).toMatch(/HttpOnly.*SameSite=Strict|SameSite=Strict.*HttpOnly/i)
  })

  it("registers a new address only with sign-up on, binds the address into the challenge, and refuses an address a user has", async () => {
    const app = passkeyApp()
    const browser = app.browser()
    const missing = await browser.open(`${ORIGIN}/auth/webauthn-options/passkey?action=register`)
    expect([missing.response.status, await missing.response.json()]).toEqual([400, { error: "InvalidEmail" }])
    const { response } = await browser.open(`${ORIGIN}/auth/webauthn-options/passkey?action=register&email=Ada%40Example.com`)
    const body = (await response.json()) as { options: Record<string, any> }
    expect(body.options).toMatchObject({ rp: { id: "localhost", name: "localhost" }, user: { name: "ada@example.com" }, authenticatorSelection: { residentKey: "required", userVerification: "required" } })
    const sealed = await decode({ token: browser.cookies(ORIGIN).get(challengeCookieName(false))!, secret: SECRET, salt: challengeCookieName(false) })
    expect(sealed).toMatchObject({ ceremony: "register", registrant: { email: "ada@example.com" } })
    await signUp(app.browser(), "ada")
    const taken = await app.browser().open(`${ORIGIN}/auth/webauthn-options/passkey?action=register&email=ada%40example.com`)
    expect([taken.response.status, await taken.response.json()]).toEqual([409, { error: "AccountExists" }])

    const closed = passkeyApp({ providers: [Passkey()] })
    const refused = await closed.browser().open(`${ORIGIN}/auth/webauthn-options/passkey?action=register&email=new%40example.com`)
    expect([refused.response.status, await refused.response.json()]).toEqual([403, { error: "SignUpDisabled" }])
  })

  it("excludes the signed-in user's passkeys from a new registration, and with no action registers for them", async () => {
    const app = passkeyApp()
    const browser = app.browser()
    await signUp(browser, "ada")
    const { response } = await browser.open(`${ORIGIN}/auth/webauthn-options/passkey`)
    const body = (await response.json()) as { action: string; options: Record<string, any> }
    expect(body.action).toBe("register")
    expect(body.options.excludeCredentials).toEqual([{ id: ada.response.id, type: "public-key", transports: ["internal"] }])
    const sealed = await decode({ token: browser.cookies(ORIGIN).get(challengeCookieName(false))!, secret: SECRET, salt: challengeCookieName(false) })
    expect(sealed).toMatchObject({ registrant: { userId: String([...app.adapter.users.values()][0]!.id) } })
  })

  it("answers the management API only to a signed-in browser, and rename without the adapter extension as NotSupported", async () => {
    const { renameAuthenticator: _rename, deleteAuthenticator: _delete, ...auth } = memoryAdapter()
    const app = passkeyApp({ adapter: auth })
    const browser = app.browser()
    expect((await browser.open(`${ORIGIN}/auth/passkeys`)).response.status).toBe(401)
    await signUp(browser, "ada")
    const { response } = await browser.open(`${ORIGIN}/auth/passkeys`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await csrfOf(browser), action: "rename", id: ada.response.id, name: "Phone" }).toString(),
    })
    expect([response.status, await response.json()]).toEqual([501, { error: "NotSupported" }])
  })
})

describe("start-up", () => {
  it("refuses a passkey provider without the ceremony, saying what to add", () => {
    const attempt = () => createAuth({ providers: [Passkey], adapter: memoryAdapter(), secret: SECRET, env: {} })
    expect(attempt).toThrow(InvalidProviderError)
    expect(attempt).toThrow('import { webauthn } from "latchkey/webauthn"')
  })

  it("refuses a hand-written webauthn config without a usable timeout or user verification, by field", () => {
    const written = { id: "keys", name: "Keys", type: "webauthn" as const, enableConditionalUI: false, allowSignUp: false, formFields: {}, userVerification: "preferred" as const, timeout: 60_000 }
    const start = (provider: object) => () => createAuth({ providers: [provider as typeof written], adapter: memoryAdapter(), webauthn, secret: SECRET, env: {} })
    expect(start(written)).not.toThrow()
    expect(start({ ...written, timeout: undefined })).toThrow(expect.objectContaining({ field: "timeout" }))
    expect(start({ ...written, timeout: 3_600_000 })).toThrow(expect.objectContaining({ field: "timeout" }))
    expect(start({ ...written, userVerification: "always" })).toThrow(expect.objectContaining({ field: "userVerification" }))
  })

  it("answers Auth.js's experimental.enableWebAuthn with the same instruction", () => {
    const config = { providers: [Passkey], adapter: memoryAdapter(), secret: SECRET, env: {}, experimental: { enableWebAuthn: true } }
    expect(() => createAuth(config)).toThrow(InvalidOptionError)
    expect(() => createAuth(config)).toThrow("latchkey/webauthn")
  })
})
