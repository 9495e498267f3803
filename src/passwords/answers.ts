/**
 * How the password routes answer: a script (latchkey/client) gets JSON, `{ error, reason? }` with
 * a status; a browser's form post is sent back to its page with `?error=<Code>`. Every refusal is
 * one of the stable codes below, and none says whether an address has an account.
 */
import { normalizeEmailAddress } from "../lib/email-address.js"
import { PasswordPolicyError } from "../errors.js"
import type { PasswordEmail } from "../providers/password.js"
import type { PasswordHost, PasswordProvider } from "./host.js"
import type { TokenKind } from "./tokens.js"

/**
 * The codes a password route refuses with.
 *
 * @example
 * ```ts
 * import type { PasswordErrorCode } from "latchkey/passwords"
 * const retryable = (code: PasswordErrorCode) => code === "PasswordPolicy" || code === "CredentialsSignin"
 * ```
 */
export type PasswordErrorCode =
  | "CredentialsSignin"
  | "EmailNotVerified"
  | "InvalidToken"
  | "PasswordPolicy"
  | "SessionRequired"
  | "InvalidCurrentPassword"
  | "MissingCSRF"
  | "SignUpDisabled"
  | "AccessDenied"
  | "InvalidRequest"
  | "NotFound"

const STATUS: Record<PasswordErrorCode, number> = {
  CredentialsSignin: 401,
  EmailNotVerified: 403,
  InvalidToken: 400,
  PasswordPolicy: 400,
  SessionRequired: 401,
  InvalidCurrentPassword: 403,
  MissingCSRF: 403,
  SignUpDisabled: 403,
  AccessDenied: 403,
  InvalidRequest: 400,
  NotFound: 404,
}

/**
 * Why a new password was refused, as the client sees it (`reason` beside `PasswordPolicy`).
 *
 * @example
 * ```ts
 * import type { PolicyReason } from "latchkey/passwords"
 * const hint = (reason: PolicyReason) => (reason === "too_short" ? "Use at least 15 characters." : "Choose another password.")
 * ```
 */
export type PolicyReason = "too_short" | "too_long" | "breached" | "invalid"

/** A refusal: JSON for a script, else a redirect to `back` with `?error=` (and `reason`). */
export function refuse(host: PasswordHost, code: PasswordErrorCode, back: string, reason?: PolicyReason): Response {
  if (host.wantsJson) return host.json(reason === undefined ? { error: code } : { error: code, reason }, [], STATUS[code])
  const url = new URL(back)
  url.searchParams.set("error", code)
  if (reason !== undefined) url.searchParams.set("reason", reason)
  return host.redirect(url.href)
}

/** The client's reason for a policy refusal; a failed breach check is logged (it is the service's fault). */
export function policyReason(host: PasswordHost, error: PasswordPolicyError): PolicyReason {
  if (error.reason === "too_short" || error.reason === "too_long" || error.reason === "breached") return error.reason
  if (error.reason === "breach_check_failed") host.logger.error(error)
  return "invalid"
}

/** A route's own URL under the base, with query fields. */
export function routeUrl(host: PasswordHost, path: string, query: Record<string, string | null | undefined> = {}): string {
  const url = new URL(`${host.baseUrl}/${path}`)
  for (const [name, value] of Object.entries(query)) if (value) url.searchParams.set(name, value)
  return url.href
}

/** The "check your email" page for a kind of link. */
export function checkEmailUrl(host: PasswordHost, kind: TokenKind): string {
  return routeUrl(host, "verify-request", { provider: "password", kind })
}

/** An address as the provider normalises it, or undefined. */
export function addressOf(provider: PasswordProvider, raw: string | null | undefined): string | undefined {
  return normalizeEmailAddress(raw, provider.normalizeIdentifier)
}

/** Sends one mail; a failure is logged without the mail (its link is a secret) and thrown as a plain error. */
export async function send(host: PasswordHost, provider: PasswordProvider, mail: PasswordEmail): Promise<void> {
  try {
    await provider.sendEmail!(mail)
  } catch (error) {
    throw new Error(`sendEmail failed for a "${mail.kind}" mail (${error instanceof Error ? error.name : typeof error}); the mail is not logged because it holds a link`)
  }
}

/** The app's host name, for mail subjects. */
export const siteOf = (host: PasswordHost) => new URL(host.baseUrl).host
