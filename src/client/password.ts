/**
 * The password account calls of the client: sign-up, forgot and reset, change password and change
 * email, over the handler's `password/*` routes. Each answers a `PasswordResult`: a refusal is a
 * value with its stable code (and `retryAfter` on `RateLimited`, `reason` on `PasswordPolicy`),
 * never an exception. What the calls send is a form, as a page's own form would send it.
 */
import { passwordAnswer } from "../lib/password-answer.js"
import type { Outcome, Transport } from "./transport.js"
import type { PasswordResult } from "./types.js"

/**
 * An answer of a password route as a result (`lib/password-answer.ts`). A refusal names its
 * `error` (with a 4xx status, or in a redirect returned as JSON, as `MissingCSRF` is); a success is
 * a 200, with `url` where the handler sends the browser next, when it does.
 */
export function passwordResult(outcome: Outcome): PasswordResult {
  if ("failed" in outcome) return { ok: false, error: "NetworkError", status: outcome.status }
  return passwordAnswer(outcome.status, outcome.body) as PasswordResult
}

/** What the client hands the password calls: the transport, and what a session change sets off. */
export interface PasswordCallsHost {
  transport: Transport
  /** The call changed the session (signed in, or re-issued it): read it again and tell the other tabs. */
  sessionChanged(): Promise<void>
  navigate(url: string): void
}

/** The string fields of a form, dropping what is undefined. */
export function formOf(values: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== null) fields[name] = String(value)
  return fields
}

/**
 * POSTs `fields` to `route`; on success, when `signsIn`, the session is read again (and the other
 * tabs told), then the browser moves to the answer's `url` when `redirect` is true.
 */
export async function passwordCall(host: PasswordCallsHost, route: string, fields: Record<string, string>, after: { signsIn: boolean; redirect: boolean }): Promise<PasswordResult> {
  const result = passwordResult(await host.transport.post(route, fields))
  if (!result.ok) return result
  if (after.signsIn) await host.sessionChanged()
  if (after.redirect && result.url !== undefined) host.navigate(result.url)
  return result
}
