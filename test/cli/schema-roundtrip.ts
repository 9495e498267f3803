/**
 * A short walk through every adapter method the generated tables serve, for the adapter and
 * database pairs the shared contract matrix does not name (Drizzle on MariaDB and SQLite, Kysely on
 * SQLite): a user, an account, a session, a verification token and a passkey, written, read back
 * with their dates and flags intact, updated, and removed with the user.
 */
import { expect } from "vitest"
import { withAdapterMethods, type Adapter } from "../../src/adapters/adapter.js"

const EXPIRES = new Date("2031-02-03T04:05:06.789Z")
const VERIFIED = new Date("2030-01-02T03:04:05.678Z")

/** Walks `adapter` through users, accounts, sessions and tokens (and passkeys when `passkeys`). */
export async function roundTrip(raw: Adapter, passkeys: boolean): Promise<void> {
  const adapter = withAdapterMethods(raw, ["createUser", "getUser", "getUserByEmail", "getUserByAccount", "linkAccount", "createSession", "getSessionAndUser", "updateSession", "deleteSession", "createVerificationToken", "useVerificationToken", "updateUser"], "round trip")
  const email = `${crypto.randomUUID()}@example.com`
  const user = await adapter.createUser({ id: crypto.randomUUID(), name: "Ada", email, image: null, emailVerified: VERIFIED })
  expect(await adapter.getUserByEmail(email)).toMatchObject({ id: user.id, email, emailVerified: VERIFIED })
  const providerAccountId = crypto.randomUUID()
  await adapter.linkAccount({ userId: user.id, type: "oidc", provider: "google", providerAccountId, access_token: "a".repeat(600), expires_at: 1_924_992_000, token_type: "bearer", id_token: "h.p.s" })
  expect(await adapter.getUserByAccount({ provider: "google", providerAccountId })).toMatchObject({ id: user.id })
  await adapter.createSession({ sessionToken: "token-1", userId: user.id, expires: EXPIRES })
  expect(await adapter.getSessionAndUser("token-1")).toMatchObject({ session: { sessionToken: "token-1", expires: EXPIRES }, user: { id: user.id } })
  const later = new Date(EXPIRES.getTime() + 60_000)
  await adapter.updateSession({ sessionToken: "token-1", expires: later })
  expect((await adapter.getSessionAndUser("token-1"))?.session.expires).toEqual(later)
  await adapter.deleteSession("token-1")
  expect(await adapter.getSessionAndUser("token-1")).toBeNull()
  await adapter.createVerificationToken({ identifier: email, token: "hashed", expires: EXPIRES })
  expect(await adapter.useVerificationToken({ identifier: email, token: "hashed" })).toMatchObject({ identifier: email, expires: EXPIRES })
  expect(await adapter.useVerificationToken({ identifier: email, token: "hashed" })).toBeNull()
  expect(await adapter.updateUser({ id: user.id, name: "Grace" })).toMatchObject({ name: "Grace" })
  if (passkeys) await passkeyTrip(raw, user.id)
}

async function passkeyTrip(raw: Adapter, userId: string): Promise<void> {
  const adapter = withAdapterMethods(raw, ["createAuthenticator", "getAuthenticator", "updateAuthenticatorCounter", "listAuthenticatorsByUserId"], "passkey round trip")
  const credentialID = crypto.randomUUID()
  await adapter.createAuthenticator({ userId, providerAccountId: credentialID, credentialID, credentialPublicKey: "pQECAyYgASFYIA", counter: 0, credentialDeviceType: "multiDevice", credentialBackedUp: true, transports: "internal" })
  expect(await adapter.getAuthenticator(credentialID)).toMatchObject({ credentialID, counter: 0, credentialBackedUp: true })
  expect(await adapter.updateAuthenticatorCounter(credentialID, 7)).toMatchObject({ counter: 7 })
  expect(await adapter.listAuthenticatorsByUserId(userId)).toHaveLength(1)
}
