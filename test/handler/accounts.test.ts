// Account management through createAuth's API, with sessions and sign-ins through the handler.
import { describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import type { EmailConfig } from "../../src/providers/types.js"
import { corpProvider, csrfOf, jarOf, post, secureApp, sessionOf } from "../security/support.js"

const ADA = { sub: "ada-sub", email: "ada@example.com", name: "Ada" }
const EVE = { sub: "eve-sub", email: "eve@example.com", name: "Eve" }
const idp = corpProvider([ADA, EVE])

const corp = idp.provider

async function signedIn(site: ReturnType<typeof secureApp>, as: typeof ADA) {
  const browser = site.browser()
  idp.signInAs(as.sub)
  await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
  return browser
}

function userIdOf(adapter: ReturnType<typeof memoryAdapter>, sub: string): string {
  const owner = [...adapter.accounts.values()].find((account) => account.providerAccountId === sub)?.userId
  expect(owner).toBeDefined()
  return owner!
}

describe("revoking sessions", () => {
  it("revokeSessions signs a user out in every browser, and no one else", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [corp()], adapter })
    const laptop = await signedIn(site, ADA)
    const phone = await signedIn(site, ADA)
    const other = await signedIn(site, EVE)
    await site.revokeSessions(userIdOf(adapter, ADA.sub))
    expect(await sessionOf(laptop)).toBeNull()
    expect(await sessionOf(phone)).toBeNull()
    expect(await sessionOf(other)).toMatchObject({ user: { email: EVE.email } })
  })

  it("revokeSession ends one session", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [corp()], adapter })
    const laptop = await signedIn(site, ADA)
    const phone = await signedIn(site, ADA)
    await site.revokeSession(jarOf(laptop)["__Secure-authjs.session-token"]!)
    expect(await sessionOf(laptop)).toBeNull()
    expect(await sessionOf(phone)).not.toBeNull()
  })

  it("JWT sessions are revoked through their user's session version; one JWT session alone cannot be, and says so", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [corp()], adapter, session: { strategy: "jwt" } })
    const laptop = await signedIn(site, ADA)
    const other = await signedIn(site, EVE)
    await site.revokeSessions(userIdOf(adapter, ADA.sub))
    expect(await sessionOf(laptop)).toBeNull()
    expect(await sessionOf(other)).toMatchObject({ user: { email: EVE.email } })
    await expect(site.revokeSession("any")).rejects.toMatchObject({ code: "ERR_INVALID_OPTION", option: "session.strategy" })
  })

  it("an Auth.js adapter without deleteSessionsByUserId gets a typed error naming it", async () => {
    const { deleteSessionsByUserId: _missing, ...adapter } = memoryAdapter()
    const site = secureApp({ providers: [corp()], adapter })
    await expect(site.revokeSessions("any")).rejects.toMatchObject({ code: "ERR_ADAPTER_METHOD", methods: ["deleteSessionsByUserId"] })
  })
})

describe("unlinking and deleting", () => {
  const email = (): EmailConfig => ({ id: "email", name: "Email", type: "email", from: "a@example.com", sendVerificationRequest: () => {} })

  it("refuses the last way to sign in, and another user's account; unlinks when another way remains", async () => {
    const adapter = memoryAdapter()
    const github = { id: "github", name: "GitHub", type: "oauth" as const, clientId: "x", clientSecret: "y", authorization: "https://github.example/authorize", token: "https://github.example/token", userinfo: "https://github.example/user" }
    const site = secureApp({ providers: [corp(), github], adapter })
    await signedIn(site, ADA)
    await signedIn(site, EVE)
    const ada = userIdOf(adapter, ADA.sub)
    await expect(site.unlinkAccount(ada, { provider: "corp", providerAccountId: ADA.sub })).rejects.toMatchObject({ code: "ERR_LAST_SIGN_IN_METHOD" })
    await expect(site.unlinkAccount(ada, { provider: "corp", providerAccountId: EVE.sub })).rejects.toMatchObject({ code: "ERR_OAUTH_ACCOUNT_NOT_LINKED" })
    await adapter.linkAccount({ userId: ada, provider: "github", providerAccountId: "gh-1", type: "oauth" })
    await site.unlinkAccount(ada, { provider: "corp", providerAccountId: ADA.sub })
    expect(await adapter.getUserByAccount({ provider: "corp", providerAccountId: ADA.sub })).toBeNull()
  })

  it("an address the email provider can reach counts as a way to sign in", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [corp(), email()], adapter })
    await signedIn(site, ADA)
    await site.unlinkAccount(userIdOf(adapter, ADA.sub), { provider: "corp", providerAccountId: ADA.sub })
    expect(adapter.accounts.size).toBe(0)
  })

  it("without listAccountsByUserId the last-method check refuses rather than guess", async () => {
    const { listAccountsByUserId: _missing, ...adapter } = memoryAdapter()
    const site = secureApp({ providers: [corp()], adapter })
    await signedIn(site, ADA)
    const ada = [...(adapter as ReturnType<typeof memoryAdapter>).accounts.values()][0]!.userId
    await adapter.linkAccount({ userId: ada, provider: "github", providerAccountId: "gh-1", type: "oauth" })
    await expect(site.unlinkAccount(ada, { provider: "corp", providerAccountId: ADA.sub })).rejects.toThrow(/listAccountsByUserId/)
  })

  it("deleteUser removes the user, their accounts and their sessions", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [corp()], adapter })
    const browser = await signedIn(site, ADA)
    await site.deleteUser(userIdOf(adapter, ADA.sub))
    expect(adapter.users.size).toBe(0)
    expect(adapter.accounts.size).toBe(0)
    expect(await sessionOf(browser)).toBeNull()
  })
})
