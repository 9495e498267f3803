// Round three, item 1: the hybrid cache answers reads, never writes. A victim with database
// sessions and `session.cache` has their cookies stolen, then clicks "sign out everywhere"
// (`revokeSessions`). Within `cache.maxAge` the stolen cookies still open the cache's copy; with
// them the attacker tries everything that lasts: adding their passkey, renaming and deleting the
// victim's, linking their OAuth account (a real oidc-provider), the account API, and a
// provider-token refresh. Each must be refused, because each confirms the session against its
// database row first.
import { describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { providerTokens } from "../../src/provider-tokens/index.js"
import { refreshingProvider, requestFrom, sessionRead } from "../tokens/support.js"
import { callback, csrfOf as passkeyCsrf, fixtures, ORIGIN as PASSKEY_ORIGIN, passkeyApp, plantChallenge, signUp } from "../webauthn/support.js"
import { corpProvider, csrfOf, ORIGIN, post, secureApp, sessionOf, stolenFrom } from "./support.js"

const VICTIM = { sub: "victim-sub", email: "victim@example.com", name: "Victim" }
const ATTACKER = { sub: "attacker-sub", email: "attacker@evil.example", name: "Attacker" }
const idp = corpProvider([VICTIM, ATTACKER])

const CACHED = { strategy: "database" as const, cache: { maxAge: 300 } }
const base64 = (base64url: string) => Buffer.from(base64url, "base64url").toString("base64")

describe("passkeys with a revoked session's cache copy (round three, item 1a)", () => {
  async function victimWithPasskey() {
    const app = passkeyApp({ session: CACHED }, "database")
    const victim = app.browser()
    await signUp(victim, "ada")
    const victimId = String([...app.adapter.users.values()][0]!.id)
    const thief = stolenFrom(victim, app.browser(), PASSKEY_ORIGIN)
    await app.adapter.deleteSessionsByUserId!(victimId) // what revokeSessions(victimId) does
    return { app, victim, victimId, thief }
  }

  it("the attacker cannot register their passkey on the victim's account", async () => {
    const { app, victimId, thief } = await victimWithPasskey()
    const grace = fixtures.registrations.grace
    await plantChallenge(thief, grace.challenge, "register", "passkey", { userId: victimId })
    const result = await callback(thief, "register", grace.response)
    expect([result.status, result.body]).toEqual([401, { error: "SessionRequired" }])
    expect(await app.adapter.getAuthenticator(base64(grace.response.id))).toBeNull()
  })

  it("the attacker can neither rename nor delete the victim's passkeys", async () => {
    const { app, thief } = await victimWithPasskey()
    const ada = fixtures.registrations.ada
    const change = async (fields: Record<string, string>) => {
      const { response } = await thief.open(`${PASSKEY_ORIGIN}/auth/passkeys`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken: await passkeyCsrf(thief), ...fields }).toString(),
      })
      return [response.status, await response.json()]
    }
    expect(await change({ action: "rename", id: ada.response.id, name: "pwned" })).toEqual([401, { error: "SessionRequired" }])
    expect(await change({ action: "delete", id: ada.response.id })).toEqual([401, { error: "SessionRequired" }])
    const stored = await app.adapter.getAuthenticator(base64(ada.response.id))
    expect(stored).not.toBeNull()
    expect(stored!.name ?? null).toBeNull()
  })
})

describe("OAuth linking with a revoked session's cache copy (round three, item 1b)", () => {
  it("the attacker's account at the real provider is not linked to the victim", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [idp.provider()], adapter, session: CACHED })
    const victim = site.browser()
    idp.signInAs(VICTIM.sub)
    await post(victim, "/auth/signin/corp", { csrfToken: await csrfOf(victim) })
    const victimId = (await adapter.getUserByAccount({ provider: "corp", providerAccountId: VICTIM.sub }))!.id
    const thief = stolenFrom(victim, site.browser(), ORIGIN)
    await site.revokeSessions(victimId)
    // Reads may still be answered by the copy (documented: revocation takes up to cache.maxAge)…
    idp.signInAs(ATTACKER.sub)
    await post(thief, "/auth/signin/corp", { csrfToken: await csrfOf(thief) })
    // …but linking is a write: the attacker's account must not join the victim's user.
    const owner = await adapter.getUserByAccount({ provider: "corp", providerAccountId: ATTACKER.sub })
    expect(owner).not.toBeNull()
    expect(owner!.id).not.toBe(victimId)
    expect((await sessionOf(thief))?.user.email).toBe(ATTACKER.email)
  })
})

describe("the account API with a revoked session's cache copy (round three, item 1)", () => {
  it("unlinkAccount(request, …) confirms the request's session first, and works for a live one", async () => {
    const adapter = memoryAdapter()
    const github = { id: "github", name: "GitHub", type: "oauth" as const, clientId: "x", clientSecret: "y", authorization: "https://github.example/authorize", token: "https://github.example/token", userinfo: "https://github.example/user" }
    const site = secureApp({ providers: [idp.provider(), github], adapter, session: CACHED })
    const victim = site.browser()
    idp.signInAs(VICTIM.sub)
    await post(victim, "/auth/signin/corp", { csrfToken: await csrfOf(victim) })
    const victimId = (await adapter.getUserByAccount({ provider: "corp", providerAccountId: VICTIM.sub }))!.id
    await adapter.linkAccount({ userId: victimId, provider: "github", providerAccountId: "gh-victim", type: "oauth" })
    const thief = stolenFrom(victim, site.browser(), ORIGIN)
    await site.revokeSessions(victimId)
    await expect(site.unlinkAccount(requestFrom(thief), { provider: "github", providerAccountId: "gh-victim" })).rejects.toMatchObject({ code: "ERR_SESSION_REQUIRED" })
    expect(await adapter.getUserByAccount({ provider: "github", providerAccountId: "gh-victim" })).not.toBeNull()
    // The victim signs in again; their own request unlinks.
    idp.signInAs(VICTIM.sub)
    await post(victim, "/auth/signin/corp", { csrfToken: await csrfOf(victim) })
    await site.unlinkAccount(requestFrom(victim), { provider: "github", providerAccountId: "gh-victim" })
    expect(await adapter.getUserByAccount({ provider: "github", providerAccountId: "gh-victim" })).toBeNull()
  })
})

describe("provider-token writes with a revoked session's cache copy (round three, item 1)", () => {
  const refreshing = refreshingProvider()

  // "Sign out everywhere" raises the user's version, so the copy is refused before anything else; an
  // admin's revokeSession (or a sign-out elsewhere with the same token) only deletes the row, so the
  // copy still answers the read and the row check before the refresh (`HeldSession.confirm()`) is what stops it.
  const revocations = {
    revokeSessions: (site: ReturnType<typeof secureApp>, userId: string) => site.revokeSessions(userId),
    revokeSession: (site: ReturnType<typeof secureApp>, _userId: string, sessionToken: string) => site.revokeSession(sessionToken),
  }
  it.each(Object.entries(revocations))("after %s, a read with stolen cookies makes no refresh and writes no account row; the revoked session ends", async (_name, revoke) => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [refreshing().provider()], adapter, providerTokens: providerTokens({ refresh: true }), session: CACHED })
    const victim = site.browser()
    await post(victim, "/auth/signin/corp", { csrfToken: await csrfOf(victim) })
    const row = [...adapter.accounts.values()].find((account) => account.provider === "corp")!
    const thief = stolenFrom(victim, site.browser(), ORIGIN)
    const sessionToken = victim.cookies(ORIGIN).get("__Secure-authjs.session-token")!
    await revoke(site, row.userId, sessionToken)
    expect(await adapter.getSessionAndUser(sessionToken)).toBeNull()
    const grants = refreshing().refreshGrants()
    // The sign-in's access token is due at once: a trusted read would refresh it now.
    const { session } = await sessionRead(site, requestFrom(thief))
    expect(refreshing().refreshGrants()).toBe(grants)
    expect([...adapter.accounts.values()].find((account) => account.provider === "corp")!.refresh_token).toBe(row.refresh_token)
    expect(session).toBeNull()
    expect(await site.getAccessToken(requestFrom(thief), "corp")).toBeNull()
    expect(refreshing().refreshGrants()).toBe(grants)
  })
})
