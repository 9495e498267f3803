/**
 * The warning for a session cookie that no configured secret opens. The user is signed out, as
 * they must be, but without a log line the developer sees only "I was signed out": the usual cause
 * is a changed `AUTH_SECRET` (a new `.env`, another machine's secret, a rotation done by replacing
 * the old secret instead of adding the new one before it). Logged once per handler, in production
 * too: a forged or stale cookie costs one line, ever.
 */
import type { Diagnostics } from "./diagnostics.js"

/** The decode failures that mean "sealed with another secret", not "malformed". */
function isSealedWithAnotherSecret(error: unknown): boolean {
  const { code, reason } = (typeof error === "object" && error !== null ? error : {}) as { code?: unknown; reason?: unknown }
  return code === "ERR_NO_MATCHING_SECRET" || (code === "ERR_INVALID_TOKEN" && reason === "decryption_failed")
}

/** Warns once when a session cookie failed to open under every secret. */
export function warnOnSecretMismatch(diagnostics: Diagnostics, error: unknown): void {
  if (!isSealedWithAnotherSecret(error)) return
  diagnostics.warnOnce(
    "secret-mismatch",
    "SESSION_SECRET_MISMATCH",
    "signed out because the session cookie was sealed with another secret: did AUTH_SECRET change? To change it without signing everyone out, add the new secret as AUTH_SECRET_1 and keep the old one in AUTH_SECRET until old sessions expire"
  )
}
