/**
 * `useSession` and `useAuthClient`: the session state of the nearest `SessionProvider`, read with
 * `useSyncExternalStore`, so every component sees the same state in the same render.
 */
import { useCallback, useContext, useEffect, useMemo, useRef, useSyncExternalStore } from "react"
import type { AuthClient, SessionState, SessionStatus } from "../client/types.js"
import { MissingSessionProviderError } from "../errors.js"
import type { Session } from "../types.js"
import { SessionContext, type SessionContextValue } from "./context.js"

function useSessionContext(hook: string): SessionContextValue {
  const context = useContext(SessionContext)
  if (context === null) throw new MissingSessionProviderError(hook)
  return context
}

/**
 * The options of {@link react!useSession}.
 *
 * Exported from `latchkey/react`.
 *
 * @example
 * ```ts
 * import type { UseSessionOptions } from "latchkey/react"
 * const options: UseSessionOptions = { required: true, onUnauthenticated: () => router.push("/login") }
 * ```
 */
export interface UseSessionOptions {
  /**
   * The page needs a signed-in user: `status` stays `"loading"` until one is known (nothing
   * signed-out shows), and a signed-out user is sent to sign in (or to `onUnauthenticated`).
   */
  required?: boolean
  /** With `required`, called instead of going to the sign-in page. */
  onUnauthenticated?: () => void
}

/**
 * What {@link react!useSession} answers. `update` re-reads the session from the server (through
 * the `jwt` callback's `update` trigger, with `data`), and tells the other tabs.
 *
 * Exported from `latchkey/react`.
 *
 * @example
 * ```ts
 * import { useSession, type UseSessionResult } from "latchkey/react"
 * const { data, status, update }: UseSessionResult = useSession()
 * ```
 */
export interface UseSessionResult<S extends Session = Session> {
  data: S | null
  status: SessionStatus
  update: (data?: unknown) => Promise<S | null>
}

/**
 * The session: `{ data, status, update }`. The type parameter names the session the server's
 * `session` callback returns (`InferSession<typeof auth>`), with no `declare module`.
 *
 * Exported from `latchkey/react`.
 *
 * @throws {@link react!MissingSessionProviderError} outside a `SessionProvider`.
 *
 * @example
 * ```ts
 * "use client"
 * import { useSession } from "latchkey/react"
 * import type { AppSession } from "@/session-type" // type AppSession = InferSession<typeof auth>
 * export function Greeting() {
 *   const { data, status } = useSession<AppSession>()
 *   if (status === "loading") return null
 *   return <p>{data ? `Signed in as ${data.user?.email}` : "Not signed in"}</p>
 * }
 * ```
 */
export function useSession<S extends Session = Session>(options: UseSessionOptions = {}): UseSessionResult<S> {
  const { client, rendered, pending } = useSessionContext("useSession")
  // The server's snapshot is the rendered session while the client knows none (a shared client on
  // the server is never written to); otherwise the client's own state, the very object hydration
  // then reads, so hydrating renders once.
  const serverState = () => (rendered !== undefined && client.getState().status === "loading" ? rendered : client.getState())
  const stored = useSyncExternalStore(client.subscribe, client.getState, serverState)
  const state = (pending && rendered ? rendered : stored) as SessionState<S>
  const { required = false, onUnauthenticated } = options
  const sendAway = required && state.status === "unauthenticated"
  // The latest callback, not a dependency: an inline arrow is new on every render, and each would send the user away again.
  const latest = useRef(onUnauthenticated)
  latest.current = onUnauthenticated
  useEffect(() => {
    if (!sendAway) return
    if (latest.current) latest.current()
    else void client.signIn(undefined, { redirectTo: location.href })
  }, [sendAway, client])
  const update = useCallback((data?: unknown) => client.update(data) as Promise<S | null>, [client])
  const status: SessionStatus = required && state.status !== "authenticated" ? "loading" : state.status
  return useMemo(() => ({ data: state.data, status, update }), [state.data, status, update])
}

/**
 * The nearest `SessionProvider`'s client: `signIn`, `signOut`, `update` through the same state
 * the components read.
 *
 * Exported from `latchkey/react`.
 *
 * @throws {@link react!MissingSessionProviderError} outside a `SessionProvider`.
 *
 * @example
 * ```ts
 * "use client"
 * import { useAuthClient } from "latchkey/react"
 * export function SignOutButton() {
 *   const client = useAuthClient()
 *   return <button onClick={() => client.signOut({ redirectTo: "/" })}>Sign out</button>
 * }
 * ```
 */
export function useAuthClient<S extends Session = Session>(): AuthClient<S> {
  return useSessionContext("useAuthClient").client as unknown as AuthClient<S>
}
