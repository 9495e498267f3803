/**
 * What a password route answered a script (`x-auth-return-redirect`): a refusal is `{ error }`
 * with its stable code (plus `retryAfter` on `RateLimited`, `reason` on `PasswordPolicy`), a
 * success a 200 with the `url` the browser goes to next, when there is one. Read here once for the
 * two callers that post to those routes: the browser client, and the server actions of the
 * framework integrations. Whatever else arrives is `InvalidResponse`, never a success.
 *
 * @module
 */

/** A route's stable code: a word, as the handler writes them. */
const CODE = /^[\w-]{1,64}$/
const REASONS = new Set<string>(["too_short", "too_long", "breached", "invalid"])

/** Why a new password was refused: the `reason` beside `PasswordPolicy`. */
export type PasswordRefusalReason = "too_short" | "too_long" | "breached" | "invalid"

/** A password route's answer as a value. */
export type PasswordAnswer =
  | { ok: true; url?: string; status: number; error?: undefined; retryAfter?: undefined; reason?: undefined }
  | { ok: false; error: string; status: number; url?: undefined; retryAfter?: number; reason?: PasswordRefusalReason }

function stringField(body: unknown, name: string): string | undefined {
  if (typeof body !== "object" || body === null || !Object.hasOwn(body, name)) return undefined
  const value = (body as Record<string, unknown>)[name]
  return typeof value === "string" ? value : undefined
}

/** The answer of a password route, from its status and parsed JSON body (undefined when it had none). */
export function passwordAnswer(status: number, body: unknown): PasswordAnswer {
  const error = stringField(body, "error")
  if (error !== undefined && CODE.test(error)) {
    const refused: PasswordAnswer = { ok: false, error, status }
    const retryAfter = (body as { retryAfter?: unknown }).retryAfter
    if (error === "RateLimited" && Number.isSafeInteger(retryAfter) && (retryAfter as number) >= 0) refused.retryAfter = retryAfter as number
    const reason = stringField(body, "reason")
    if (error === "PasswordPolicy" && reason !== undefined && REASONS.has(reason)) refused.reason = reason as PasswordRefusalReason
    return refused
  }
  if (status !== 200 || typeof body !== "object" || body === null) return { ok: false, error: "InvalidResponse", status }
  const url = stringField(body, "url")
  return url === undefined ? { ok: true, status } : { ok: true, url, status }
}
