/**
 * The password hash never travels with a user. An adapter that reads the users table with `select *`
 * (`@auth/pg-adapter`, and an Auth.js credentials app's own) returns the new `password` column on
 * every user; this wraps the adapter once, at `createAuth`, so every user it returns loses the field
 * before it reaches a callback, an event, a session or the client. The hash is read only through
 * `getUserPassword`.
 */
import { sameAccount, type Adapter, type AdapterAccount } from "./adapter.js"

/** The methods that answer a user (or a session with its user). */
const USER_METHODS = ["createUser", "getUser", "getUserByEmail", "getUserByAccount", "updateUser", "deleteUser"] as const

/** `value` without an own `password` property (a copy only when it has one). */
function withoutPassword<T>(value: T): T {
  if (typeof value !== "object" || value === null || !Object.hasOwn(value, "password")) return value
  const { password: _password, ...rest } = value as T & { password?: unknown }
  return rest as T
}

/**
 * The adapter with the `password` field removed from every user it answers. The other methods are
 * the adapter's own (reached through the prototype, so a class-based adapter keeps its `this`).
 *
 * @example
 * ```ts
 * const adapter = hidePasswordField(PostgresAdapter(pool))
 * await adapter.getUser!(id) // no `password`, even though the row has one
 * ```
 */
export function hidePasswordField(adapter: Adapter | undefined): Adapter | undefined {
  if (adapter === undefined || adapter === null || typeof adapter !== "object") return adapter
  const hidden = Object.create(adapter) as Adapter
  const own = hidden as Record<string, unknown>
  // Each method is looked up when called: an app (or a test) may replace one after createAuth.
  // The adapter's answer as a promise; a method that throws is a rejection, as from an async function.
  const answerOf = (name: string, args: unknown[]): Promise<unknown> => {
    try {
      return Promise.resolve((adapter as Record<string, (...args: unknown[]) => unknown>)[name]!.apply(adapter, args))
    } catch (error) {
      return Promise.reject(error)
    }
  }
  // One `then` on the adapter's promise, no async wrapper of its own, and a copy only when there is a
  // password to drop: getSessionAndUser runs on every database-session read.
  for (const name of USER_METHODS) {
    if (typeof adapter[name] !== "function") continue
    own[name] = (...args: unknown[]) => answerOf(name, args).then(withoutPassword)
  }
  if (typeof adapter.getSessionAndUser === "function") {
    hidden.getSessionAndUser = (token) =>
      (answerOf("getSessionAndUser", [token]) as Promise<Awaited<ReturnType<NonNullable<Adapter["getSessionAndUser"]>>>>).then((found) => {
        if (!found) return found
        const user = withoutPassword(found.user)
        return user === found.user ? found : { ...found, user }
      })
  }
  return hidden
}

/**
 * Removes the password of a user whose address was never proved, when an OAuth sign-in joins that
 * user by address (`allowDangerousEmailAccountLinking`), a magic link proves the address, or a reset
 * link does. Whoever set that password never read the mail at the address: it may be an attacker who
 * signed up first with the victim's address and waits for the victim to adopt the account
 * (pre-hijacking). With verification off, that attacker was signed in and could add other ways in,
 * so the passkeys and linked accounts go with the password (all but `keep`, the account signing in
 * now): an adapter without `listAccountsByUserId`, `unlinkAccount` or `deleteAuthenticator` keeps
 * what it cannot list or remove. Answers whether a password was removed, so the caller ends the
 * user's sessions too.
 *
 * @example
 * ```ts
 * if (await voidUnprovenPassword(adapter, user)) await sessions.revokeUser(context, async () => user.id)
 * ```
 */
export async function voidUnprovenPassword(adapter: Adapter | undefined, user: { id: string; emailVerified?: Date | null }, keep?: Pick<AdapterAccount, "provider" | "providerAccountId">): Promise<boolean> {
  if (user.emailVerified || typeof adapter?.getUserPassword !== "function" || typeof adapter.setUserPassword !== "function") return false
  if (!(await adapter.getUserPassword(user.id))) return false
  // The other ways in first: a failure part-way leaves the password too, for the next proof to void.
  for (const passkey of (await adapter.listAuthenticatorsByUserId?.(user.id)) ?? []) await adapter.deleteAuthenticator?.(passkey.credentialID)
  for (const account of (await adapter.listAccountsByUserId?.(user.id)) ?? []) {
    if (!sameAccount(account, keep)) await adapter.unlinkAccount?.(account)
  }
  await adapter.setUserPassword(user.id, null)
  return true
}
