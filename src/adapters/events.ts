/**
 * The app's audit events (`events` in `createAuth`'s options) and the one way they are fired: a
 * handler's return value is ignored and an error it throws is logged, never failing the request.
 * On the storage floor because the session store fires `session` and `signOut`; the handler and the
 * plug-ins fire the rest through the same function.
 */
import type { AdapterSession, AdapterUser } from "./adapter.js"
import type { Account, Awaitable, JWT, LoggerInstance, Session, User } from "../types.js"

/**
 * The sign-in and session notifications Auth.js has, for auditing; `createAuth`'s `events` option
 * (`AuthEvents` in `latchkey`) adds the plug-ins' own. Their return values are ignored, and an
 * error one throws is logged without failing the request.
 *
 * @example
 * ```ts
 * import type { AuthEvents } from "latchkey"
 * // AuthEvents is these and the plug-ins' own.
 * const events: AuthEvents = {
 *   signIn: ({ user, account, isNewUser }) => console.info("sign-in", user.id, account?.provider, isNewUser),
 *   // JWT sessions end with their token, database sessions with their row.
 *   signOut: (ended) => console.info("sign-out", "token" in ended ? ended.token?.sub : ended.session?.userId),
 * }
 * ```
 */
export interface SignInEvents {
  signIn?: (message: { user: User; account: Account | null; isNewUser?: boolean }) => Awaitable<void>
  /**
   * `{ token }` for JWT sessions; `{ session }` (the adapter's deleted row, when it returns one) for
   * database sessions, as in Auth.js: `"token" in message` tells them apart.
   */
  signOut?: (message: { token: JWT | null } | { session: AdapterSession | null }) => Awaitable<void>
  createUser?: (message: { user: AdapterUser }) => Awaitable<void>
  /** An existing user was updated: their `emailVerified`, when they follow an emailed link. */
  updateUser?: (message: { user: AdapterUser }) => Awaitable<void>
  /** A session was read through `/session`. */
  session?: (message: { session: Session; token: JWT }) => Awaitable<void>
  linkAccount?: (message: { user: AdapterUser; account: Account }) => Awaitable<void>
}

/** What the handler named `K` of an events record is given. */
type MessageOf<E, K extends keyof E> = E[K] extends ((message: infer M) => unknown) | undefined ? M : never

/** Fires an event; a throwing handler is logged, and the request goes on. */
export async function fireEvent<E extends object, K extends keyof E>(context: { events: E; logger: Required<LoggerInstance> }, name: K, message: MessageOf<E, K>): Promise<void> {
  const handler = context.events[name] as ((message: unknown) => Awaitable<void>) | undefined
  if (!handler) return
  try {
    await handler(message)
  } catch (error) {
    context.logger.error(error as Error)
  }
}
