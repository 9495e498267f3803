// Attacks on the passkey ceremony, each through createAuth's handler with real recorded responses:
// a response made on another origin or for another RP ID, a replayed challenge, a challenge from
// another ceremony or provider, a tampered clientDataJSON, a counter that goes backwards (a cloned
// authenticator), another user's authenticator, and registering onto someone else's address or
// into a session planted from another browser. Each is refused with a typed code and logged with
// its reason, and signs nobody in.
import { describe, expect, it } from "vitest"
import type { AuthConfig } from "../../src/handler/index.js"
import { challengeCookieName } from "../../src/webauthn/challenge.js"
import Credentials from "../../src/providers/credentials.js"
import Passkey from "../../src/providers/passkey.js"
import WebAuthn from "../../src/providers/webauthn.js"
import { callback, copy, csrfOf, fixtures, ORIGIN, passkeyApp, plantChallenge, sessionOf, signIn, signOut, signUp } from "./support.js"

const { ada, grace } = fixtures.registrations
const base64 = (base64url: string) => Buffer.from(base64url, "base64url").toString("base64")

/** Ada signed up and signed out again: her passkey is stored with counter 1. Then the app runs with `changes`. */
async function adaRegistered(changes: Partial<AuthConfig> = {}) {
  const app = passkeyApp()
  const browser = app.browser()
  await signUp(browser, "ada")
  await signOut(browser)
  app.restart(changes)
  return { app, browser }
}

describe("passkey attacks", () => {
  it("refuses a response made on another origin (a phishing page relaying the ceremony)", async () => {
    const { app, browser } = await adaRegistered({ providers: [Passkey({ allowSignUp: true, relayingParty: { origin: "https://app.example.com" } })] })
    const result = await signIn(browser, "ada1")
    expect([result.status, result.body]).toEqual([400, { error: "VerificationFailed" }])
    expect(app.warnings.at(-1)?.message).toMatch(/^verification_failed: .*origin this app does not accept/)
    expect(await sessionOf(browser)).toBeNull()
  })

  it("refuses a credential scoped to another RP ID", async () => {
    const { app, browser } = await adaRegistered({ providers: [Passkey({ allowSignUp: true, relayingParty: { id: "app.localhost" } })] })
    const result = await signIn(browser, "ada1")
    expect([result.status, result.body]).toEqual([400, { error: "VerificationFailed" }])
    expect(app.warnings.at(-1)?.message).toMatch(/another RP ID/)
    expect(await sessionOf(browser)).toBeNull()
  })

  it("refuses a registration made for another RP ID", async () => {
    const app = passkeyApp({ providers: [Passkey({ allowSignUp: true, relayingParty: { id: "app.localhost" } })] })
    const browser = app.browser()
    await plantChallenge(browser, ada.challenge, "register", "passkey", { email: ada.email, name: ada.email })
    const result = await callback(browser, "register", ada.response)
    expect([result.status, result.body]).toEqual([400, { error: "VerificationFailed" }])
    expect(app.adapter.users.size).toBe(0)
  })

  it("refuses a replayed challenge: a captured cookie and response sent again after they were used", async () => {
    const { app, browser } = await adaRegistered()
    const attacker = app.browser()
    await plantChallenge(browser, fixtures.assertions.ada1.challenge, "authenticate")
    const captured = browser.cookies(ORIGIN).get(challengeCookieName(false))!
    expect((await callback(browser, "authenticate", fixtures.assertions.ada1.response)).status).toBe(200)
    // The cookie is cleared in the victim's browser; the attacker replays their captured copy.
    expect(browser.cookies(ORIGIN).has(challengeCookieName(false))).toBe(false)
    attacker.acceptCookies(ORIGIN, [`${challengeCookieName(false)}=${captured}; Path=/`])
    const replay = await callback(attacker, "authenticate", fixtures.assertions.ada1.response)
    expect([replay.status, replay.body]).toEqual([400, { error: "InvalidChallenge" }])
    expect(app.refusals()).toEqual(["challenge_replayed"])
    expect(await sessionOf(attacker)).toBeNull()
  })

  it("refuses a response with no challenge cookie at all", async () => {
    const { app, browser } = await adaRegistered()
    const result = await callback(browser, "authenticate", fixtures.assertions.ada1.response)
    expect([result.status, result.body]).toEqual([400, { error: "InvalidChallenge" }])
    expect(app.refusals()).toEqual(["challenge_missing"])
  })

  it("refuses a challenge issued for another ceremony: a registration cookie used to sign in", async () => {
    const { app, browser } = await adaRegistered()
    await plantChallenge(browser, fixtures.assertions.ada1.challenge, "register", "passkey", { email: "eve@example.com", name: "Eve" })
    const result = await callback(browser, "authenticate", fixtures.assertions.ada1.response)
    expect([result.status, result.body]).toEqual([400, { error: "InvalidChallenge" }])
    expect(app.refusals()).toEqual(["challenge_mismatch"])
    expect(await sessionOf(browser)).toBeNull()
  })

  it("refuses a challenge issued for another provider", async () => {
    const { app, browser } = await adaRegistered({ providers: [Passkey({ allowSignUp: true }), WebAuthn()] })
    await plantChallenge(browser, fixtures.assertions.ada1.challenge, "authenticate", "webauthn")
    const result = await callback(browser, "authenticate", fixtures.assertions.ada1.response)
    expect([result.status, result.body]).toEqual([400, { error: "InvalidChallenge" }])
    expect(app.refusals()).toEqual(["challenge_mismatch"])
  })

  it("refuses a challenge cookie sealed with another secret", async () => {
    const { app, browser } = await adaRegistered()
    const other = passkeyApp({ secret: "another-secret-entirely-0123456789abcdef" })
    const elsewhere = other.browser()
    await elsewhere.open(`${ORIGIN}/auth/webauthn-options/passkey?action=authenticate`)
    browser.acceptCookies(ORIGIN, [`${challengeCookieName(false)}=${elsewhere.cookies(ORIGIN).get(challengeCookieName(false))}; Path=/`])
    const result = await callback(browser, "authenticate", fixtures.assertions.ada1.response)
    expect(result.body).toEqual({ error: "InvalidChallenge" })
    expect(app.refusals()).toEqual(["challenge_invalid"])
  })

  it("refuses a tampered clientDataJSON, even one rewritten to answer the planted challenge", async () => {
    const { app, browser } = await adaRegistered()
    const tampered = copy(fixtures.assertions.ada1.response)
    const clientData = JSON.parse(Buffer.from(tampered.response.clientDataJSON, "base64url").toString())
    const forged = Buffer.from("a challenge the attacker chose").toString("base64url")
    tampered.response.clientDataJSON = Buffer.from(JSON.stringify({ ...clientData, challenge: forged })).toString("base64url")
    await plantChallenge(browser, forged, "authenticate")
    const result = await callback(browser, "authenticate", tampered)
    expect([result.status, result.body]).toEqual([400, { error: "VerificationFailed" }])
    expect(app.warnings.at(-1)?.message).toMatch(/signature does not verify/)
    expect(await sessionOf(browser)).toBeNull()
  })

  it("refuses a signature counter that goes backwards (a cloned authenticator), logs it, and keeps the stored counter", async () => {
    const { app, browser } = await adaRegistered()
    const credentialID = base64(ada.response.id)
    // The real authenticator has signed up to 5 since; the clone still answers with 2.
    await app.adapter.updateAuthenticatorCounter(credentialID, 5)
    const result = await signIn(browser, "ada1")
    expect([result.status, result.body]).toEqual([400, { error: "VerificationFailed" }])
    expect(app.errors.map((error) => [error.name, (error as { reason?: string }).reason])).toEqual([["WebAuthnError", "counter_rollback"]])
    expect(app.errors[0]!.message).toMatch(/counter 2, not above the stored 5/)
    expect((await app.adapter.getAuthenticator(credentialID))!.counter).toBe(5)
    expect(await sessionOf(browser)).toBeNull()
  })

  it("refuses a counter that stands still (the same assertion signed twice)", async () => {
    const { app, browser } = await adaRegistered()
    await app.adapter.updateAuthenticatorCounter(base64(ada.response.id), 2)
    const result = await signIn(browser, "ada1")
    expect(result.body).toEqual({ error: "VerificationFailed" })
    expect(app.errors.map((error) => (error as { reason?: string }).reason)).toEqual(["counter_rollback"])
  })

  it("refuses another user's authenticator: Grace's signature presented under Ada's credential id", async () => {
    const { app, browser } = await adaRegistered()
    const graceBrowser = app.browser()
    await signUp(graceBrowser, "grace")
    const forged = copy(fixtures.assertions.grace1.response)
    forged.id = ada.response.id
    forged.rawId = ada.response.id
    await plantChallenge(browser, fixtures.assertions.grace1.challenge, "authenticate")
    const result = await callback(browser, "authenticate", forged)
    expect([result.status, result.body]).toEqual([400, { error: "VerificationFailed" }])
    expect(await sessionOf(browser)).toBeNull()
    // Grace's own assertion (on another instance: that challenge was used above) signs in Grace, and only Grace.
    app.restart()
    expect((await signIn(browser, "grace1")).status).toBe(200)
    expect((await sessionOf(browser))?.user?.email).toBe("grace@example.com")
  })

  it("refuses to register a credential that another user has registered", async () => {
    const { app } = await adaRegistered()
    const graceBrowser = app.browser()
    await signUp(graceBrowser, "grace")
    const graceId = String([...app.adapter.users.values()].find((user) => user.email === "grace@example.com")!.id)
    app.restart()
    await plantChallenge(graceBrowser, ada.challenge, "register", "passkey", { userId: graceId })
    const result = await callback(graceBrowser, "register", ada.response)
    expect([result.status, result.body]).toEqual([409, { error: "CredentialExists" }])
    const stored = await app.adapter.getAuthenticator(base64(ada.response.id))
    expect(stored!.userId).not.toBe(graceId)
  })

  it("never registers onto an existing user's address from a browser that is not signed in as them", async () => {
    const { app } = await adaRegistered()
    const attacker = app.browser()
    // The options route refuses outright…
    const { response } = await attacker.open(`${ORIGIN}/auth/webauthn-options/passkey?action=register&email=ada%40example.com`)
    expect([response.status, await response.json()]).toEqual([409, { error: "AccountExists" }])
    // …and a sign-up challenge for the address (issued before Ada signed up) is checked again at the callback.
    await plantChallenge(attacker, grace.challenge, "register", "passkey", { email: "ada@example.com", name: "Ada" })
    const result = await callback(attacker, "register", grace.response)
    expect([result.status, result.body]).toEqual([409, { error: "AccountExists" }])
    expect(app.refusals()).toEqual(["account_exists"])
    expect(await app.adapter.getAuthenticator(base64(grace.response.id))).toBeNull()
    expect(app.adapter.users.size).toBe(1)
    expect(await sessionOf(attacker)).toBeNull()
  })

  it("refuses to finish a registration started by one user in another user's session", async () => {
    // Eve signs in with a password (credentials, JWT sessions) as a user the adapter has.
    const app = passkeyApp()
    const eve = await app.adapter.createUser({ email: "eve@example.com", emailVerified: null })
    const password = Credentials({ credentials: { username: {} }, authorize: () => ({ id: eve.id, email: eve.email }) })
    app.restart({ providers: [Passkey({ allowSignUp: true }), password] })
    const adaBrowser = app.browser()
    await signUp(adaBrowser, "ada")
    const adaId = String([...app.adapter.users.values()].find((user) => user.email === "ada@example.com")!.id)
    const eveBrowser = app.browser()
    const csrfToken = await csrfOf(eveBrowser)
    await eveBrowser.open(`${ORIGIN}/auth/callback/credentials`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken, username: "eve" }).toString() })
    expect((await sessionOf(eveBrowser))?.user?.email).toBe("eve@example.com")
    // A registration challenge issued to Ada, finished in Eve's session, would put Eve's passkey on Ada's user.
    await plantChallenge(eveBrowser, grace.challenge, "register", "passkey", { userId: adaId })
    const result = await callback(eveBrowser, "register", grace.response)
    expect([result.status, result.body]).toEqual([400, { error: "InvalidChallenge" }])
    expect(app.refusals()).toEqual(["challenge_mismatch"])
    expect(await app.adapter.listAuthenticatorsByUserId(adaId)).toHaveLength(1)
    // Signed out, a registration for a user needs that user's session.
    app.restart()
    const signedOut = app.browser()
    await plantChallenge(signedOut, grace.challenge, "register", "passkey", { userId: adaId })
    expect((await callback(signedOut, "register", grace.response)).body).toEqual({ error: "SessionRequired" })
    expect(await app.adapter.listAuthenticatorsByUserId(adaId)).toHaveLength(1)
  })

  it.each(["jwt", "database"] as const)("does not treat a session cookie planted from another browser as signed in (%s sessions)", async (strategy) => {
    const app = passkeyApp({ providers: [Passkey()] }, strategy)
    // The attacker has an account (an existing user with a passkey) and a session in their own browser.
    const attacker = app.browser()
    const attackerUser = await app.adapter.createUser({ email: "eve@example.com", emailVerified: null })
    await app.adapter.linkAccount({ userId: attackerUser.id, provider: "passkey", type: "webauthn", providerAccountId: base64(ada.response.id) })
    await app.adapter.createAuthenticator({
      userId: attackerUser.id,
      providerAccountId: base64(ada.response.id),
      credentialID: base64(ada.response.id),
      credentialPublicKey: (await registeredKey(ada)).credentialPublicKey,
      counter: 1,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      transports: "internal",
    })
    expect((await signIn(attacker, "ada1")).status).toBe(200)
    // The attacker plants their session cookie in the victim's browser (login CSRF, or a sibling subdomain).
    const victim = app.browser()
    const sessionCookie = [...attacker.cookies(ORIGIN)].find(([name]) => name.includes("session-token"))!
    victim.acceptCookies(ORIGIN, [`${sessionCookie[0]}=${sessionCookie[1]}; Path=/`])
    // The victim's new passkey must not land on the attacker's user: the session is not this browser's.
    const { response } = await victim.open(`${ORIGIN}/auth/webauthn-options/passkey?action=register`)
    expect([response.status, await response.json()]).toEqual([403, { error: "SignUpDisabled" }])
    expect(await app.adapter.listAuthenticatorsByUserId(attackerUser.id)).toHaveLength(1)
  })

  it("answers MissingCSRF to a callback without the CSRF token, and consumes nothing", async () => {
    const { app, browser } = await adaRegistered()
    await plantChallenge(browser, fixtures.assertions.ada1.challenge, "authenticate")
    const { response } = await browser.open(`${ORIGIN}/auth/callback/passkey`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "authenticate", data: JSON.stringify(fixtures.assertions.ada1.response) }),
    })
    expect([response.status, await response.json()]).toEqual([403, { error: "MissingCSRF" }])
    expect((await signIn(browser, "ada1")).status).toBe(200)
    expect(app.refusals()).toEqual([])
  })
})

describe("passkey logs", () => {
  it("never carry a challenge, a response, a key or the challenge cookie, whatever was refused", async () => {
    const { app, browser } = await adaRegistered()
    const tampered = copy(fixtures.assertions.ada1.response)
    tampered.response.signature = tampered.response.signature.replace(/^./, (c: string) => (c === "A" ? "B" : "A"))
    await plantChallenge(browser, fixtures.assertions.ada1.challenge, "authenticate")
    const cookie = browser.cookies(ORIGIN).get(challengeCookieName(false))!
    await callback(browser, "authenticate", tampered)
    await callback(browser, "authenticate", fixtures.assertions.ada1.response)
    await plantChallenge(browser, fixtures.assertions.ada2.challenge, "register", "passkey", { email: "x@example.com", name: "X" })
    await callback(browser, "authenticate", fixtures.assertions.ada2.response)
    await app.adapter.updateAuthenticatorCounter(base64(ada.response.id), 9)
    app.restart()
    await signIn(browser, "ada2")
    const logged = JSON.stringify([app.warnings, app.errors.map((error) => ({ message: error.message, cause: error.cause }))])
    expect(app.warnings.length + app.errors.length).toBeGreaterThanOrEqual(4)
    const stored = (await app.adapter.getAuthenticator(base64(ada.response.id)))!
    const secrets = [
      cookie,
      stored.credentialPublicKey,
      ...Object.values(fixtures.assertions).flatMap(({ challenge, response }) => [challenge, response.response.clientDataJSON, response.response.signature, response.response.authenticatorData]),
    ]
    expect(secrets.length).toBeGreaterThan(5)
    for (const secret of secrets) expect(logged).not.toContain(secret)
  })
})

/** The stored key a recorded registration gives, through a throwaway sign-up. */
async function registeredKey(recorded: typeof ada) {
  const app = passkeyApp()
  const browser = app.browser()
  await plantChallenge(browser, recorded.challenge, "register", "passkey", { email: recorded.email, name: recorded.email })
  expect((await callback(browser, "register", recorded.response)).status).toBe(200)
  return (await app.adapter.getAuthenticator(base64(recorded.response.id)))!
}
