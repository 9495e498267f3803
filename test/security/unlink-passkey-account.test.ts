// unlinkAccount on a passkey's account row ({ provider: "passkey", type: "webauthn" }, whose
// providerAccountId is the credential id). It once counted the very passkey being unlinked as
// "another way in", so a passkey-only user could unlink it: the authenticator row stayed (still
// listed by GET /auth/passkeys) while sign-in with it failed (UnknownCredential), a lockout. Now
// it removes the passkey as the passkeys route's delete does (the authenticator, then its account
// row), never counts that passkey as another way in, and never leaves one half-removed.
import { describe, expect, it } from "vitest"
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import type { Adapter } from "../../src/adapters/adapter.js"
import type { EmailConfig, OAuthConfig } from "../../src/providers/types.js"
import Passkey from "../../src/providers/passkey.js"
import { webauthn } from "../../src/webauthn/index.js"
import { TestBrowser } from "../servers/browser.js"
import { callback, fixtures, ORIGIN, plantChallenge, SECRET, signIn, signUp } from "../webauthn/support.js"

const ada = fixtures.registrations.ada
const grace = fixtures.registrations.grace
const base64 = (base64url: string) => Buffer.from(base64url, "base64url").toString("base64")
const ADA_KEY = base64(ada.response.id)
const GRACE_KEY = base64(grace.response.id)

const email = (): EmailConfig => ({ id: "email", name: "Email", type: "email", from: "a@example.com", sendVerificationRequest: () => {} })
const github = (): OAuthConfig => ({ id: "github", name: "GitHub", type: "oauth", clientId: "x", clientSecret: "y", authorization: "https://github.example/authorize", token: "https://github.example/token", userinfo: "https://github.example/user" })

/** A passkey app (database sessions, a memory adapter) whose account API the test calls directly. */
function passkeySite(config: Partial<AuthConfig> = {}, adapter: Adapter = memoryAdapter()) {
  const memory = adapter as ReturnType<typeof memoryAdapter>
  const auth = createAuth({
    providers: [Passkey({ allowSignUp: true })],
    adapter,
    webauthn,
    secret: SECRET,
    env: { AUTH_URL: `${ORIGIN}/auth` },
    session: { strategy: "database" },
    logger: { warn: () => {}, error: () => {} },
    ...config,
  })
  const dispatch: typeof fetch = async (input, init) => {
    const url = new URL(String(input))
    if (url.origin !== ORIGIN || !url.pathname.startsWith("/auth")) return new Response("app page")
    return auth.handler(new Request(url, init as RequestInit))
  }
  const browser = () => new TestBrowser(undefined, dispatch)
  const userId = () => String([...memory.users.values()][0]!.id)
  /** The account page's request, with this browser's cookies. */
  const requestFrom = (from: TestBrowser) => new Request(`${ORIGIN}/account`, { headers: { cookie: [...from.cookies(ORIGIN)].map(([name, value]) => `${name}=${value}`).join("; ") } })
  const listed = async (from: TestBrowser) => ((await (await from.open(`${ORIGIN}/auth/passkeys`)).response.json()) as { passkeys: { id: string }[] }).passkeys.map((passkey) => passkey.id).sort()
  /** Both rows of a passkey: its webauthn account and its authenticator. */
  const rows = async (key: string) => ({ account: (await memory.getAccount(key, "passkey")) !== null, authenticator: (await memory.getAuthenticator(key)) !== null })
  return { auth, adapter: memory, browser, userId, requestFrom, listed, rows }
}

/** Adds Grace's recorded credential as a second passkey of the signed-in user. */
async function addSecondPasskey(site: ReturnType<typeof passkeySite>, browser: TestBrowser) {
  await plantChallenge(browser, grace.challenge, "register", "passkey", { userId: site.userId() })
  const added = await callback(browser, "register", grace.response)
  expect(added.status, JSON.stringify(added.body)).toBe(200)
}

describe("unlinkAccount on a passkey's account row", () => {
  it("refuses a passkey-only user's only passkey (LastSignInMethodError); both rows stay and the passkey still signs in", async () => {
    const site = passkeySite()
    const browser = site.browser()
    await signUp(browser, "ada")
    await expect(site.auth.unlinkAccount(site.requestFrom(browser), { provider: "passkey", providerAccountId: ADA_KEY })).rejects.toMatchObject({ code: "ERR_LAST_SIGN_IN_METHOD" })
    expect(await site.rows(ADA_KEY)).toEqual({ account: true, authenticator: true })
    const fresh = site.browser()
    const signedIn = await signIn(fresh, "ada1")
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200)
  })

  it("with two passkeys, unlinking one removes that passkey entirely; the other is then the last and is refused", async () => {
    const site = passkeySite()
    const browser = site.browser()
    await signUp(browser, "ada")
    await addSecondPasskey(site, browser)
    await site.auth.unlinkAccount(site.userId(), { provider: "passkey", providerAccountId: GRACE_KEY })
    expect(await site.rows(GRACE_KEY)).toEqual({ account: false, authenticator: false })
    expect(await site.listed(browser)).toEqual([ada.response.id])
    await expect(site.auth.unlinkAccount(site.userId(), { provider: "passkey", providerAccountId: ADA_KEY })).rejects.toMatchObject({ code: "ERR_LAST_SIGN_IN_METHOD" })
    expect(await site.rows(ADA_KEY)).toEqual({ account: true, authenticator: true })
  })

  it("with an email provider reaching the user, the only passkey can go, and nothing half-written remains", async () => {
    const site = passkeySite({ providers: [Passkey({ allowSignUp: true }), email()] })
    const browser = site.browser()
    await signUp(browser, "ada")
    await site.auth.unlinkAccount(site.requestFrom(browser), { provider: "passkey", providerAccountId: ADA_KEY })
    expect(await site.rows(ADA_KEY)).toEqual({ account: false, authenticator: false })
    expect(await site.listed(browser)).toEqual([])
  })

  it("with an OAuth account: either can be unlinked while the other remains, and an unlinked passkey no longer counts", async () => {
    const site = passkeySite({ providers: [Passkey({ allowSignUp: true }), github()] })
    const browser = site.browser()
    await signUp(browser, "ada")
    const userId = site.userId()
    const gh = { provider: "github", providerAccountId: "gh-1" }
    // The passkey is another way in, so the OAuth account can go (as before).
    await site.adapter.linkAccount({ userId, ...gh, type: "oauth" })
    await site.auth.unlinkAccount(userId, gh)
    expect(await site.adapter.getUserByAccount(gh)).toBeNull()
    // The OAuth account is another way in, so the passkey can go: both of its rows.
    await site.adapter.linkAccount({ userId, ...gh, type: "oauth" })
    await site.auth.unlinkAccount(userId, { provider: "passkey", providerAccountId: ADA_KEY })
    expect(await site.rows(ADA_KEY)).toEqual({ account: false, authenticator: false })
    expect(await site.listed(browser)).toEqual([])
    // Now the OAuth account is the last way in.
    await expect(site.auth.unlinkAccount(userId, gh)).rejects.toMatchObject({ code: "ERR_LAST_SIGN_IN_METHOD" })
  })

  it("an adapter without deleteAuthenticator gets a typed error naming it, and both rows stay", async () => {
    const { deleteAuthenticator: _missing, ...adapter } = memoryAdapter()
    const site = passkeySite({ providers: [Passkey({ allowSignUp: true }), email()] }, adapter)
    const browser = site.browser()
    await signUp(browser, "ada")
    await expect(site.auth.unlinkAccount(site.userId(), { provider: "passkey", providerAccountId: ADA_KEY })).rejects.toMatchObject({ code: "ERR_ADAPTER_METHOD", methods: ["deleteAuthenticator"] })
    expect(await site.rows(ADA_KEY)).toEqual({ account: true, authenticator: true })
  })

  it("a passkey whose account row is already gone (it cannot sign in) is not another way in", async () => {
    const site = passkeySite()
    const browser = site.browser()
    await signUp(browser, "ada")
    await addSecondPasskey(site, browser)
    // Left behind by the old defect: an authenticator without its account row.
    await site.adapter.unlinkAccount({ provider: "passkey", providerAccountId: GRACE_KEY })
    await expect(site.auth.unlinkAccount(site.userId(), { provider: "passkey", providerAccountId: ADA_KEY })).rejects.toMatchObject({ code: "ERR_LAST_SIGN_IN_METHOD" })
    expect(await site.rows(ADA_KEY)).toEqual({ account: true, authenticator: true })
  })
})
