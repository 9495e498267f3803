import { AdapterError } from "../errors.js"
import type { Account } from "../types.js"
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser, VerificationToken } from "./adapter.js"

/**
 * An {@link Adapter} that keeps everything in memory, with every method implemented. For tests,
 * demos and single-process prototypes: data is lost on restart and not shared between processes.
 * Emails are matched case-insensitively.
 *
 * Exported from `latchkey/adapters`.
 *
 * @example
 * ```ts
 * import { memoryAdapter } from "latchkey/adapters"
 * import { resolveSignIn } from "latchkey/oauth"
 * const adapter = memoryAdapter()
 * const { user, isNewUser } = await resolveSignIn(adapter, { ...signIn, provider })
 * ```
 */
export function memoryAdapter(): Required<Adapter> & { users: Map<string, AdapterUser>; accounts: Map<string, AdapterAccount> } {
  const users = new Map<string, AdapterUser>()
  const accounts = new Map<string, AdapterAccount>()
  const tokens = new Map<string, VerificationToken>()
  const sessions = new Map<string, AdapterSession>()
  const authenticators = new Map<string, AdapterAuthenticator>()
  // Password hashes beside the users, as a `password` column would be: never on a returned user.
  const passwords = new Map<string, string>()
  const accountKey = (account: Pick<Account, "provider" | "providerAccountId">) => `${account.provider}\u0000${account.providerAccountId}`
  const tokenKey = (token: { identifier: string; token: string }) => `${token.identifier}\u0000${token.token}`
  return {
    users,
    accounts,
    createUser(user) {
      const id = user.id ?? crypto.randomUUID()
      return put(users, id, { ...user, id })
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
    linkAccount: (account) => put(accounts, accountKey(account), account),
    updateUser: (user) => put(users, user.id, { ...users.get(user.id), ...user } as AdapterUser),
    deleteUser(id) {
      const owned: Map<string, { userId: string }>[] = [accounts, sessions, authenticators]
      for (const rows of owned) for (const [key, row] of rows) if (row.userId === id) rows.delete(key)
      passwords.delete(id)
      return take(users, id) ?? null
    },
    unlinkAccount: (account) => take(accounts, accountKey(account)),
    getAccount: (providerAccountId, provider) => accounts.get(accountKey({ provider, providerAccountId })) ?? null,
    createSession: (session) => put(sessions, session.sessionToken, session),
    getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      const user = session && users.get(session.userId)
      return session && user ? { session, user } : null
    },
    updateSession(session) {
      const stored = sessions.get(session.sessionToken)
      return stored ? put(sessions, stored.sessionToken, { ...stored, ...session }) : null
    },
    deleteSession: (sessionToken) => take(sessions, sessionToken) ?? null,
    createVerificationToken: (token) => put(tokens, tokenKey(token), token),
    useVerificationToken: (params) => take(tokens, tokenKey(params)) ?? null,
    createAuthenticator: (authenticator) => put(authenticators, authenticator.credentialID, authenticator),
    getAuthenticator: (credentialID) => authenticators.get(credentialID) ?? null,
    listAuthenticatorsByUserId: (userId) => [...authenticators.values()].filter((authenticator) => authenticator.userId === userId),
    deleteSessionsByUserId(userId) {
      for (const [key, session] of sessions) if (session.userId === userId) sessions.delete(key)
    },
    getUserPassword: (userId) => passwords.get(userId) ?? null,
    setUserPassword(userId, hash) {
      if (!users.has(userId)) throw new AdapterError("setUserPassword", { name: "NotFoundError" })
      if (hash === null) passwords.delete(userId)
      else passwords.set(userId, hash)
    },
    listAccountsByUserId: (userId) => [...accounts.values()].filter((account) => account.userId === userId),
    updateAccount(account) {
      const stored = accounts.get(accountKey(account))
      return stored ? put(accounts, accountKey(account), { ...stored, ...account }) : null
    },
    renameAuthenticator(credentialID, name) {
      const stored = authenticators.get(credentialID)
      if (!stored) throw new AdapterError("renameAuthenticator", { name: "NotFoundError" })
      return put(authenticators, credentialID, { ...stored, name })
    },
    deleteAuthenticator: (credentialID) => take(authenticators, credentialID) ?? null,
    updateAuthenticatorCounter(credentialID, counter) {
      const stored = authenticators.get(credentialID)
      if (!stored) throw new AdapterError("updateAuthenticatorCounter", { name: "NotFoundError" })
      return put(authenticators, credentialID, { ...stored, counter })
    },
  }
}

/** Stores `value` under `key` and returns it. */
function put<V>(map: Map<string, V>, key: string, value: V): V {
  map.set(key, value)
  return value
}

/** Removes the value under `key` and returns it: what makes a verification token single-use. */
function take<V>(map: Map<string, V>, key: string): V | undefined {
  const value = map.get(key)
  map.delete(key)
  return value
}
