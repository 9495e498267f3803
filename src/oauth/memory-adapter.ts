import type { Account } from "../types.js"
import type { Adapter, AdapterAccount, AdapterUser, VerificationToken } from "./adapter.js"

/**
 * An {@link Adapter} that keeps everything in memory. For tests, demos and single-process
 * prototypes: data is lost on restart and not shared between processes. Emails are matched
 * case-insensitively.
 *
 * Exported from `latchkey/oauth`.
 *
 * @example
 * ```ts
 * import { memoryAdapter, resolveSignIn } from "latchkey/oauth"
 * const adapter = memoryAdapter()
 * const { user, isNewUser } = await resolveSignIn(adapter, { ...signIn, provider })
 * ```
 */
export function memoryAdapter(): Adapter & { users: Map<string, AdapterUser>; accounts: Map<string, AdapterAccount> } {
  const users = new Map<string, AdapterUser>()
  const accounts = new Map<string, AdapterAccount>()
  const tokens = new Map<string, VerificationToken>()
  const accountKey = (account: Pick<Account, "provider" | "providerAccountId">) => `${account.provider}\u0000${account.providerAccountId}`
  const tokenKey = (token: { identifier: string; token: string }) => `${token.identifier}\u0000${token.token}`
  return {
    users,
    accounts,
    createUser(user) {
      const created: AdapterUser = { ...user, id: user.id ?? crypto.randomUUID() }
      users.set(created.id, created)
      return created
    },
    getUser: (id) => users.get(id) ?? null,
    getUserByEmail(email) {
      const wanted = email.toLowerCase()
      for (const user of users.values()) if (user.email?.toLowerCase() === wanted) return user
      return null
    },
    getUserByAccount(account) {
      const linked = accounts.get(accountKey(account))
      return linked ? (users.get(linked.userId) ?? null) : null
    },
    linkAccount(account) {
      accounts.set(accountKey(account), account)
      return account
    },
    updateUser(user) {
      const updated = { ...users.get(user.id), ...user } as AdapterUser
      users.set(user.id, updated)
      return updated
    },
    deleteUser(id) {
      users.delete(id)
      for (const [key, account] of accounts) if (account.userId === id) accounts.delete(key)
    },
    unlinkAccount(account) {
      accounts.delete(accountKey(account))
    },
    createVerificationToken(token) {
      tokens.set(tokenKey(token), token)
      return token
    },
    useVerificationToken(params) {
      const token = tokens.get(tokenKey(params)) ?? null
      tokens.delete(tokenKey(params))
      return token
    },
  }
}
