/**
 * What `SessionProvider` hands to the hooks below it: the client, and the state the server
 * rendered (for the server's snapshot, so hydration shows what the HTML showed).
 */
import { createContext } from "react"
import type { AuthClient, SessionState } from "../client/types.js"

export interface SessionContextValue {
  client: AuthClient
  /** The state from the provider's `session` prop; undefined when none was given. */
  rendered: SessionState | undefined
  /** The prop changed and is not yet the client's state: show `rendered` meanwhile. */
  pending: boolean
}

export const SessionContext = createContext<SessionContextValue | null>(null)
