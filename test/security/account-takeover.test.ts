// Account takeover through linking, attacked the way the outside review did: through the handler,
// with a victim's and an attacker's browser, a sibling subdomain that plants cookies, and a real
// oidc-provider. Each test owns its app, adapter and browsers, so it runs alone under -t.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import type { EmailConfig, OIDCConfig } from "../../src/providers/types.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { csrfOf, jarOf, ORIGIN, plantFromSibling, post, secureApp, sessionOf } from "./support.js"

const VICTIM = { sub: "victim-sub", email: "victim@example.com", name: "Victim" }
const ATTACKER = { sub: "attacker-sub", email: "attacker@evil.example", name: "Attacker" }
let idp: OidcServer

beforeAll(async () => {
  idp = await startOidcServer({
    accounts: [VICTIM, ATTACKER],
    clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${ORIGIN}/auth/callback/corp`], grant_types: ["authorization_code"] }],
  })
})
afterAll(() => idp.close())

const corp = (): OIDCConfig => ({ id: "corp", name: "Corp", type: "oidc", issuer: idp.issuer, clientId: "app", clientSecret: "app-secret", authorization: { params: { scope: "openid email profile" } } })

function mailbox() {
  const sent: { to: string; url: string }[] = []
  const provider: EmailConfig = { id: "email", name: "Email", type: "email", from: "auth@example.com", sendVerificationRequest: ({ identifier, url }) => void sent.push({ to: identifier, url }) }
  return { sent, provider }
}

/** The user id the adapter holds for a provider account, or undefined. */
function ownerOf(adapter: ReturnType<typeof memoryAdapter>, provider: string, providerAccountId: string): string | undefined {
  return [...adapter.accounts.values()].find((account) => account.provider === provider && account.providerAccountId === providerAccountId)?.userId
}

/** The id of the user row with `email`: an emailed link signs in by the address, with no account row, as in Auth.js. */
function userWithEmail(adapter: ReturnType<typeof memoryAdapter>, email: string): string | undefined {
  return [...adapter.users.values()].find((user) => user.email === email)?.id
}

describe("magic link (review item 1)", () => {
  it("a link opened by a signed-in victim signs in as the link's address, never links it to the victim", async () => {
    const adapter = memoryAdapter()
    const { sent, provider } = mailbox()
    const site = secureApp({ providers: [corp(), provider], adapter })
    const victim = site.browser()
    idp.signInAs(VICTIM.sub)
    await post(victim, "/auth/signin/corp", { csrfToken: await csrfOf(victim) })
    const victimId = (await sessionOf(victim))?.user && ownerOf(adapter, "corp", VICTIM.sub)
    expect(victimId).toBeDefined()

    // The attacker asks for a link to an address they own, then gets the victim to open it.
    const attacker = site.browser()
    await post(attacker, "/auth/signin/email", { csrfToken: await csrfOf(attacker), email: "fresh@evil.example" })
    expect(sent).toHaveLength(1)
    await victim.open(sent[0]!.url)
    expect(userWithEmail(adapter, "fresh@evil.example")).toBeDefined()
    expect(userWithEmail(adapter, "fresh@evil.example")).not.toBe(victimId)

    // The attacker's next link must not sign them in as the victim.
    await post(attacker, "/auth/signin/email", { csrfToken: await csrfOf(attacker), email: "fresh@evil.example" })
    expect(sent).toHaveLength(2)
    await attacker.open(sent[1]!.url)
    const attackerSession = await sessionOf(attacker)
    expect(attackerSession?.user.email).toBe("fresh@evil.example")
    expect(userWithEmail(adapter, "fresh@evil.example")).not.toBe(victimId)
    expect(adapter.users.get(victimId!)?.email).toBe(VICTIM.email)
  })

  it("a link is bound to its address: the same token with another email is refused", async () => {
    const adapter = memoryAdapter()
    const { sent, provider } = mailbox()
    const site = secureApp({ providers: [provider], adapter })
    const attacker = site.browser()
    await post(attacker, "/auth/signin/email", { csrfToken: await csrfOf(attacker), email: "attacker@evil.example" })
    const link = new URL(sent[0]!.url)
    link.searchParams.set("email", "victim@example.com")
    const { url } = await attacker.open(link)
    expect(url.searchParams.get("error")).toBe("Verification")
    expect(await sessionOf(attacker)).toBeNull()
  })

  it("an expired link is refused", async () => {
    const adapter = memoryAdapter()
    const { sent, provider } = mailbox()
    const site = secureApp({ providers: [{ ...provider, maxAge: 60 * 60 }], adapter })
    const user = site.browser()
    await post(user, "/auth/signin/email", { csrfToken: await csrfOf(user), email: "late@example.com" })
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61 * 60 * 1000 })
    try {
      const { url } = await user.open(sent[0]!.url)
      expect(url.searchParams.get("error")).toBe("Verification")
    } finally {
      vi.useRealTimers()
    }
    expect(await sessionOf(user)).toBeNull()
  })
})

describe("credentials (review item 4)", () => {
  it("bob logging in while alice is signed in becomes bob, and nothing links bob to alice", async () => {
    const adapter = memoryAdapter()
    const passwords: Record<string, string> = { alice: "alice-pw", bob: "bob-pw" }
    const provider = Credentials({
      credentials: { username: {}, password: {} },
      authorize: ({ username, password }) => (typeof username === "string" && passwords[username] === password ? { id: `id-${username}`, name: username } : null),
    })
    const site = secureApp({ providers: [provider], adapter })
    const shared = site.browser()
    await post(shared, "/auth/signin/credentials", { csrfToken: await csrfOf(shared), username: "alice", password: "alice-pw" })
    expect((await sessionOf(shared))?.user.name).toBe("alice")
    await post(shared, "/auth/signin/credentials", { csrfToken: await csrfOf(shared), username: "bob", password: "bob-pw" })
    expect((await sessionOf(shared))?.user.name).toBe("bob")
    expect(ownerOf(adapter, "credentials", "id-bob")).not.toBe("id-alice")
    const clean = site.browser()
    await post(clean, "/auth/signin/credentials", { csrfToken: await csrfOf(clean), username: "bob", password: "bob-pw" })
    expect((await sessionOf(clean))?.user.name).toBe("bob")
  })
})

describe("check cookies planted by a sibling subdomain (review item 6)", () => {
  it("the attacker's checks and callback, replayed in the victim's browser, do not link the attacker's account to the victim", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [corp()], adapter })
    const victim = site.browser()
    idp.signInAs(VICTIM.sub)
    await post(victim, "/auth/signin/corp", { csrfToken: await csrfOf(victim) })
    const victimId = ownerOf(adapter, "corp", VICTIM.sub)
    expect(victimId).toBeDefined()

    // The attacker starts a sign-in in their own browser and stops before the callback.
    idp.signInAs(ATTACKER.sub)
    const attacker = site.browser()
    const start = await site.dispatch(`${ORIGIN}/auth/signin/corp`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: await cookieHeaderWithCsrf(attacker) },
      body: new URLSearchParams({ csrfToken: await csrfOf(attacker) }).toString(),
    })
    attacker.acceptCookies(ORIGIN, start.headers.getSetCookie())
    const hop = await attacker.navigate(start.headers.get("location")!, `${ORIGIN}/auth/callback/corp`)
    const checks = Object.fromEntries(Object.entries(jarOf(attacker)).filter(([name]) => /pkce|state|nonce/.test(name)))

    // A sibling plants those checks in the victim's browser (under every name it is able to set),
    // and sends the victim to the attacker's callback.
    expect(Object.keys(checks).length).toBeGreaterThan(0)
    const renamed = Object.entries(checks).map(([name, value]) => [name.replace(/^__Host-/, "__Secure-"), value])
    plantFromSibling(victim, { ...checks, ...Object.fromEntries(renamed) })
    await victim.open(hop.request.url)
    expect(ownerOf(adapter, "corp", ATTACKER.sub)).not.toBe(victimId)
    expect((await sessionOf(victim))?.user.email).toBe(VICTIM.email)

    // Signing in with the attacker's provider account must not reach the victim's user.
    const later = site.browser()
    await post(later, "/auth/signin/corp", { csrfToken: await csrfOf(later) })
    expect((await sessionOf(later))?.user.email).toBe(ATTACKER.email)
  })
})

/** The Cookie header a browser would send to ORIGIN after fetching a CSRF token. */
async function cookieHeaderWithCsrf(browser: ReturnType<ReturnType<typeof secureApp>["browser"]>): Promise<string> {
  await csrfOf(browser)
  return Object.entries(jarOf(browser)).map(([name, value]) => `${name}=${value}`).join("; ")
}

describe("session injection by a sibling subdomain (review item 7)", () => {
  it("a session planted in a signed-out browser does not absorb the victim's next sign-in", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [corp()], adapter })
    idp.signInAs(ATTACKER.sub)
    const attacker = site.browser()
    await post(attacker, "/auth/signin/corp", { csrfToken: await csrfOf(attacker) })
    const attackerId = ownerOf(adapter, "corp", ATTACKER.sub)
    expect(attackerId).toBeDefined()
    const sessionCookies = Object.fromEntries(Object.entries(jarOf(attacker)).filter(([name]) => name.includes("session-token")))

    const victim = site.browser()
    plantFromSibling(victim, sessionCookies)
    idp.signInAs(VICTIM.sub)
    await post(victim, "/auth/signin/corp", { csrfToken: await csrfOf(victim) })
    expect(ownerOf(adapter, "corp", VICTIM.sub)).toBeDefined()
    expect(ownerOf(adapter, "corp", VICTIM.sub)).not.toBe(attackerId)
    expect((await sessionOf(victim))?.user.email).toBe(VICTIM.email)
  })

  it("a signed-in user can still link a second account in their own browser", async () => {
    const adapter = memoryAdapter()
    const { sent, provider } = mailbox()
    const site = secureApp({ providers: [corp(), provider], adapter })
    const user = site.browser()
    await post(user, "/auth/signin/email", { csrfToken: await csrfOf(user), email: "someone@example.com" })
    await user.open(sent[0]!.url)
    const userId = userWithEmail(adapter, "someone@example.com")
    expect(userId).toBeDefined()
    idp.signInAs(VICTIM.sub)
    await post(user, "/auth/signin/corp", { csrfToken: await csrfOf(user) })
    expect(ownerOf(adapter, "corp", VICTIM.sub)).toBe(userId)
  })

  it("with the __Host- session cookie option, a sibling cannot plant a session at all", async () => {
    const site = secureApp({ providers: [corp()], cookies: { sessionToken: { name: "__Host-authjs.session-token" } } })
    idp.signInAs(ATTACKER.sub)
    const attacker = site.browser()
    await post(attacker, "/auth/signin/corp", { csrfToken: await csrfOf(attacker) })
    const names = Object.keys(jarOf(attacker)).filter((name) => name.includes("session-token"))
    expect(names).toEqual(["__Host-authjs.session-token"])
    const victim = site.browser()
    plantFromSibling(victim, { ...jarOf(attacker), "__Secure-authjs.session-token": jarOf(attacker)["__Host-authjs.session-token"]! })
    expect(await sessionOf(victim)).toBeNull()
  })
})
