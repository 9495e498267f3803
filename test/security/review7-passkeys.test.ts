// Review 7, passkeys: attacks on the passkey routes through createAuth's handler, with a software
// authenticator (review7-passkeys-support.ts) answering the handler's real options end to end.
import { describe, expect, it } from "vitest"
import Passkey from "../../src/providers/passkey.js"
import WebAuthn from "../../src/providers/webauthn.js"
import { MAX_BODY_BYTES } from "../../src/handler/body.js"
import { challengeCookieName } from "../../src/webauthn/challenge.js"
import { TestBrowser } from "../servers/browser.js"
import { callback, csrfOf, ORIGIN, passkeyApp, sessionOf, signOut } from "../webauthn/support.js"
import { managePasskey, options, rawPost, SoftAuthenticator } from "./review7-passkeys-support.js"

type App = ReturnType<typeof passkeyApp>

/** A sign-up with a fresh software passkey for `email`, end to end; answers the browser and the authenticator. */
async function signUpWith(app: App, email: string, browser: TestBrowser = app.browser(), key = new SoftAuthenticator()) {
  const started = await options(browser, `action=register&email=${encodeURIComponent(email)}`)
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  const result = await callback(browser, "register", key.register(started.challenge!))
  expect(result.status, JSON.stringify(result.body)).toBe(200)
  return { browser, key }
}

/** A passkey sign-in with `key`, end to end. */
async function signInWith(browser: TestBrowser, key: SoftAuthenticator, assertion: Parameters<SoftAuthenticator["assert"]>[1] = {}) {
  const started = await options(browser, "action=authenticate")
  expect(started.status).toBe(200)
  return callback(browser, "authenticate", key.assert(started.challenge!, assertion))
}

/** Adds `key` to the user signed in in `browser`, end to end. */
async function addPasskey(browser: TestBrowser, key: SoftAuthenticator) {
  const started = await options(browser, "action=register")
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  return callback(browser, "register", key.register(started.challenge!))
}

const userOf = (app: App, email: string) => [...app.adapter.users.values()].find((user) => user.email === email)!

describe("review 7: the software authenticator works end to end (baseline)", () => {
  it("signs up, signs out and signs back in with a software passkey", async () => {
    const app = passkeyApp()
    const { browser, key } = await signUpWith(app, "ada@example.com")
    expect((await sessionOf(browser))?.user?.email).toBe("ada@example.com")
    await signOut(browser)
    expect((await signInWith(browser, key)).status).toBe(200)
    expect((await sessionOf(browser))?.user?.email).toBe("ada@example.com")
  })
})

describe("review 7: the management API's last-sign-in-method rule", () => {
  it("refuses to delete the last passkey that signs in when the only other one has no account row (a lockout through POST passkeys)", async () => {
    const app = passkeyApp({}, "database")
    const { browser, key } = await signUpWith(app, "ada@example.com")
    const second = new SoftAuthenticator()
    expect((await addPasskey(browser, second)).status).toBe(200)
    // An authenticator without its account row (what the old unlinkAccount defect left behind): it cannot sign in.
    await app.adapter.unlinkAccount({ provider: "passkey", providerAccountId: second.storedId })
    const elsewhere = app.browser()
    expect((await signInWith(elsewhere, second)).body).toEqual({ error: "UnknownCredential" })
    // Deleting the one passkey that still signs in must be refused, as unlinkAccount refuses it.
    const deleted = await managePasskey(browser, { action: "delete", id: key.id })
    expect([deleted.status, deleted.body]).toEqual([409, { error: "LastSignInMethod" }])
    expect((await signInWith(app.browser(), key)).status).toBe(200)
  })
})

describe("review 7: the management API counts only passkeys the app still signs in with", () => {
  it("refuses to delete the last usable passkey when the other one belongs to a passkey provider the app dropped", async () => {
    const app = passkeyApp({ providers: [Passkey({ allowSignUp: true }), WebAuthn()] }, "database")
    const { browser, key } = await signUpWith(app, "ada@example.com")
    const old = new SoftAuthenticator()
    const started = await options(browser, "action=register", "webauthn")
    expect((await callback(browser, "register", old.register(started.challenge!), {}, "webauthn")).status).toBe(200)
    // The app drops the WebAuthn provider: that passkey no longer signs in.
    app.restart({ providers: [Passkey({ allowSignUp: true })] })
    expect((await signInWith(app.browser(), old)).body).toEqual({ error: "UnknownCredential" })
    const deleted = await managePasskey(browser, { action: "delete", id: key.id })
    expect([deleted.status, deleted.body]).toEqual([409, { error: "LastSignInMethod" }])
  })
})

describe("review 7: concurrent sign-ups for one address", () => {
  it("two sign-ups racing for the same new address make one user, and the other is answered AccountExists", async () => {
    const app = passkeyApp()
    const first = app.browser()
    const second = app.browser()
    const a = await options(first, "action=register&email=race%40example.com")
    const b = await options(second, "action=register&email=race%40example.com")
    const results = await Promise.all([
      callback(first, "register", new SoftAuthenticator().register(a.challenge!)),
      callback(second, "register", new SoftAuthenticator().register(b.challenge!)),
    ])
    expect([...app.adapter.users.values()].filter((user) => user.email === "race@example.com")).toHaveLength(1)
    expect(results.map((result) => result.status).sort()).toEqual([200, 409])
  })
})

describe("review 7: registering needs this browser's live session", () => {
  it.each(["jwt", "database"] as const)("a registration challenge fetched while signed in cannot be finished after sign-out (%s sessions)", async (strategy) => {
    const app = passkeyApp({}, strategy)
    const { browser } = await signUpWith(app, "ada@example.com")
    const started = await options(browser, "action=register")
    expect(started.body.action).toBe("register")
    await signOut(browser)
    const late = new SoftAuthenticator()
    const result = await callback(browser, "register", late.register(started.challenge!))
    expect([result.status, result.body]).toEqual([401, { error: "SessionRequired" }])
    expect(await app.adapter.getAuthenticator(late.storedId)).toBeNull()
    expect(app.adapter.users.size).toBe(1)
  })

  it("cookies copied before a database-session sign-out cannot add the attacker's passkey afterwards", async () => {
    const app = passkeyApp({}, "database")
    const { browser } = await signUpWith(app, "ada@example.com")
    const thief = app.browser()
    for (const [name, value] of browser.cookies(ORIGIN)) thief.acceptCookies(ORIGIN, [`${name}=${value}; Path=/`])
    await signOut(browser)
    const started = await options(thief, "action=register")
    // Signed out: the options route offers a sign-up (which needs an address), never a registration for Ada.
    expect(started.body.action).not.toBe("register")
    expect(app.adapter.users.size).toBe(1)
    const ada = userOf(app, "ada@example.com")
    expect(await app.adapter.listAuthenticatorsByUserId(String(ada.id))).toHaveLength(1)
  })

  it("a registration challenge issued to Ada cannot be finished by Grace signed in later in the same browser", async () => {
    const app = passkeyApp()
    const { browser } = await signUpWith(app, "ada@example.com")
    const grace = await signUpWith(app, "grace@example.com")
    const started = await options(browser, "action=register")
    await signOut(browser)
    expect((await signInWith(browser, grace.key)).status).toBe(200)
    const result = await callback(browser, "register", new SoftAuthenticator().register(started.challenge!))
    expect([result.status, result.body]).toEqual([400, { error: "InvalidChallenge" }])
    expect(await app.adapter.listAuthenticatorsByUserId(String(userOf(app, "ada@example.com").id))).toHaveLength(1)
    expect(await app.adapter.listAuthenticatorsByUserId(String(userOf(app, "grace@example.com").id))).toHaveLength(1)
  })
})

describe("review 7: challenges are single-use and bound", () => {
  it("a challenge spent on a failed response cannot then be used with a good one (no second try on one challenge)", async () => {
    const app = passkeyApp()
    const { key } = await signUpWith(app, "ada@example.com")
    const browser = app.browser()
    const started = await options(browser, "action=authenticate")
    const cookie = browser.cookies(ORIGIN).get(challengeCookieName(false))!
    const bad = key.assert(started.challenge!, { origin: "https://evil.example" })
    expect((await callback(browser, "authenticate", bad)).body).toEqual({ error: "VerificationFailed" })
    browser.acceptCookies(ORIGIN, [`${challengeCookieName(false)}=${cookie}; Path=/`])
    const good = await callback(browser, "authenticate", key.assert(started.challenge!))
    expect([good.status, good.body]).toEqual([400, { error: "InvalidChallenge" }])
    expect(await sessionOf(browser)).toBeNull()
  })

  it("a sign-up challenge for one address cannot create a user for another (the address is sealed in, not read from the POST)", async () => {
    const app = passkeyApp()
    const browser = app.browser()
    const started = await options(browser, "action=register&email=mallory%40example.com")
    const result = await callback(browser, "register", new SoftAuthenticator().register(started.challenge!), { email: "ada@example.com" })
    expect(result.status).toBe(200)
    expect([...app.adapter.users.values()].map((user) => user.email)).toEqual(["mallory@example.com"])
  })

  it("a registration answered with a sign-in (webauthn.get) clientData, or for another origin or RP ID, is refused and writes nothing", async () => {
    const app = passkeyApp()
    for (const tamper of [{ type: "webauthn.get" }, { origin: "https://evil.example" }, { rpId: "evil.example" }]) {
      const browser = app.browser()
      const started = await options(browser, "action=register&email=new%40example.com")
      const result = await callback(browser, "register", new SoftAuthenticator().register(started.challenge!, tamper))
      expect([result.status, result.body], JSON.stringify(tamper)).toEqual([400, { error: "VerificationFailed" }])
    }
    expect(app.adapter.users.size).toBe(0)
  })

  it("a registration without user verification is refused when the provider requires it (Passkey's default)", async () => {
    const app = passkeyApp()
    const browser = app.browser()
    const started = await options(browser, "action=register&email=new%40example.com")
    const result = await callback(browser, "register", new SoftAuthenticator().register(started.challenge!, { flags: 0x41 }))
    expect([result.status, result.body]).toEqual([400, { error: "VerificationFailed" }])
    expect(app.adapter.users.size).toBe(0)
  })

  it("an assertion with another user's userHandle signs in only the credential's owner", async () => {
    const app = passkeyApp()
    const { key } = await signUpWith(app, "ada@example.com")
    await signUpWith(app, "grace@example.com")
    const browser = app.browser()
    const grace = userOf(app, "grace@example.com")
    const result = await signInWith(browser, key, { userHandle: Buffer.from(String(grace.id)).toString("base64url") })
    expect(result.status).toBe(200)
    expect((await sessionOf(browser))?.user?.email).toBe("ada@example.com")
  })

  it("a cloned authenticator presenting a counter at or below the stored one is refused (software authenticator)", async () => {
    const app = passkeyApp()
    const { browser, key } = await signUpWith(app, "ada@example.com")
    await signOut(browser)
    expect((await signInWith(browser, key, { counter: 7 })).status).toBe(200)
    await signOut(browser)
    for (const counter of [7, 3, 0]) expect((await signInWith(browser, key, { counter })).body, String(counter)).toEqual({ error: "VerificationFailed" })
    expect((await app.adapter.getAuthenticator(key.storedId))!.counter).toBe(7)
  })
})

describe("review 7: the options route tells a signed-out visitor nothing about users", () => {
  it("authenticate options are the same for any email given and carry no credential ids or user data", async () => {
    const app = passkeyApp()
    await signUpWith(app, "ada@example.com")
    const shapes = []
    for (const query of ["action=authenticate&email=ada%40example.com", "action=authenticate&email=nobody%40example.com", ""]) {
      const { status, body } = await options(app.browser(), query)
      expect(status).toBe(200)
      expect(body.action).toBe("authenticate")
      expect(JSON.stringify(body)).not.toMatch(/ada|allowCredentials":\[\{/)
      shapes.push(Object.keys(body.options).sort())
    }
    expect(new Set(shapes.map((keys) => keys.join()))).toHaveProperty("size", 1)
  })
})

describe("review 7: CSRF and methods on the passkey POSTs", () => {
  it("a cross-site sign-up POST (text/plain JSON, no token) is refused and consumes no challenge", async () => {
    const app = passkeyApp()
    const browser = app.browser()
    const started = await options(browser, "action=register&email=new%40example.com")
    const key = new SoftAuthenticator()
    const forged = await rawPost(browser, "callback/passkey", JSON.stringify({ action: "register", data: JSON.stringify(key.register(started.challenge!)) }), "text/plain")
    expect([forged.status, forged.body]).toEqual([403, { error: "MissingCSRF" }])
    expect(app.adapter.users.size).toBe(0)
    // A token from another browser does not pass either.
    const other = await csrfOf(app.browser())
    const foreign = await callback(browser, "register", key.register(started.challenge!), { csrfToken: other })
    expect([foreign.status, foreign.body]).toEqual([403, { error: "MissingCSRF" }])
    expect((await callback(browser, "register", key.register(started.challenge!))).status).toBe(200)
  })

  it("HEAD on the callback changes nothing (405), and the challenge stays usable", async () => {
    const app = passkeyApp()
    const { key } = await signUpWith(app, "ada@example.com")
    const browser = app.browser()
    const started = await options(browser, "action=authenticate")
    const { response } = await browser.open(`${ORIGIN}/auth/callback/passkey`, { method: "HEAD" })
    expect(response.status).toBe(405)
    expect((await callback(browser, "authenticate", key.assert(started.challenge!))).status).toBe(200)
  })
})

describe("review 7: malformed and huge input gets a typed 4xx, never a 500", () => {
  const bad: [string, unknown][] = [
    ["not JSON", "{"],
    ["null", null],
    ["an array", []],
    ["a number", 42],
    ["response null", { id: "AAAA", rawId: "AAAA", type: "public-key", response: null }],
    ["response a string", { id: "AAAA", rawId: "AAAA", type: "public-key", response: "x" }],
    ["id not base64url", { id: "!!!", rawId: "!!!", type: "public-key", response: {} }],
    ["id of 5000 characters", { id: "A".repeat(5000), rawId: "A".repeat(5000), type: "public-key", response: {} }],
    ["id an object", { id: { $ne: null }, type: "public-key", response: {} }],
    ["clientDataJSON not base64url", { id: "AAAA", rawId: "AAAA", type: "public-key", response: { clientDataJSON: "%%%", attestationObject: "%%%", authenticatorData: "%%%", signature: "%%%" } }],
    ["fields of the wrong types", { id: "AAAA", rawId: "AAAA", type: "public-key", response: { clientDataJSON: 1, attestationObject: [], authenticatorData: {}, signature: null } }],
  ]
  it.each(bad)("data %s: 400 with a code, for sign-in and for sign-up", async (_, data) => {
    const app = passkeyApp()
    await signUpWith(app, "ada@example.com")
    for (const action of ["authenticate", "register"] as const) {
      const browser = app.browser()
      await options(browser, action === "register" ? "action=register&email=new%40example.com" : "action=authenticate")
      const csrfToken = await csrfOf(browser)
      const result = await rawPost(browser, "callback/passkey", JSON.stringify({ action, csrfToken, data: typeof data === "string" ? data : JSON.stringify(data) }))
      expect(result.status, `${action}: ${result.text}`).toBe(400)
      expect(["InvalidRequest", "VerificationFailed", "UnknownCredential"], action).toContain(result.body.error)
      expect(Object.keys(result.body)).toEqual(["error"])
    }
    expect(app.errors).toEqual([])
  })

  it("a body over the limit is 413 and a malformed JSON body is 403 MissingCSRF, not 500", async () => {
    const app = passkeyApp()
    const browser = app.browser()
    const huge = await rawPost(browser, "callback/passkey", JSON.stringify({ action: "register", data: "x".repeat(MAX_BODY_BYTES + 10) }))
    expect(huge.status).toBe(413)
    const broken = await rawPost(browser, "callback/passkey", '{"action": "register", "data": ')
    expect([broken.status, broken.body]).toEqual([403, { error: "MissingCSRF" }])
    const nested = await rawPost(browser, "passkeys", `${"[".repeat(5000)}${"]".repeat(5000)}`)
    expect(nested.status).toBeLessThan(500)
    expect(app.errors).toEqual([])
  })

  it("the management API answers malformed ids and actions with a 4xx", async () => {
    const app = passkeyApp()
    const { browser } = await signUpWith(app, "ada@example.com")
    for (const fields of [{ action: "delete", id: "!!!" }, { action: "delete", id: "A".repeat(40_000) }, { action: "rename", id: "AAAA", name: "" }, { action: "nuke", id: "AAAA" }, { action: "delete" }]) {
      const result = await managePasskey(browser, fields as Record<string, string>)
      expect(result.status, JSON.stringify(fields).slice(0, 60)).toBeGreaterThanOrEqual(400)
      expect(result.status).toBeLessThan(500)
    }
    expect(app.errors).toEqual([])
  })
})
