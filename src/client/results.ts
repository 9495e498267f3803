/**
 * The handler's answers read as results. A redirect returned as JSON is `{ url, error?, code? }`
 * (the handler names a refusal's `error` and `code` itself, so a destination whose own query says
 * `error` is never mistaken for one); a JSON route's refusal is `{ error }`; anything else is not
 * the handler speaking.
 */
import { isPageUrl } from "./navigate.js"
import type { Outcome } from "./transport.js"
import type { AuthClientError, ClientProvider, SignInResult } from "./types.js"

const CODE = /^[\w-]{1,64}$/

function field(body: unknown, name: string): string | undefined {
  if (typeof body !== "object" || body === null || !(name in body)) return undefined
  const value = (body as Record<string, unknown>)[name]
  return typeof value === "string" ? value : undefined
}

/** The answer to a POST that redirects (sign-in, sign-out) as a result. */
export function redirectResult(outcome: Outcome): SignInResult {
  const { status, body } = outcome
  if ("failed" in outcome) return { ok: false, error: "NetworkError", code: undefined, url: null, status }
  const url = field(body, "url")
  const error = field(body, "error")
  if (error !== undefined && CODE.test(error)) {
    const code = field(body, "code")
    const refused: SignInResult = { ok: false, error: error as AuthClientError, code: code !== undefined && CODE.test(code) ? code : undefined, url: null, status }
    // A rate limit's 429 says when to try again (handler/rate-limit-host.ts).
    const retryAfter = (body as { retryAfter?: unknown }).retryAfter
    if (status === 429 && Number.isSafeInteger(retryAfter)) refused.retryAfter = retryAfter as number
    return refused
  }
  if (url === undefined || status !== 200 || !isPageUrl(url)) return { ok: false, error: "InvalidResponse", code: undefined, url: null, status }
  return { ok: true, error: undefined, code: undefined, url, status }
}

/** A session answer: the session, null when signed out, undefined when it is not one. */
export function sessionOf<S>(outcome: Outcome): S | null | undefined {
  if ("failed" in outcome || outcome.status !== 200) return undefined
  const { body } = outcome
  if (body === null) return null
  return typeof body === "object" && !Array.isArray(body) && typeof (body as { expires?: unknown }).expires === "string" ? (body as S) : undefined
}

/** `GET /providers`, a record keyed by id (as Auth.js answers it), with every entry that is not a provider left out. */
export function providersOf(outcome: Outcome): Record<string, ClientProvider> | null {
  const { body } = outcome as { body?: unknown }
  if ("failed" in outcome || outcome.status !== 200 || typeof body !== "object" || body === null || Array.isArray(body)) return null
  const listed = Object.values(body)
  // fromEntries defines own properties: an id such as "__proto__" cannot reach the prototype.
  const entries = listed.filter((provider) => field(provider, "id") !== undefined).map((provider) => [field(provider, "id")!, provider as ClientProvider] as const)
  return Object.fromEntries(entries)
}
