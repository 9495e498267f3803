/**
 * When a token response's access token expires, as seconds since the epoch: from `expires_in`
 * (RFC 6749 §5.1), or, for a provider with the `expiresAtMilliseconds` quirk (Medium), from the
 * absolute `expires_at` it sends in milliseconds instead. Sign-in and refresh both read it here, so
 * a refresh is timed the same way whichever produced the tokens.
 */
import type { ResolvedOAuthProvider } from "../providers/types.js"

/** The absolute expiry in seconds, or undefined when the response does not say. */
export function expiresAtOf(provider: Pick<ResolvedOAuthProvider, "quirks">, response: { expires_in?: unknown; expires_at?: unknown }): number | undefined {
  if (typeof response.expires_in === "number") return Math.floor(Date.now() / 1000) + response.expires_in
  if (provider.quirks.expiresAtMilliseconds && typeof response.expires_at === "number") return Math.floor(response.expires_at / 1000)
  return undefined
}
