/**
 * The app's audit events (`events` in `createAuth`'s options) and the one way they are fired: a
 * handler's return value is ignored and an error it throws is logged, never failing the request.
 * On the storage floor because the session store fires `session` and `signOut`; the handler and the
 * plug-ins fire the rest through the same function.
 */
import type { AdapterSession, AdapterUser } from "./adapter.js"
import type { Account, Awaitable, JWT, LoggerInstance, Session, User } from "../types.js"

/**
 * Notifications, for auditing; their return values are ignored, and an error one throws is logged without failing the request.
 *
 * @example
 * ```ts
 * import type { AuthEvents } from "latchkey"
 * const events: AuthEvents = {
 *   signIn: ({ user, account, isNewUser }) => console.info("sign-in", user.id, account?.provider, isNewUser),
 *   signOut: ({ token }) => console.info("sign-out", token?.sub),
 * }
 * ```
 */
export interface AuthEvents {
  signIn?: (message: { user: User; account: Account | null; isNewUser?: boolean }) => Awaitable<void>
  /** `token` for JWT sessions; `session` (the adapter's row) for database sessions. */
  signOut?: (message: { token: JWT | null; session?: AdapterSession | null }) => Awaitable<void>
  createUser?: (message: { user: AdapterUser }) => Awaitable<void>
  /** An existing user was updated: their `emailVerified`, when they follow an emailed link. */
  updateUser?: (message: { user: AdapterUser }) => Awaitable<void>
  /** A session was read through `/session`. */
  session?: (message: { session: Session; token: JWT }) => Awaitable<void>
  linkAccount?: (message: { user: AdapterUser; account: Account }) => Awaitable<void>
}

/** Fires an event; a throwing handler is logged, and the request goes on. */
export async function fireEvent<K extends keyof AuthEvents>(context: { events: AuthEvents; logger: Required<LoggerInstance> }, name: K, message: Parameters<NonNullable<AuthEvents[K]>>[0]): Promise<void> {
  const handler = context.events[name] as ((message: unknown) => Awaitable<void>) | undefined
  if (!handler) return
  try {
    await handler(message)
  } catch (error) {
    context.logger.error(error as Error)
  }
}
