/**
 * The storage interface account linking needs. Its shape follows Auth.js adapters, so an existing
 * adapter can be wrapped without changes. Methods may be sync or async.
 */
import type { Account, Awaitable, User } from "../types.js"

/**
 * A stored user: always has an id.
 *
 * @example
 * ```ts
 * import type { AdapterUser } from "latchkey/oauth"
 * const user: AdapterUser = { id: "u_1", name: "Ada", email: "ada@example.com", emailVerified: null }
 * ```
 */
export interface AdapterUser extends User {
  id: string
  email?: string | null
  /** When the user proved they own `email` (email sign-in), else null. */
  emailVerified?: Date | null
}

/**
 * A stored account: linked to a user.
 *
 * @example
 * ```ts
 * import type { AdapterAccount } from "latchkey/oauth"
 * const account: AdapterAccount = { userId: "u_1", provider: "github", type: "oauth", providerAccountId: "583231" }
 * ```
 */
export interface AdapterAccount extends Account {
  userId: string
}

/**
 * A single-use email sign-in token, stored hashed.
 *
 * @example
 * ```ts
 * import type { VerificationToken } from "latchkey/oauth"
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
 * Where users, accounts and verification tokens live.
 *
 * @example
 * ```ts
 * import { memoryAdapter, type Adapter } from "latchkey/oauth"
 * const base = memoryAdapter() // or any Auth.js-shaped adapter
 * const adapter: Adapter = {
 *   ...base,
 *   createUser: async (user) => { console.info("new user", user.email); return base.createUser(user) },
 * } // then: createAuth({ providers, adapter })
 * ```
 */
export interface Adapter {
  createUser(user: Omit<AdapterUser, "id"> & { id?: string }): Awaitable<AdapterUser>
  getUser(id: string): Awaitable<AdapterUser | null>
  getUserByEmail(email: string): Awaitable<AdapterUser | null>
  getUserByAccount(account: Pick<Account, "provider" | "providerAccountId">): Awaitable<AdapterUser | null>
  linkAccount(account: AdapterAccount): Awaitable<AdapterAccount | null | undefined | void>
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>
  deleteUser?(id: string): Awaitable<void>
  unlinkAccount?(account: Pick<Account, "provider" | "providerAccountId">): Awaitable<void>
  createVerificationToken?(token: VerificationToken): Awaitable<VerificationToken | null | undefined>
  /** Returns the token and deletes it, so it can be used once. */
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>
}
