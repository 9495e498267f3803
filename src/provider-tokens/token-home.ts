/**
 * Where a session's provider tokens live, asked in one place: in the user's account rows when the
 * session store keeps rows (database and hybrid sessions, as Auth.js keeps them), else sealed in a
 * cookie beside the JWT session (jwt-session.ts). This is one of the two questions about the store
 * asked outside it (the other: credentials sign-ins in handler/complete-sign-in.ts).
 */
import type { SessionSettings } from "../adapters/session-store.js"

/** Whether this app's provider tokens live in account rows (true) or beside a JWT session (false). */
export function tokensLiveInAccountRows(settings: Pick<SessionSettings, "sessions">): boolean {
  return settings.sessions.rows
}
