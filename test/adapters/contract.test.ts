// The adapter contract latchkey relies on, run against every entry of the adapter matrix: each
// Auth.js adapter on a real database, unchanged. Where an adapter departs from Auth.js's
// documented contract, its entry in QUIRKS names the departure and the tests assert what the
// adapter really does, so a fix (or a regression) upstream shows up here.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { withAdapterMethods, type Adapter, type AdapterAccount, type AdapterAuthenticator, type AdapterUser } from "../../src/adapters/adapter.js"
import { adapterMatrix, type AdapterStore, type MatrixEntry } from "./matrix.js"

/** How an adapter departs from the Auth.js contract; every flag false is the contract itself. */
interface Quirks {
  /** createUser drops the id it is handed (latchkey passes `crypto.randomUUID()`) and makes its own. */
  ignoresGivenUserId: boolean
  /** User ids come back as numbers (SERIAL columns), not strings. */
  numericUserIds: boolean
  /** getUserByEmail matches an email that differs only in case. */
  emailMatchIgnoresCase: boolean
  /** linkAccount of an account without `expires_at` returns `expires_at: NaN`. */
  linkAccountReturnsNaNExpiry: boolean
  /** updateSession returns undefined instead of the updated session. */
  updateSessionReturnsNothing: boolean
  /** What updateSession does for a session token that is not stored. */
  updateMissingSession: "returns null" | "returns undefined" | "throws"
  /** deleteUser removes only the user's most recently linked account; older ones stay readable through getAccount. */
  deleteUserKeepsOlderAccounts: boolean
  /** deleteUser of a user with no session (or no account) rejects ("Invalid key: null"), after removing the user. */
  deleteUserNeedsSessionAndAccount: boolean
  /** deleteUser leaves the user's authenticators in place. */
  deleteUserKeepsAuthenticators: boolean
  /** updateAuthenticatorCounter on a credential that is not the user's newest lists it twice afterwards. */
  counterUpdateDuplicatesListEntry: boolean
  /** Any stored string that parses as an ISO date is read back as a `Date` (a user named "2024-05-01T12:00:00.000Z"). */
  dateLikeStringsBecomeDates: boolean
}

const CONTRACT: Quirks = {
  ignoresGivenUserId: false,
  numericUserIds: false,
  emailMatchIgnoresCase: false,
  linkAccountReturnsNaNExpiry: false,
  updateSessionReturnsNothing: false,
  updateMissingSession: "returns null",
  deleteUserKeepsOlderAccounts: false,
  deleteUserNeedsSessionAndAccount: false,
  deleteUserKeepsAuthenticators: false,
  counterUpdateDuplicatesListEntry: false,
  dateLikeStringsBecomeDates: false,
}

const QUIRKS: Record<string, Quirks> = {
  // latchkey's own: the contract, and emails matched case-insensitively by design.
  memory: { ...CONTRACT, emailMatchIgnoresCase: true },
  // @auth/pg-adapter 1.11: SERIAL ids; `UPDATE … ` without RETURNING; parseInt(undefined) for expires_at.
  pg: { ...CONTRACT, ignoresGivenUserId: true, numericUserIds: true, linkAccountReturnsNaNExpiry: true, updateSessionReturnsNothing: true },
  // @auth/drizzle-adapter 1.11: the default users table has a $defaultFn id, so the given id is dropped.
  "drizzle-pg": { ...CONTRACT, ignoresGivenUserId: true, updateMissingSession: "returns undefined" },
  "drizzle-pglite": { ...CONTRACT, ignoresGivenUserId: true, updateMissingSession: "returns undefined" },
  // @auth/kysely-adapter 1.11: createUser always makes `crypto.randomUUID()`; updateSession uses executeTakeFirstOrThrow.
  "kysely-pg": { ...CONTRACT, ignoresGivenUserId: true, updateMissingSession: "throws" },
  // MariaDB's default collation (utf8mb4_general_ci) compares emails case-insensitively.
  "kysely-mariadb": { ...CONTRACT, ignoresGivenUserId: true, updateMissingSession: "throws", emailMatchIgnoresCase: true },
  // The same adapter on the tables `latchkey schema` writes (test/cli/schema-contract.test.ts): their
  // `email` is utf8mb4_bin, so it compares exactly, as the contract asks.
  "kysely-mariadb (latchkey schema)": { ...CONTRACT, ignoresGivenUserId: true, updateMissingSession: "throws" },
  // @auth/unstorage-adapter 2.11: one "by user id" key per kind, so deleteUser forgets all but the last account.
  "unstorage-redis": {
    ...CONTRACT,
    ignoresGivenUserId: true,
    deleteUserKeepsOlderAccounts: true,
    deleteUserNeedsSessionAndAccount: true,
    deleteUserKeepsAuthenticators: true,
    counterUpdateDuplicatesListEntry: true,
    dateLikeStringsBecomeDates: true,
  },
}

const EXPIRES = new Date("2031-02-03T04:05:06.789Z")
const LATER = new Date("2031-03-04T05:06:07.891Z")
const VERIFIED = new Date("2030-01-02T03:04:05.678Z")

const reasons = await Promise.all(adapterMatrix.map((entry) => entry.skipReason()))

for (const [index, entry] of adapterMatrix.entries()) {
  const reason = reasons[index]
  if (reason !== undefined) console.warn(`[adapter contract] skipping ${entry.name}: ${reason}`)
  describe.skipIf(reason !== undefined)(reason === undefined ? entry.name : `${entry.name} (skipped: ${reason})`, () => contract(entry))
}

it("every matrix entry has its quirks written down", () => {
  expect(adapterMatrix.length).toBeGreaterThan(0)
  for (const entry of adapterMatrix) expect(Object.keys(QUIRKS)).toContain(entry.name)
})

function contract(entry: MatrixEntry): void {
  const quirks = QUIRKS[entry.name] ?? CONTRACT
  let store: AdapterStore | undefined
  // PGlite boots a WebAssembly Postgres: on a loaded 2-core machine that alone can pass the 10 s default.
  beforeAll(async () => {
    store = await entry.setup()
  }, 60_000)
  afterAll(async () => {
    await store?.teardown()
  })
  /** The entry's adapter, with the methods `methods` checked present. */
  const adapter = <M extends keyof Adapter>(...methods: M[]) => {
    if (store === undefined) throw new Error(`${entry.name}: setup() did not finish`)
    return withAdapterMethods(store.adapter, methods, `the ${entry.name} contract`)
  }
  /** A new user as latchkey creates one: an id of its own, emailVerified null. */
  const newUser = (fields: Partial<AdapterUser> = {}) => {
    const email = `${crypto.randomUUID()}@example.com`
    return adapter("createUser").createUser({ id: crypto.randomUUID(), name: "Ada Lovelace", email, image: "https://example.com/ada.png", emailVerified: null, ...fields })
  }
  const fullAccount = (userId: string): AdapterAccount => ({
    userId,
    type: "oidc",
    provider: "google",
    providerAccountId: crypto.randomUUID(),
    access_token: "access-token",
    refresh_token: "refresh-token",
    expires_at: 1_924_992_000,
    id_token: "header.payload.signature",
    scope: "openid email profile",
    token_type: "bearer",
    session_state: "state-1",
  })
  const passkey = (userId: string, credentialID = crypto.randomUUID()): AdapterAuthenticator => ({
    userId,
    providerAccountId: credentialID,
    credentialID,
    credentialPublicKey: "pQECAyYgASFYIA",
    counter: 0,
    credentialDeviceType: "multiDevice",
    credentialBackedUp: true,
    transports: "internal,hybrid",
  })

  describe("users", () => {
    it("createUser returns the stored user, with the given id only where the adapter keeps it", async () => {
      const id = crypto.randomUUID()
      const email = `${crypto.randomUUID()}@example.com`
      const user = await adapter("createUser").createUser({ id, name: "Ada", email, image: null, emailVerified: null })
      expect(user).toMatchObject({ name: "Ada", email, image: null, emailVerified: null })
      expect(typeof user.id).toBe(quirks.numericUserIds ? "number" : "string")
      if (quirks.ignoresGivenUserId) expect(user.id).not.toBe(id)
      else expect(user.id).toBe(id)
    })

    it("getUser finds a user by id, and returns null for an unknown id", async () => {
      const user = await newUser()
      const { getUser } = adapter("getUser")
      expect(await getUser(user.id)).toMatchObject({ id: user.id, name: user.name, email: user.email, image: user.image, emailVerified: null })
      expect(await getUser(crypto.randomUUID())).toBeNull()
    })

    it("getUserByEmail finds a user by email, and returns null for an unknown one", async () => {
      const user = await newUser()
      const { getUserByEmail } = adapter("getUserByEmail")
      expect(await getUserByEmail(user.email ?? "")).toMatchObject({ id: user.id, email: user.email })
      expect(await getUserByEmail(`${crypto.randomUUID()}@example.com`)).toBeNull()
    })

    it(`getUserByEmail ${quirks.emailMatchIgnoresCase ? "ignores" : "respects"} the case of the email`, async () => {
      const user = await newUser()
      const found = await adapter("getUserByEmail").getUserByEmail((user.email ?? "").toUpperCase())
      if (quirks.emailMatchIgnoresCase) expect(found).toMatchObject({ id: user.id })
      else expect(found).toBeNull()
    })

    it("updateUser changes the given fields, keeps the others, and reads back a Date for emailVerified", async () => {
      const user = await newUser()
      const updated = await adapter("updateUser").updateUser({ id: user.id, name: "Ada King", emailVerified: VERIFIED })
      const expected = { id: user.id, name: "Ada King", email: user.email, image: user.image, emailVerified: VERIFIED }
      expect(updated).toMatchObject(expected)
      const stored = await adapter("getUser").getUser(user.id)
      expect(stored).toMatchObject(expected)
      expect(stored?.emailVerified).toBeInstanceOf(Date)
    })

    it(`a date-like name ${quirks.dateLikeStringsBecomeDates ? "is read back as a Date" : "is read back as the string it was"}`, async () => {
      const name = "2024-05-01T12:00:00.000Z"
      const user = await newUser({ name })
      const stored = await adapter("getUser").getUser(user.id)
      expect(stored?.name).toEqual(quirks.dateLikeStringsBecomeDates ? new Date(name) : name)
    })
  })

  describe("accounts", () => {
    it("linkAccount stores every token field, and getUserByAccount finds the user through it", async () => {
      const user = await newUser()
      const account = fullAccount(user.id)
      const linked = await adapter("linkAccount").linkAccount(account)
      // Auth.js lets linkAccount return nothing; what it does return must be the account.
      if (linked) expect(linked).toMatchObject(account)
      const { getUserByAccount } = adapter("getUserByAccount")
      expect(await getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })).toMatchObject({ id: user.id, email: user.email })
      expect(await getUserByAccount({ provider: account.provider, providerAccountId: crypto.randomUUID() })).toBeNull()
      if (typeof store?.adapter.getAccount === "function") {
        const stored = await adapter("getAccount").getAccount(account.providerAccountId, account.provider)
        expect(stored).toMatchObject(account)
        expect(typeof stored?.expires_at).toBe("number")
      }
    })

    it(`linkAccount of an account without expires_at returns ${quirks.linkAccountReturnsNaNExpiry ? "expires_at: NaN" : "no expiry"}`, async () => {
      const user = await newUser()
      const account: AdapterAccount = { userId: user.id, type: "oauth", provider: "github", providerAccountId: crypto.randomUUID() }
      const linked = await adapter("linkAccount").linkAccount(account)
      if (quirks.linkAccountReturnsNaNExpiry) expect(linked?.expires_at).toBeNaN()
      else expect(linked?.expires_at ?? undefined).toBeUndefined()
    })

    it("unlinkAccount removes the link, and the user stays", async () => {
      const user = await newUser()
      const account = fullAccount(user.id)
      await adapter("linkAccount").linkAccount(account)
      await adapter("unlinkAccount").unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
      expect(await adapter("getUserByAccount").getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })).toBeNull()
      expect(await adapter("getUser").getUser(user.id)).toMatchObject({ id: user.id })
    })
  })

  describe("sessions", () => {
    it("createSession stores a session that getSessionAndUser returns with its user, expires as a Date", async () => {
      const user = await newUser()
      const session = { sessionToken: crypto.randomUUID(), userId: user.id, expires: EXPIRES }
      expect(await adapter("createSession").createSession(session)).toMatchObject(session)
      const found = await adapter("getSessionAndUser").getSessionAndUser(session.sessionToken)
      expect(found).toMatchObject({ session, user: { id: user.id, email: user.email } })
      expect(found?.session.expires).toBeInstanceOf(Date)
    })

    it("getSessionAndUser returns null for an unknown token", async () => {
      expect(await adapter("getSessionAndUser").getSessionAndUser(crypto.randomUUID())).toBeNull()
    })

    it(`updateSession moves the expiry and ${quirks.updateSessionReturnsNothing ? "returns nothing" : "returns the session"}`, async () => {
      const user = await newUser()
      const sessionToken = crypto.randomUUID()
      await adapter("createSession").createSession({ sessionToken, userId: user.id, expires: EXPIRES })
      const updated = await adapter("updateSession").updateSession({ sessionToken, expires: LATER })
      if (quirks.updateSessionReturnsNothing) expect(updated).toBeUndefined()
      else expect(updated).toMatchObject({ sessionToken, userId: user.id, expires: LATER })
      const found = await adapter("getSessionAndUser").getSessionAndUser(sessionToken)
      expect(found?.session.expires).toEqual(LATER)
    })

    it(`updateSession of an unknown token ${quirks.updateMissingSession}`, async () => {
      const update = adapter("updateSession").updateSession({ sessionToken: crypto.randomUUID(), expires: LATER })
      if (quirks.updateMissingSession === "throws") await expect(update).rejects.toThrow()
      else expect(await update).toBe(quirks.updateMissingSession === "returns null" ? null : undefined)
    })

    it("deleteSession removes the session, and the user stays", async () => {
      const user = await newUser()
      const sessionToken = crypto.randomUUID()
      await adapter("createSession").createSession({ sessionToken, userId: user.id, expires: EXPIRES })
      await adapter("deleteSession").deleteSession(sessionToken)
      expect(await adapter("getSessionAndUser").getSessionAndUser(sessionToken)).toBeNull()
      expect(await adapter("getUser").getUser(user.id)).toMatchObject({ id: user.id })
    })
  })

  describe("deleteUser", () => {
    it("removes the user, and its accounts and sessions with it", async () => {
      const user = await newUser()
      const other = await newUser()
      const accounts = [fullAccount(user.id), fullAccount(user.id)]
      const sessionTokens = [crypto.randomUUID(), crypto.randomUUID()]
      for (const account of accounts) await adapter("linkAccount").linkAccount(account)
      for (const sessionToken of sessionTokens) await adapter("createSession").createSession({ sessionToken, userId: user.id, expires: EXPIRES })
      const otherSession = { sessionToken: crypto.randomUUID(), userId: other.id, expires: EXPIRES }
      await adapter("createSession").createSession(otherSession)

      await adapter("deleteUser").deleteUser(user.id)

      expect(await adapter("getUser").getUser(user.id)).toBeNull()
      expect(await adapter("getUserByEmail").getUserByEmail(user.email ?? "")).toBeNull()
      expect(accounts.length).toBeGreaterThan(0)
      for (const { provider, providerAccountId } of accounts) expect(await adapter("getUserByAccount").getUserByAccount({ provider, providerAccountId })).toBeNull()
      expect(sessionTokens.length).toBeGreaterThan(0)
      for (const sessionToken of sessionTokens) expect(await adapter("getSessionAndUser").getSessionAndUser(sessionToken)).toBeNull()
      // Nobody else's data goes with it.
      expect(await adapter("getSessionAndUser").getSessionAndUser(otherSession.sessionToken)).toMatchObject({ session: otherSession, user: { id: other.id } })
    })

    it(`of a user with no account and no session ${quirks.deleteUserNeedsSessionAndAccount ? "rejects, after removing the user (quirk)" : "removes the user"}`, async () => {
      const user = await newUser()
      const deleting = Promise.resolve().then(() => adapter("deleteUser").deleteUser(user.id))
      if (quirks.deleteUserNeedsSessionAndAccount) await expect(deleting).rejects.toThrow("Invalid key")
      else await deleting
      expect(await adapter("getUser").getUser(user.id)).toBeNull()
    })

    it(`removes every account row${quirks.deleteUserKeepsOlderAccounts ? ", except all but the newest (quirk)" : ""}, where the adapter has getAccount`, async (context) => {
      if (typeof store?.adapter.getAccount !== "function") return skip(context, entry, "it has no getAccount, so account rows cannot be read back")
      const user = await newUser()
      const [older, newest] = [fullAccount(user.id), fullAccount(user.id)]
      await adapter("linkAccount").linkAccount(older)
      await adapter("linkAccount").linkAccount(newest)
      await adapter("createSession").createSession({ sessionToken: crypto.randomUUID(), userId: user.id, expires: EXPIRES })
      await adapter("deleteUser").deleteUser(user.id)
      const { getAccount } = adapter("getAccount")
      expect(await getAccount(newest.providerAccountId, newest.provider)).toBeNull()
      const olderRow = await getAccount(older.providerAccountId, older.provider)
      if (quirks.deleteUserKeepsOlderAccounts) expect(olderRow).toMatchObject(older)
      else expect(olderRow).toBeNull()
    })
  })

  describe("verification tokens", () => {
    it("useVerificationToken returns the token once, with expires as a Date, then null", async () => {
      const token = { identifier: `${crypto.randomUUID()}@example.com`, token: crypto.randomUUID(), expires: EXPIRES }
      expect(await adapter("createVerificationToken").createVerificationToken(token)).toMatchObject(token)
      const { useVerificationToken } = adapter("useVerificationToken")
      const used = await useVerificationToken({ identifier: token.identifier, token: token.token })
      expect(used).toEqual(token)
      expect(used?.expires).toBeInstanceOf(Date)
      expect(await useVerificationToken({ identifier: token.identifier, token: token.token })).toBeNull()
    })

    it("useVerificationToken needs both the identifier and the token", async () => {
      const token = { identifier: `${crypto.randomUUID()}@example.com`, token: crypto.randomUUID(), expires: EXPIRES }
      await adapter("createVerificationToken").createVerificationToken(token)
      const { useVerificationToken } = adapter("useVerificationToken")
      expect(await useVerificationToken({ identifier: `${crypto.randomUUID()}@example.com`, token: token.token })).toBeNull()
      expect(await useVerificationToken({ identifier: token.identifier, token: crypto.randomUUID() })).toBeNull()
      expect(await useVerificationToken({ identifier: token.identifier, token: token.token })).toEqual(token)
    })
  })

  describe("authenticators", () => {
    const hasAuthenticators = () => typeof store?.adapter.createAuthenticator === "function"

    it("createAuthenticator stores a passkey that getAuthenticator and listAuthenticatorsByUserId return", async (context) => {
      if (!hasAuthenticators()) return skip(context, entry, "it has no authenticator methods")
      const user = await newUser()
      const stored = passkey(user.id)
      const { createAuthenticator, getAuthenticator, listAuthenticatorsByUserId } = adapter("createAuthenticator", "getAuthenticator", "listAuthenticatorsByUserId")
      expect(await createAuthenticator(stored)).toMatchObject(stored)
      expect(await getAuthenticator(stored.credentialID)).toEqual(stored)
      expect(await getAuthenticator(crypto.randomUUID())).toBeNull()
      expect(await listAuthenticatorsByUserId(user.id)).toEqual([stored])
    })

    it(`updateAuthenticatorCounter stores the new counter${quirks.counterUpdateDuplicatesListEntry ? ", and lists an older credential twice (quirk)" : ""}`, async (context) => {
      if (!hasAuthenticators()) return skip(context, entry, "it has no authenticator methods")
      const user = await newUser()
      const [first, second] = [passkey(user.id), passkey(user.id)]
      const { createAuthenticator, getAuthenticator, listAuthenticatorsByUserId, updateAuthenticatorCounter } = adapter("createAuthenticator", "getAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter")
      await createAuthenticator(first)
      await createAuthenticator(second)
      expect(await updateAuthenticatorCounter(first.credentialID, 7)).toMatchObject({ credentialID: first.credentialID, counter: 7 })
      expect(await getAuthenticator(first.credentialID)).toMatchObject({ counter: 7 })
      const listed = (await listAuthenticatorsByUserId(user.id)).map((authenticator) => authenticator.credentialID)
      expect(listed.length).toBeGreaterThan(0)
      const expected = quirks.counterUpdateDuplicatesListEntry ? [first.credentialID, second.credentialID, first.credentialID] : [first.credentialID, second.credentialID]
      expect(listed.sort()).toEqual(expected.sort())
      await expect(Promise.resolve().then(() => updateAuthenticatorCounter(crypto.randomUUID(), 1))).rejects.toThrow()
    })

    it(`deleteUser ${quirks.deleteUserKeepsAuthenticators ? "leaves the user's passkeys behind (quirk)" : "removes the user's passkeys"}`, async (context) => {
      if (!hasAuthenticators()) return skip(context, entry, "it has no authenticator methods")
      const user = await newUser()
      const stored = passkey(user.id)
      await adapter("createAuthenticator").createAuthenticator(stored)
      // An account and a session too, so that every adapter's deleteUser gets to the end.
      await adapter("linkAccount").linkAccount(fullAccount(user.id))
      await adapter("createSession").createSession({ sessionToken: crypto.randomUUID(), userId: user.id, expires: EXPIRES })
      await adapter("deleteUser").deleteUser(user.id)
      const left = await adapter("getAuthenticator").getAuthenticator(stored.credentialID)
      if (quirks.deleteUserKeepsAuthenticators) expect(left).toEqual(stored)
      else expect(left).toBeNull()
    })
  })
}

/** Skips the running test, saying why in the report and on stderr. */
function skip(context: { skip(note?: string): never }, entry: MatrixEntry, why: string): never {
  const note = `${entry.name}: ${why}`
  console.warn(`[adapter contract] skipping a test of ${note}`)
  return context.skip(note)
}
