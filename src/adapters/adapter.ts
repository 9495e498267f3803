/**
 * The storage interface: Auth.js's `Adapter`, declared here method for method, so an existing
 * Auth.js adapter is passed without changes (the account-linking methods are declared one floor
 * down, in oauth/account-linking.ts, where the linking rules call them). Every method is optional, as in Auth.js; what each
 * feature needs is listed once, in requirements.ts, and checked by `withAdapterMethods` before it
 * is called.
 */
import { withMethods, type AccountLinkingMethods, type AdapterAccount, type AdapterUser } from "../oauth/account-linking.js"
import type { Account, Awaitable } from "../types.js"

export type { AdapterAccount, AdapterUser }

/**
 * The account types an adapter stores, as Auth.js's `AdapterAccountType` (`@auth/core/adapters`,
 * `next-auth/adapters`, `@auth/express/adapters`): a Drizzle or Prisma schema that typed its
 * `type` column with it imports it from here once those packages are gone.
 *
 * @example
 * ```ts
 * import type { AdapterAccountType } from "latchkey/adapters"
 * const type: AdapterAccountType = "oidc"
 * // drizzle: type: text("type").$type<AdapterAccountType>().notNull()
 * ```
 */
export type AdapterAccountType = Exclude<Account["type"], "credentials">

/**
 * A single-use email sign-in token, stored hashed.
 *
 * @example
 * ```ts
 * import type { VerificationToken } from "latchkey/adapters"
 * // what an adapter's createVerificationToken receives for a magic link valid 24 hours
 * const row: VerificationToken = { identifier: "ada@example.com", token: hashedToken, expires: new Date(Date.now() + 86_400_000) }
 * ```
 */
export interface VerificationToken {
  identifier: string
  /** The SHA-256 of the token, never the token itself. */
  token: string
  expires: Date
}

/**
 * An Auth.js adapter's database session: which user it belongs to and when it ends.
 *
 * @example
 * ```ts
 * import type { AdapterSession } from "latchkey/adapters"
 * const session: AdapterSession = { sessionToken: "3f1c…", userId: "u_1", expires: new Date(Date.now() + 30 * 86_400_000) }
 * ```
 */
export interface AdapterSession {
  sessionToken: string
  userId: string
  expires: Date
}

/**
 * A user's stored WebAuthn credential (passkey), as Auth.js adapters keep it.
 *
 * @example
 * ```ts
 * import type { AdapterAuthenticator } from "latchkey/adapters"
 * const passkey: AdapterAuthenticator = {
 *   userId: "u_1", providerAccountId: "cred-1", credentialID: "cred-1", credentialPublicKey: "pQECAyYg…",
 *   counter: 0, credentialDeviceType: "multiDevice", credentialBackedUp: true, transports: "internal,hybrid",
 * }
 * ```
 */
export interface AdapterAuthenticator {
  userId: string
  /** The id of the account the credential signs in to. */
  providerAccountId: string
  /** The signature counter, which exposes a cloned authenticator. */
  counter: number
  credentialBackedUp: boolean
  /** Base64, as Auth.js writes it (latchkey reads base64url too). */
  credentialID: string
  /** Base64: the COSE public key. */
  credentialPublicKey: string
  /** Comma-separated, such as `internal,hybrid`. */
  transports?: string | null
  credentialDeviceType: string
  /**
   * latchkey's extension, not Auth.js's: the name the user gave the passkey, for adapters that
   * keep one (see `renameAuthenticator`). Never passed to `createAuthenticator`.
   */
  name?: string | null
}

/**
 * Where users, accounts, sessions, verification tokens and passkeys live. This is Auth.js's adapter
 * interface method for method, every method optional as there, so an adapter written for Auth.js
 * (`PrismaAdapter(prisma)`, `DrizzleAdapter(db)`, …) is passed as it is, without a cast. Methods
 * may be sync or async, and dates are `Date` objects.
 *
 * Each feature needs some of the methods: account linking (every OAuth, OIDC and email sign-in
 * with an adapter) needs `getUserByAccount`, `getUser`, `getUserByEmail`, `createUser` and
 * `linkAccount`; email sign-in adds `createVerificationToken` and `useVerificationToken`.
 * `createAuth` refuses an adapter that lacks one its providers need, with a
 * `MissingAdapterMethodError` naming it.
 *
 * @example
 * ```ts
 * import { memoryAdapter, type Adapter } from "latchkey/adapters"
 * const base = memoryAdapter() // or any Auth.js adapter, such as PrismaAdapter(prisma)
 * const adapter: Adapter = {
 *   ...base,
 *   createUser: async (user) => { console.info("new user", user.email); return base.createUser(user) },
 * } // then: createAuth({ providers, adapter })
 * ```
 */
export interface Adapter extends AccountLinkingMethods {
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>
  unlinkAccount?(account: Pick<Account, "provider" | "providerAccountId">): Awaitable<AdapterAccount | undefined | void>
  createSession?(session: AdapterSession): Awaitable<AdapterSession>
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>
  updateSession?(session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">): Awaitable<AdapterSession | null | undefined>
  deleteSession?(sessionToken: string): Awaitable<AdapterSession | null | undefined | void>
  createVerificationToken?(token: VerificationToken): Awaitable<VerificationToken | null | undefined>
  /** Returns the token and deletes it, so it can be used once. */
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>
  getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>
  updateAuthenticatorCounter?(credentialID: string, newCounter: number): Awaitable<AdapterAuthenticator>
  /**
   * latchkey's extension, not Auth.js's: deletes every session of a user, for "sign out
   * everywhere" (`revokeSessions`). An Auth.js adapter lacks it; add it in one line, such as
   * `deleteSessionsByUserId: (id) => pool.query('delete from sessions where "userId" = $1', [id])`.
   */
  deleteSessionsByUserId?(userId: string): Awaitable<void>
  /**
   * latchkey's extension, not Auth.js's: the password hash of a user (the nullable `password` column
   * on the users table), or null when the user has none. For password accounts. One line on
   * `@auth/pg-adapter`: `getUserPassword: async (id) => (await pool.query("select password from users where id = $1", [id])).rows[0]?.password ?? null`.
   */
  getUserPassword?(userId: string): Awaitable<string | null | undefined>
  /**
   * latchkey's extension, not Auth.js's: stores a user's password hash (null removes it). One line on
   * `@auth/pg-adapter`: `setUserPassword: async (id, hash) => { await pool.query("update users set password = $2 where id = $1", [id, hash]) }`.
   */
  setUserPassword?(userId: string, hash: string | null): Awaitable<void>
  /**
   * latchkey's extension, not Auth.js's: a user's linked accounts, so `unlinkAccount` can tell
   * whether another way to sign in remains.
   */
  listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>
  /**
   * latchkey's extension, not Auth.js's: writes new tokens into a linked account (the fields
   * given, found by `provider` and `providerAccountId`), for `providerTokens({ refresh })` with
   * database sessions. An Auth.js adapter lacks it; latchkey then unlinks and re-links the
   * account (re-linking the old row if that fails). One statement adds it, such as
   * `updateAccount: (a) => pool.query('update accounts set access_token = $1, refresh_token = $2, expires_at = $3 where provider = $4 and "providerAccountId" = $5', [a.access_token, a.refresh_token, a.expires_at, a.provider, a.providerAccountId])`.
   */
  updateAccount?(account: Partial<AdapterAccount> & Pick<AdapterAccount, "provider" | "providerAccountId">): Awaitable<AdapterAccount | null | undefined | void>
  /**
   * latchkey's extension, not Auth.js's: names a passkey, for the passkey management API. An
   * Auth.js `Authenticator` table has no name column; add a nullable `name` text column, and
   * return the row with it.
   */
  renameAuthenticator?(credentialID: string, name: string): Awaitable<AdapterAuthenticator>
  /**
   * latchkey's extension, not Auth.js's: deletes a passkey, for the passkey management API. Such
   * as `deleteAuthenticator: (id) => prisma.authenticator.delete({ where: { credentialID: id } })`.
   */
  deleteAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null | undefined | void>
}

/**
 * An adapter known to have the methods `M`: what {@link withAdapterMethods} returns.
 *
 * @example
 * ```ts
 * import { withAdapterMethods, type AdapterWith } from "latchkey/adapters"
 * const tokens: AdapterWith<"createVerificationToken"> = withAdapterMethods(adapter, ["createVerificationToken"], "email sign-in")
 * await tokens.createVerificationToken({ identifier, token, expires })
 * ```
 */
export type AdapterWith<M extends keyof Adapter> = Adapter & Required<Pick<Adapter, M>>

/**
 * Returns the adapter typed as having `methods`, or throws a `MissingAdapterMethodError` naming
 * every one of them it lacks (or that no adapter is configured), before anything is written.
 * `feature` says in the message what needed them.
 *
 * Exported from `latchkey/adapters`.
 *
 * @example
 * ```ts
 * import { withAdapterMethods } from "latchkey/adapters"
 * const sessions = withAdapterMethods(adapter, ["createSession", "deleteSession"], "database sessions")
 * await sessions.deleteSession(sessionToken) // throws first if the adapter has no deleteSession
 * ```
 */
export function withAdapterMethods<M extends keyof Adapter>(adapter: Adapter | undefined, methods: readonly M[], feature: string): AdapterWith<M> {
  return withMethods(adapter, methods, feature)
}

/** Whether two account references name the same account: the provider and its account id, as Auth.js keys them. */
export function sameAccount(account: Pick<AdapterAccount, "provider" | "providerAccountId">, other: Pick<AdapterAccount, "provider" | "providerAccountId"> | undefined): boolean {
  return account.provider === other?.provider && account.providerAccountId === other.providerAccountId
}
