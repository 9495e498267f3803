import { beforeEach, describe, expect, it } from "vitest"
import { OAuthAccountNotLinkedError } from "../../src/errors.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { resolveSignIn } from "../../src/oauth/resolve-sign-in.js"
import type { Account } from "../../src/types.js"

const github = { id: "github", allowDangerousEmailAccountLinking: false }
const google = { id: "google", allowDangerousEmailAccountLinking: false }
const trustedGoogle = { id: "google", allowDangerousEmailAccountLinking: true }

function account(provider: string, providerAccountId: string): Account {
  return { provider, providerAccountId, type: "oauth", access_token: `${provider}-token` }
}

let adapter: ReturnType<typeof memoryAdapter>
beforeEach(() => {
  adapter = memoryAdapter()
})

async function seedGitHubUser() {
  return resolveSignIn(adapter, { user: { id: "gh-1", name: "Ada", email: "ada@example.com" }, account: account("github", "gh-1"), provider: github })
}

describe("resolveSignIn with the memory adapter", () => {
  it("creates a user for a first sign-in and links the account", async () => {
    const { user, account: linked, isNewUser, isNewAccount } = await seedGitHubUser()
    expect([isNewUser, isNewAccount]).toEqual([true, true])
    expect(user).toMatchObject({ name: "Ada", email: "ada@example.com", emailVerified: null })
    expect(user.id).not.toBe("gh-1")
    expect(linked).toMatchObject({ provider: "github", providerAccountId: "gh-1", userId: user.id })
    expect(adapter.users.size).toBe(1)
    expect(adapter.accounts.size).toBe(1)
  })

  it("signs a known account in as its user", async () => {
    const first = await seedGitHubUser()
    const again = await resolveSignIn(adapter, { user: { id: "gh-1", email: "ada@example.com" }, account: account("github", "gh-1"), provider: github })
    expect(again.user.id).toBe(first.user.id)
    expect([again.isNewUser, again.isNewAccount]).toEqual([false, false])
    expect(adapter.users.size).toBe(1)
  })

  it("refuses a known account that belongs to a different signed-in user", async () => {
    await seedGitHubUser()
    const other = await resolveSignIn(adapter, { user: { id: "g-9", email: "grace@example.com" }, account: account("google", "g-9"), provider: google })
    const attempt = resolveSignIn(adapter, { user: { id: "gh-1" }, account: account("github", "gh-1"), provider: github, currentUserId: other.user.id })
    await expect(attempt).rejects.toBeInstanceOf(OAuthAccountNotLinkedError)
    await expect(attempt).rejects.toMatchObject({ code: "ERR_OAUTH_ACCOUNT_NOT_LINKED", provider: "github" })
  })

  it("links a new account to the signed-in user", async () => {
    const { user } = await seedGitHubUser()
    const linked = await resolveSignIn(adapter, { user: { id: "g-1", email: "someone-else@example.com" }, account: account("google", "g-1"), provider: google, currentUserId: user.id })
    expect(linked.user.id).toBe(user.id)
    expect([linked.isNewUser, linked.isNewAccount]).toEqual([false, true])
    expect(await adapter.getUserByAccount({ provider: "google", providerAccountId: "g-1" })).toMatchObject({ id: user.id })
  })

  it("refuses a new account whose email matches an existing user", async () => {
    await seedGitHubUser()
    const attempt = resolveSignIn(adapter, { user: { id: "g-1", email: "ADA@example.com" }, account: account("google", "g-1"), provider: google })
    await expect(attempt).rejects.toBeInstanceOf(OAuthAccountNotLinkedError)
    expect(adapter.accounts.size).toBe(1)
    expect(adapter.users.size).toBe(1)
  })

  it("links by email when the provider allows dangerous email account linking", async () => {
    const { user } = await seedGitHubUser()
    const linked = await resolveSignIn(adapter, { user: { id: "g-1", email: "ada@example.com" }, account: account("google", "g-1"), provider: trustedGoogle })
    expect(linked.user.id).toBe(user.id)
    expect([linked.isNewUser, linked.isNewAccount]).toEqual([false, true])
    expect(adapter.accounts.size).toBe(2)
  })

  it("creates separate users for accounts without an email", async () => {
    const first = await resolveSignIn(adapter, { user: { id: "a", email: null }, account: account("github", "a"), provider: github })
    const second = await resolveSignIn(adapter, { user: { id: "b", email: null }, account: account("github", "b"), provider: github })
    expect(first.user.id).not.toBe(second.user.id)
  })

  it("memory adapter verification tokens are single-use", async () => {
    const token = { identifier: "ada@example.com", token: "hashed", expires: new Date(Date.now() + 60_000) }
    await adapter.createVerificationToken!(token)
    expect(await adapter.useVerificationToken!({ identifier: "ada@example.com", token: "hashed" })).toEqual(token)
    expect(await adapter.useVerificationToken!({ identifier: "ada@example.com", token: "hashed" })).toBeNull()
  })
})
