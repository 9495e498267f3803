// Mutation probe of the plug-ins (passkeys on @simplewebauthn/server, provider tokens) and the
// framework integrations: each describe pins one guard that could be deleted without any other test
// failing, with the attack that deleting it lets through, driven the way an attacker drives it:
// through createAuth's handler with a browser-like cookie jar (a software authenticator answering
// the real options, a real rotating oidc-provider), or through the integration's public entry.
import { createHash, generateKeyPairSync, sign } from "node:crypto"
import { isoCBOR } from "@simplewebauthn/server/helpers"
import { describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { memorySessionVersions } from "../../src/adapters/session-versions.js"
import { Latchkey as NextLatchkey } from "../../src/integrations/next/index.js"
import { refreshTokens } from "../../src/oauth/tokens.js"
import Credentials from "../../src/providers/credentials.js"
import Passkey from "../../src/providers/passkey.js"
import { webauthn } from "../../src/webauthn/index.js"
import { providerTokens } from "../../src/provider-tokens/index.js"
import type { TestBrowser } from "../servers/browser.js"
import { gatedFetch, refreshingProvider, requestFrom, sessionRead, signedIn } from "../tokens/support.js"
import { callback, ORIGIN as PASSKEY_ORIGIN, passkeyApp, sessionOf } from "../webauthn/support.js"
import { options, SoftAuthenticator } from "./review7-passkeys-support.js"
import { csrfOf, ORIGIN as APP, plantFromSibling, post, SECRET, secureApp, sessionOf as sessionOfApp, stolenFrom } from "./support.js"

type App = ReturnType<typeof passkeyApp>

const quietLogger = { error: () => {}, warn: () => {}, debug: () => {} }

/** A passkey sign-up for `email` with a fresh software authenticator, end to end; answers the browser and the authenticator. */
async function signedUp(app: App, email: string, browser: TestBrowser = app.browser(), key = new SoftAuthenticator()) {
  const started = await options(browser, `action=register&email=${encodeURIComponent(email)}`)
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  const result = await callback(browser, "register", key.register(started.challenge!))
  expect(result.status, JSON.stringify(result.body)).toBe(200)
  return { browser, key }
}

/**
 * `registration` with its attestation turned into a packed self-attestation signed by `signer`:
 * well formed, but the signature is not made with the key being registered (someone else's key,
 * or one the sender never held).
 */
function packedSelfAttestation(registration: ReturnType<SoftAuthenticator["register"]>, signer = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey) {
  const attestation = isoCBOR.decodeFirst<Map<string, unknown>>(Buffer.from(registration.response.attestationObject, "base64url"))
  const authData = attestation.get("authData") as Uint8Array
  const clientDataHash = createHash("sha256").update(Buffer.from(registration.response.clientDataJSON, "base64url")).digest()
  const sig = sign("sha256", Buffer.concat([authData, clientDataHash]), signer)
  const attStmt = new Map<string, unknown>([["alg", -7], ["sig", new Uint8Array(sig)]])
  const packed = isoCBOR.encode(new Map<string, unknown>([["fmt", "packed"], ["attStmt", attStmt], ["authData", authData]]) as never)
  return { ...registration, response: { ...registration.response, attestationObject: Buffer.from(packed).toString("base64url") } }
}

describe("passkey registration: the library's verdict on the attestation is honoured", () => {
  // Guard: src/webauthn/ceremony.ts:verifyRegistration (`if (!result.verified) throw`)
  it("attack: a packed self-attestation not signed by the registered key adds no passkey and signs nobody up", async () => {
    const app = passkeyApp()
    const browser = app.browser()
    const started = await options(browser, "action=register&email=mallory%40example.com")
    expect(started.status).toBe(200)
    const forged = packedSelfAttestation(new SoftAuthenticator().register(started.challenge!))
    const result = await callback(browser, "register", forged)
    expect([result.status, result.body]).toEqual([400, { error: "VerificationFailed" }])
    expect(app.refusals()).toEqual(["verification_failed"])
    expect([app.adapter.users.size, app.adapter.accounts.size]).toEqual([0, 0])
    expect(await sessionOf(browser)).toBeNull()
  })
})

describe("adding a passkey: the callbackUrl it answers stays on the app", () => {
  // Guard: src/webauthn/routes.ts:register (`host.safeRedirect(form.get("callbackUrl"))` for a signed-in user's new passkey)
  const targets = ["https://evil.example/steal", "//evil.example/steal", "/\\evil.example/steal"]
  it.each(targets)("attack: callbackUrl %s answers a URL on the app's origin, not the attacker's", async (target) => {
    const app = passkeyApp()
    const { browser } = await signedUp(app, "ada@example.com")
    const started = await options(browser, "action=register")
    expect(started.status).toBe(200)
    const second = new SoftAuthenticator()
    const added = await callback(browser, "register", second.register(started.challenge!), { callbackUrl: target })
    expect(added.status, JSON.stringify(added.body)).toBe(200)
    // The served script follows `url`: it must be the app's own.
    expect(new URL(added.body.url, PASSKEY_ORIGIN).origin).toBe(PASSKEY_ORIGIN)
    expect(added.body.passkey).toMatchObject({ id: second.id })
  })
})

describe("passkey sign-in: a credential id is bounded before any adapter query", () => {
  // Guard: src/webauthn/routes.ts:authenticate (`id.length > 1400` -> invalid_response)
  it("attack: an assertion naming a 2 000-character credential id is refused as malformed and looked up nowhere", async () => {
    const base = memoryAdapter()
    const lookedUp: string[] = []
    const adapter = { ...base, getAuthenticator: (id: string) => (lookedUp.push(id), base.getAuthenticator(id)) }
    const app = passkeyApp({ adapter })
    const browser = app.browser()
    const started = await options(browser, "action=authenticate")
    expect(started.status).toBe(200)
    const assertion = new SoftAuthenticator().assert(started.challenge!)
    const huge = "A".repeat(2_000)
    const result = await callback(browser, "authenticate", { ...assertion, id: huge, rawId: huge })
    expect([result.status, result.body]).toEqual([400, { error: "InvalidRequest" }])
    expect(lookedUp).toEqual([])
  })
})

/** A passkey ceremony's two requests on the https app: the options (GET) and the callback (POST, as the served script sends it). */
async function httpsOptions(browser: TestBrowser, query: string) {
  const { response } = await browser.open(`${APP}/auth/webauthn-options/passkey?${query}`)
  const body = (await response.json()) as Record<string, any>
  return { status: response.status, challenge: body.options?.challenge as string, setCookies: response.headers.getSetCookie() }
}

async function httpsCallback(browser: TestBrowser, action: "register" | "authenticate", data: unknown) {
  const csrfToken = await csrfOf(browser)
  const body = JSON.stringify({ action, data: JSON.stringify(data), csrfToken })
  const { response } = await browser.open(`${APP}/auth/callback/passkey`, { method: "POST", headers: { "content-type": "application/json" }, body })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

describe("passkeys over https: the challenge cookie is one only this host can set", () => {
  // Guard: src/webauthn/challenge.ts:challengeCookieName (`secure ? "__Host-latchkey.webauthn-challenge" : ...`)
  it("attack: a challenge a sibling subdomain plants (it cannot set __Host-) is never read: no sign-in as the attacker in the victim's browser", async () => {
    const site = secureApp({ providers: [Passkey({ allowSignUp: true })], adapter: memoryAdapter(), webauthn, logger: quietLogger })
    const ceremony = { origin: APP, rpId: new URL(APP).hostname }
    // The attacker signs up on the app with their own passkey, then starts a sign-in in their own browser.
    const attacker = site.browser()
    const key = new SoftAuthenticator()
    const signUp = await httpsOptions(attacker, "action=register&email=mallory%40evil.example")
    expect((await httpsCallback(attacker, "register", key.register(signUp.challenge, ceremony))).status).toBe(200)
    const started = await httpsOptions(attacker, "action=authenticate")
    const [, sealed] = [...attacker.cookies(APP)].find(([name]) => name.endsWith("webauthn-challenge"))!
    // A sibling subdomain plants the attacker's sealed challenge in the victim's browser, under every name it can set.
    const victim = site.browser()
    plantFromSibling(victim, { "latchkey.webauthn-challenge": sealed, "__Secure-latchkey.webauthn-challenge": sealed })
    const answered = await httpsCallback(victim, "authenticate", key.assert(started.challenge, ceremony))
    expect([answered.status, answered.body]).toEqual([400, { error: "InvalidChallenge" }])
    expect(await sessionOfApp(victim)).toBeNull()
    // Because the app's own challenge cookie is host-only and `__Host-`: Secure, Path=/, no Domain.
    const line = started.setCookies.find((cookie) => cookie.includes("webauthn-challenge="))!
    expect(line).toMatch(/^__Host-latchkey\.webauthn-challenge=[^;]+; /)
    expect(line).toMatch(/; Path=\/(;|$)/)
    expect(line).not.toMatch(/; Domain=/i)
  })
})

const idp = refreshingProvider()
const SESSION_COOKIE = "__Secure-authjs.session-token"
const CACHED = { strategy: "database" as const, cache: { maxAge: 300 } }

/**
 * A victim signed in through the rotating provider with database sessions and the session cache,
 * their cookies stolen, and then their session ended by their own sign-out: the row is gone, but
 * the stolen cache copy still answers reads for `cache.maxAge` (SECURITY.md, "Known limits").
 */
async function signedOutVictim() {
  const adapter = memoryAdapter()
  const { site, browser: victim } = await signedIn(idp(), { adapter, logger: quietLogger, session: CACHED, providerTokens: providerTokens({ refresh: true }) })
  const row = () => [...adapter.accounts.values()].find((account) => account.provider === "corp")!
  const before = { ...row() }
  const thief = stolenFrom(victim, site.browser())
  const sessionToken = victim.cookies(APP).get(SESSION_COOKIE)!
  expect(await adapter.getSessionAndUser(sessionToken)).not.toBeNull()
  await post(victim, "/auth/signout", { csrfToken: await csrfOf(victim) })
  expect(await adapter.getSessionAndUser(sessionToken)).toBeNull()
  return { site, thief, row, before }
}

describe("provider tokens, database sessions: a session read refreshes only for a session its row confirms", () => {
  // Guard: src/provider-tokens/account-refresh.ts:checkUserAccounts (`!(await session.confirm())` before a due refresh)
  it("attack: the cache copy of a signed-out session, read with stolen cookies, rotates none of the victim's tokens and reads as signed out", async () => {
    const { site, thief, row, before } = await signedOutVictim()
    const grants = idp().refreshGrants()
    // The sign-in's access token is due at once: a read trusting the copy would refresh it now.
    const { session } = await sessionRead(site, requestFrom(thief))
    expect(idp().refreshGrants()).toBe(grants)
    expect([row().access_token, row().refresh_token]).toEqual([before.access_token, before.refresh_token])
    expect(session).toBeNull()
  })
})

describe("provider tokens, database sessions: getAccessToken refreshes only for a session its row confirms", () => {
  // Guard: src/provider-tokens/account-refresh.ts:freshAccountOf (`isDueRow(...) && !(await session.confirm())`)
  it("attack: getAccessToken with a signed-out session's stolen cache copy mints no new access token and rotates nothing", async () => {
    const { site, thief, row, before } = await signedOutVictim()
    const grants = idp().refreshGrants()
    expect(await site.getAccessToken(requestFrom(thief), "corp")).toBeNull()
    expect(idp().refreshGrants()).toBe(grants)
    expect([row().access_token, row().refresh_token]).toEqual([before.access_token, before.refresh_token])
  })
})

describe("provider tokens, database sessions: a refresh's write-back goes only into its own user's row", () => {
  // Guard: src/provider-tokens/account-refresh.ts:writeAccount (the row read again, `storedRow`'s owner check), on both write paths:
  // an adapter with updateAccount (latchkey's own) writes in place, an Auth.js one unlinks and re-links the row it read back.
  const adapters = { "with updateAccount": (base: ReturnType<typeof memoryAdapter>) => base, "without updateAccount (Auth.js)": ({ updateAccount: _update, ...authjsLike }: ReturnType<typeof memoryAdapter>) => authjsLike }
  it.each(Object.entries(adapters))("attack: a provider account moved to another user while the old owner's refresh is in flight keeps the new owner's tokens (%s)", async (_name, adapterOf) => {
    const base = memoryAdapter()
    const gate = gatedFetch()
    const config = { adapter: adapterOf(base), logger: quietLogger, session: { strategy: "database" as const }, fetch: gate.fetch }
    const { site, browser } = await signedIn(idp(), { ...config, providerTokens: providerTokens({ refresh: true }) })
    const first = [...base.accounts.values()].find((account) => account.provider === "corp")!
    gate.hold()
    const reading = site.getAccessToken(requestFrom(browser), "corp")
    await gate.arrived
    // Meanwhile the account is detached from its first user and linked to another (another instance, or the app's support desk).
    const other = await base.createUser({ email: "new-owner@example.com", emailVerified: null })
    await base.unlinkAccount({ provider: first.provider, providerAccountId: first.providerAccountId })
    await base.linkAccount({ ...first, userId: other.id, access_token: "new-owner-access", refresh_token: "new-owner-refresh" })
    gate.release()
    await reading
    const rows = [...base.accounts.values()].filter((account) => account.provider === "corp")
    expect(rows.map((account) => [account.userId, account.access_token, account.refresh_token])).toEqual([[other.id, "new-owner-access", "new-owner-refresh"]])
    expect(await base.getUserByAccount({ provider: first.provider, providerAccountId: first.providerAccountId })).toMatchObject({ id: other.id })
  })
})

describe("provider tokens, JWT sessions: a token handed out without a refresh is still its linked account's", () => {
  // Guard: src/provider-tokens/access-token.ts:accessTokenOf (`stillLinked(...)` before handing out a token that is not due)
  it("attack: after the user disconnects the provider, getAccessToken hands out nothing, even with a fresh token in the cookie", async () => {
    const adapter = memoryAdapter()
    const email = { id: "email", name: "Email", type: "email" as const, from: "auth@example.com", sendVerificationRequest: () => {} }
    const config = { adapter, session: { strategy: "jwt" as const }, logger: quietLogger, providers: [idp().provider(), email] }
    const { site, browser } = await signedIn(idp(), { ...config, providerTokens: providerTokens({ refresh: true }) })
    // A cookie-writing read refreshes the due sign-in token: the browser now holds one that lives an hour.
    await browser.open(`${APP}/auth/session`)
    const fresh = await site.getAccessToken(requestFrom(browser), "corp")
    expect(fresh).toEqual(expect.any(String))
    const grants = idp().refreshGrants()
    const account = [...adapter.accounts.values()].find((row) => row.provider === "corp")!
    // The user clicks "Disconnect Corp" (they still sign in by email).
    await site.unlinkAccount(requestFrom(browser), { provider: "corp", providerAccountId: account.providerAccountId })
    expect(await site.getAccessToken(requestFrom(browser), "corp")).toBeNull()
    expect(idp().refreshGrants()).toBe(grants)
  })
})

describe("provider tokens, JWT sessions: a due refresh fails closed when the version store cannot answer", () => {
  // Guard: src/provider-tokens/jwt-session.ts:confirmedForRefresh (`catch { ...; return false }`)
  it("attack: with the shared version store down, a due token is neither refreshed nor handed out (a revocation cannot be checked)", async () => {
    const versions = memorySessionVersions()
    let down = false
    const revocationStore = {
      get: (userId: string, fresh?: boolean) => {
        if (down) throw new Error("ECONNREFUSED 127.0.0.1:6379")
        return versions.get(userId, fresh)
      },
      bump: (userId: string, ttlSeconds: number) => versions.bump(userId, ttlSeconds),
    }
    const config = { session: { strategy: "jwt" as const, revocationStore }, logger: quietLogger }
    const { site, browser } = await signedIn(idp(), { ...config, providerTokens: providerTokens({ refresh: true }) })
    down = true
    const grants = idp().refreshGrants()
    // The sign-in's token is due: a refresh is a write, and no store says the session still holds.
    expect(await site.getAccessToken(requestFrom(browser), "corp")).toBeNull()
    await sessionRead(site, requestFrom(browser))
    expect(idp().refreshGrants()).toBe(grants)
  })
})

describe("provider tokens, database sessions: revocation at sign-out only for a session its row confirms", () => {
  // Guard: src/provider-tokens/federated-signout.ts:providerSignOut (`!session || (await session.confirm())` before revoking)
  it("attack: a sign-out posted with a revoked session's stolen cache copy does not revoke the victim's refresh token at the provider", async () => {
    const adapter = memoryAdapter()
    const revoking = providerTokens({ signOut: { revokeTokens: true } })
    const { site, browser: victim } = await signedIn(idp(), { adapter, logger: quietLogger, session: CACHED, providerTokens: revoking })
    const row = [...adapter.accounts.values()].find((account) => account.provider === "corp")!
    expect(row.refresh_token).toEqual(expect.any(String))
    const thief = stolenFrom(victim, site.browser())
    // The app ends the victim's session (an admin's "end this session"): the row goes, the stolen copy lingers.
    const sessionToken = victim.cookies(APP).get(SESSION_COOKIE)!
    await site.revokeSession(sessionToken)
    expect(await adapter.getSessionAndUser(sessionToken)).toBeNull()
    await post(thief, "/auth/signout", { csrfToken: await csrfOf(thief) })
    // The victim's grant at the provider lives on: its refresh token still refreshes.
    await expect(refreshTokens(idp().provider(), row.refresh_token as string)).resolves.toMatchObject({ access_token: expect.any(String) })
  })
})

describe("provider tokens, JWT sessions: getAccessToken hands out nothing for a due token the shared store refuses", () => {
  // Guard: src/provider-tokens/access-token.ts:accessTokenOf (`"refused" in fresh` -> null)
  it("attack: stolen cookies revoked elsewhere, still honoured by this instance's copy of the version, get no access token (not even the old one)", async () => {
    const versions = memorySessionVersions()
    // This instance's local copy of each user's version, as redisSessionVersions keeps one for `cacheMs`: reads use it, a refresh asks the store itself.
    const copies = new Map<string, number>()
    const revocationStore = {
      get: (userId: string, fresh?: boolean) => (!fresh && copies.has(userId) ? copies.get(userId)! : versions.get(userId, fresh)),
      bump: (userId: string, ttlSeconds: number) => versions.bump(userId, ttlSeconds),
    }
    const config = { session: { strategy: "jwt" as const, revocationStore }, logger: quietLogger }
    const { site, browser } = await signedIn(idp(), { ...config, providerTokens: providerTokens({ refresh: true }) })
    const stolen = requestFrom(browser)
    const userId = (await site.auth(stolen.clone()))!.user!.id!
    copies.set(userId, await versions.get(userId, true))
    // "Sign out everywhere", on another instance: the shared store has the new version, this instance's copy not yet.
    await versions.bump(userId, 3600)
    expect(await site.auth(stolen.clone())).not.toBeNull()
    const grants = idp().refreshGrants()
    // The sign-in's access token is due (and not yet expired): it must not be handed out to a session the store refuses.
    expect(await site.getAccessToken(stolen.clone(), "corp")).toBeNull()
    expect(idp().refreshGrants()).toBe(grants)
  })
})

describe("federated sign-out, database sessions: the id_token travels as a hint only when the app asked for it", () => {
  // Guard: src/provider-tokens/federated-signout.ts:endSessionUrl (`signOut.idTokenHint &&` before `id_token_hint`)
  it("without idTokenHint, the end-session URL carries no id_token, though the account row keeps one", async () => {
    const adapter = memoryAdapter()
    const federated = providerTokens({ signOut: { federated: true } })
    const { site, browser } = await signedIn(idp(), { adapter, logger: quietLogger, session: { strategy: "database" }, providerTokens: federated })
    expect([...adapter.accounts.values()].find((account) => account.provider === "corp")!.id_token).toEqual(expect.any(String))
    const form = new URLSearchParams({ csrfToken: await csrfOf(browser) })
    const cookie = [...browser.cookies(APP)].map(([name, value]) => `${name}=${value}`).join("; ")
    // The sign-out form's answer, not followed: where the browser is sent next.
    const headers = { cookie, "content-type": "application/x-www-form-urlencoded" }
    const response = await site.handler(new Request(`${APP}/auth/signout`, { method: "POST", headers, body: form }))
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    // It goes to the provider's end-session endpoint, with no id_token in a URL that browser history, logs and Referer keep.
    expect(`${location.origin}${location.pathname}`).toBe(`${idp().server.issuer}/session/end`)
    expect(location.searchParams.has("id_token_hint")).toBe(false)
  })
})

describe("latchkey/next proxy: only the handler's own paths skip the gate", () => {
  const config = { providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: () => null })], secret: SECRET, env: { AUTH_URL: APP } }

  // Guard: src/integrations/next/proxy.ts:createProxy (`url.pathname.startsWith(`${basePath}/`)`: the basePath as a whole segment)
  const paths = ["/authors/drafts", "/auth-admin", "/authx/secret?tab=1"]
  it.each(paths)("attack: %s, which only begins with the basePath's letters, is gated: a signed-out visitor is sent to sign in", async (path) => {
    const gate = NextLatchkey(config).proxy({ authorized: ({ auth }) => auth !== null })
    const answer = await gate(new Request(`${APP}${path}`))
    expect(answer?.status).toBe(307)
    const location = new URL(answer!.headers.get("location")!)
    expect(`${location.origin}${location.pathname}`).toBe(`${APP}/auth/signin`)
    expect(location.searchParams.get("callbackUrl")).toBe(path)
  })
})
