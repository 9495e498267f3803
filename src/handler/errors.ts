/**
 * What a browser may learn when something goes wrong: a short, stable code in `?error=`. The details
 * go to the logger, never into the response.
 */
import { LatchkeyError } from "../errors.js"

/**
 * The error codes the handler shows to clients.
 *
 * @example
 * ```ts
 * import type { ClientErrorCode } from "latchkey"
 * // on the page set as `pages.error`, which receives `?error=<code>`
 * const code = new URL(request.url).searchParams.get("error") as ClientErrorCode | null
 * const message = code === "AccessDenied" ? "You cancelled the sign-in." : "Sign-in failed. Please try again."
 * ```
 */
export type ClientErrorCode =
  | "Configuration"
  | "AccessDenied"
  | "Verification"
  | "OAuthCallback"
  | "OAuthAccountNotLinked"
  | "CredentialsSignin"
  | "MissingCSRF"
  | "RateLimited"
  | "CaptchaFailed"
  // Password accounts (latchkey/providers/password): their routes' refusals.
  | "EmailNotVerified"
  | "InvalidToken"
  | "PasswordPolicy"
  | "SessionRequired"
  | "InvalidCurrentPassword"
  | "SignUpDisabled"
  | "InvalidRequest"

/** The client code for an error raised while signing in. */
export function clientCode(error: unknown): ClientErrorCode {
  const code = error instanceof LatchkeyError ? error.code : undefined
  switch (code) {
    case "ERR_OAUTH_ACCOUNT_NOT_LINKED":
      return "OAuthAccountNotLinked"
    case "ERR_OAUTH_CALLBACK":
      return (error as { error?: string }).error === "access_denied" ? "AccessDenied" : "OAuthCallback"
    case "ERR_INVALID_CHECK":
    case "ERR_OAUTH_TOKEN":
    case "ERR_OAUTH_PROTOCOL":
    case "ERR_OAUTH_PROFILE":
      return "OAuthCallback"
    default:
      return "Configuration"
  }
}

/** Friendly text for each code, shown on the sign-in and error pages. */
export const ERROR_MESSAGES: Record<ClientErrorCode | "Default", string> = {
  Configuration: "Sign-in is not available right now. Please try again later.",
  AccessDenied: "Access was denied. You may not have permission to sign in.",
  Verification: "This sign-in link is no longer valid. It may have been used already or it may have expired.",
  OAuthCallback: "Sign-in could not be completed. Please try again.",
  OAuthAccountNotLinked: "This account is not linked to your user. Sign in the way you did before, then link it.",
  CredentialsSignin: "Sign-in failed. Check the details you entered and try again.",
  MissingCSRF: "Your session has expired. Please try again.",
  RateLimited: "Too many attempts. Please wait a few minutes, then try again.",
  CaptchaFailed: "Please complete the verification challenge, then try again.",
  EmailNotVerified: "Your email address is not confirmed yet. Open the newest link we sent you, then sign in.",
  InvalidToken: "This link is no longer valid. It may have been used already, replaced by a newer one, or expired. Request a new one.",
  PasswordPolicy: "This password cannot be used. Choose a longer one that is not a common or leaked password.",
  SessionRequired: "Please sign in first.",
  InvalidCurrentPassword: "Your current password is not correct.",
  SignUpDisabled: "New accounts cannot be created here. Sign in with an account you already have.",
  InvalidRequest: "Some of the details are missing or not valid.",
  Default: "Something went wrong while signing in. Please try again.",
}

/**
 * The friendly text for a code taken from a URL. An own-property lookup, so `?error=__proto__` or
 * `?error=constructor` get the default text instead of whatever the prototype holds.
 */
export function errorMessage(code: string | null | undefined): string {
  return code != null && Object.hasOwn(ERROR_MESSAGES, code) ? ERROR_MESSAGES[code as ClientErrorCode] : ERROR_MESSAGES.Default
}
