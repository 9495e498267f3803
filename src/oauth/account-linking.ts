/**
 * What account linking needs of storage: the stored user and account, and the adapter methods
 * `resolveSignIn` calls. The full `Adapter` contract (`latchkey/adapters`) extends these methods,
 * so any adapter is passed to `resolveSignIn` as it is, while the sign-in flow stays below the
 * storage floor and names only what it uses.
 */
import { MissingAdapterMethodError } from "../errors.js"
import type { Account, Awaitable, User } from "../types.js"

/**
 * A stored user: always has an id.
 *
 * @example
 * ```ts
 * import type { AdapterUser } from "latchkey/adapters"
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
 * import type { AdapterAccount } from "latchkey/adapters"
 * const account: AdapterAccount = { userId: "u_1", provider: "github", type: "oauth", providerAccountId: "583231" }
 * ```
 */
export interface AdapterAccount extends Account {
  userId: string
}

/**
 * The adapter methods account linking calls (a part of `Adapter`, which extends this).
 *
 * Exported from `latchkey/oauth`.
 *
 * @example
 * ```ts
 * import type { AccountLinkingMethods } from "latchkey/oauth"
 * import { memoryAdapter } from "latchkey/adapters"
 * const linking: AccountLinkingMethods = memoryAdapter() // every Adapter is one
 * ```
 */
export interface AccountLinkingMethods {
  /** latchkey leaves the id to the adapter (the database's default); Auth.js passes a random UUID. */
  createUser?(user: Omit<AdapterUser, "id"> & { id?: string }): Awaitable<AdapterUser>
  getUser?(id: string): Awaitable<AdapterUser | null>
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  getUserByAccount?(account: Pick<Account, "provider" | "providerAccountId">): Awaitable<AdapterUser | null>
  deleteUser?(userId: string): Awaitable<AdapterUser | null | undefined | void>
  linkAccount?(account: AdapterAccount): Awaitable<AdapterAccount | null | undefined | void>
}

/** What account linking calls (`resolveSignIn`): every OAuth and OIDC sign-in with an adapter. */
export const LINKING_METHODS = ["getUserByAccount", "getUser", "getUserByEmail", "createUser", "linkAccount"] as const satisfies readonly (keyof AccountLinkingMethods)[]

/**
 * `target` narrowed to have `methods`; throws `MissingAdapterMethodError` naming those it lacks (or
 * when there is none). Account linking checks its methods with it, and so does `withAdapterMethods`
 * for every other feature, one floor up.
 */
export function withMethods<T extends object, M extends keyof T>(target: T | undefined, methods: readonly M[], feature: string): T & Required<Pick<T, M>> {
  const missing = methods.filter((method) => typeof target?.[method] !== "function")
  if (target === undefined || missing.length > 0) throw new MissingAdapterMethodError([...new Set(missing as string[])], feature, target === undefined)
  return target as T & Required<Pick<T, M>>
}
