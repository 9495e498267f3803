/**
 * `SessionProvider`: one client for the components below it, and the session the server already
 * read, so the first render (on the server and in the browser) shows it: no signed-out flash, no
 * request on mount. When the server renders the page again with a different session (after a
 * server action signed in or out), the new prop becomes the state.
 */
import { createElement, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react"
import { createAuthClient } from "../client/client.js"
import { stateOf } from "../client/store.js"
import type { AuthClient, AuthClientOptions } from "../client/types.js"
import type { Session } from "../types.js"
import { SessionContext, type SessionContextValue } from "./context.js"

/**
 * The props of {@link react!SessionProvider}: `session` from the server, and either a `client` of
 * your own or the options for the one the provider makes (not both: a type error).
 *
 * Exported from `latchkey/react`.
 *
 * @example
 * ```ts
 * import type { SessionProviderProps } from "latchkey/react"
 * const props: SessionProviderProps = { session: null, basePath: "/api/auth", refetchInterval: 300 }
 * ```
 */
export type SessionProviderProps<S extends Session = Session> = {
  children?: ReactNode
  /** The session the server read for this page (null: signed out). Default: unknown, read on mount. */
  session?: S | null
} & (
  | {
      /** A client made with `createAuthClient`, shared with code outside React. */
      client: AuthClient<S>
      basePath?: never
      refetchOnWindowFocus?: never
      refetchInterval?: never
      onError?: never
    }
  | {
      client?: undefined
      /**
       * Where the handler is mounted. Default `/auth`; an app that kept next-auth's `/api/auth`
       * passes `basePath="/api/auth"`. A wrong one is reported (`SessionRouteNotFoundError`, once).
       */
      basePath?: string
      /** Where a setup error is reported, such as a wrong `basePath`. Default `console.error`. */
      onError?: AuthClientOptions<S>["onError"]
      /** Re-read the session when the window regains focus. Default true. */
      refetchOnWindowFocus?: boolean
      /** Seconds between re-reads while signed in. Default 0: never. */
      refetchInterval?: number
    }
)

/**
 * Makes the session available to `useSession` below it, keeps it fresh (window focus, other
 * tabs, an optional interval) and shares one client among the components.
 *
 * Exported from `latchkey/react`.
 *
 * @example
 * ```ts
 * // app/providers.tsx (a client component), given the session from the root layout (a server component)
 * "use client"
 * import { SessionProvider } from "latchkey/react"
 * import type { Session } from "latchkey"
 * export function Providers({ session, children }: { session: Session | null; children: React.ReactNode }) {
 *   return <SessionProvider session={session}>{children}</SessionProvider>
 * }
 * ```
 */
export function SessionProvider<S extends Session = Session>(props: SessionProviderProps<S>): ReactNode {
  const { children, session, client: given, basePath, refetchOnWindowFocus, refetchInterval, onError } = props
  const key = session === undefined ? undefined : JSON.stringify(session)
  // A client made here starts from the session rendered when it is made (later ones arrive below),
  // or, replacing one (new options), from what that one knows: a sign-out since the render stands.
  const previous = useRef<AuthClient | undefined>(undefined)
  const client = useMemo(() => {
    const known = previous.current?.getState()
    const start = known && known.status !== "loading" ? (known.data as S | null) : session
    return (given ?? createAuthClient<S>({ basePath, refetchOnWindowFocus, refetchInterval, session: start, onError })) as unknown as AuthClient
  }, [given, basePath, refetchOnWindowFocus, refetchInterval])
  previous.current = client
  // A client passed in may be shared (module scope): on the server it is never written to, so one
  // request's session cannot reach another's render; in the browser it learns the rendered session
  // before the first snapshot is read, so hydration does not fall back to "loading".
  useState(() => {
    if (typeof window !== "undefined" && session !== undefined && client.getState().status === "loading") client.setSession(session)
  })
  const rendered = useMemo(() => (session === undefined ? undefined : stateOf<Session>(session)), [key])
  // A new session prop is shown in the very render that brings it (never the old one for a frame),
  // then written to the client, before the browser paints.
  const [appliedKey, setAppliedKey] = useState(key)
  const pending = session !== undefined && key !== appliedKey
  useLayoutEffect(() => {
    if (key === appliedKey) return
    if (session !== undefined) client.setSession(session)
    setAppliedKey(key)
  }, [client, key, appliedKey])
  const value = useMemo<SessionContextValue>(() => ({ client, rendered, pending }), [client, rendered, pending])
  return createElement(SessionContext.Provider, { value }, children)
}
