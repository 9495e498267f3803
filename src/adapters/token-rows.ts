/**
 * Verification-token rows as an adapter hands them back. `useVerificationToken` is asked for one
 * identifier and token; what comes back is checked to be that row before it proves anything, since
 * not every store finds rows as it is asked to.
 */

/**
 * Whether the row an adapter handed back is the one asked for. A collation that folds finds a
 * look-alike address's row (the hash does not cover the address), and an adapter that looks rows
 * up by identifier alone (Auth.js's Upstash adapter before 3.0.2, CVE-2022-39263) hands back the
 * real link's row for any token: only the very identifier and token prove a link. An adapter
 * that returns no token is taken at its word, as Auth.js takes it.
 */
export function ownRow(stored: { identifier: string; token?: unknown }, identifier: string, token: string): boolean {
  return stored.identifier === identifier && (typeof stored.token !== "string" || stored.token === token)
}
