/**
 * The email ("magic link") provider model. A provider sends a sign-in link; latchkey creates the
 * token, stores it hashed and verifies it. Every built-in email provider is a config plus a
 * `sendVerificationRequest` over `fetch` (or SMTP, for nodemailer).
 */
import type { Awaitable } from "../../types.js"
import type { CommonProviderOptions } from "../common.js"

/**
 * Colours for the verification email, taken from the app's theme.
 *
 * @example
 * ```ts
 * import { verificationMessage, type EmailTheme } from "latchkey/providers"
 * const theme: EmailTheme = { brandColor: "#0B5FFF", buttonText: "#ffffff" }
 * const { html } = verificationMessage({ url: "https://app.example.com/auth/callback/email?token=abc", theme })
 * ```
 */
export interface EmailTheme {
  brandColor?: string
  buttonText?: string
}

/**
 * What `sendVerificationRequest` receives.
 *
 * @example
 * ```ts
 * import Email from "latchkey/providers/email"
 * import type { VerificationRequestParams } from "latchkey/providers"
 * // In development: print the link instead of sending it.
 * const provider = Email({ sendVerificationRequest: ({ identifier, url }: VerificationRequestParams) => console.log(identifier, url) })
 * ```
 */
export interface VerificationRequestParams {
  /** The address the link goes to. */
  identifier: string
  /** The sign-in link, including the single-use token. */
  url: string
  /** When the link stops working. */
  expires: Date
  provider: EmailConfig
  /** The raw token, for providers that template their own message. */
  token: string
  theme: EmailTheme
  request: Request
}

/**
 * An email provider's configuration.
 *
 * @example
 * ```ts
 * import type { EmailConfig } from "latchkey/providers"
 * const outbox: EmailConfig = {
 *   id: "outbox", name: "Email", type: "email", from: "auth@acme.dev", maxAge: 15 * 60,
 *   sendVerificationRequest: async ({ identifier, url }) => { await fetch("https://mail.acme.dev/send", { method: "POST", body: JSON.stringify({ to: identifier, url }) }) },
 * }
 * ```
 */
export interface EmailConfig extends CommonProviderOptions {
  type: "email"
  /** The sender, such as `"Acme <auth@acme.dev>"`. */
  from?: string
  /** How long a link stays valid, in seconds. Default 24 hours. */
  maxAge?: number
  /** Sends the link. Built-ins post to their provider's API; replace it to send your own message. */
  sendVerificationRequest: (params: VerificationRequestParams) => Awaitable<void>
  /** The provider's API key. Default: `AUTH_<ID>_KEY`. */
  apiKey?: string
  /** SMTP connection (nodemailer only): a URL or nodemailer transport options. */
  server?: string | Record<string, unknown>
  /**
   * The secret a link's token is hashed with before it is stored, as in Auth.js. Default: the app's
   * `secret` (every one of a list, joined as Auth.js joins them).
   */
  secret?: string
  /** A custom token generator. Default: 32 random bytes. */
  generateVerificationToken?: () => Awaitable<string>
  /** Normalises the address before use. Default: trimmed and lower-cased, one address only. */
  normalizeIdentifier?: (identifier: string) => string
  /** Replaces the global `fetch` for the API call: for proxies, custom TLS or tests. */
  fetch?: typeof fetch
  options?: EmailUserConfig
}

/**
 * What a user passes to an email provider factory.
 *
 * @example
 * ```ts
 * import SendGrid from "latchkey/providers/sendgrid"
 * import type { EmailUserConfig } from "latchkey/providers"
 * const options: EmailUserConfig = { from: "Acme <auth@acme.dev>", apiKey: process.env.SENDGRID_API_KEY, maxAge: 60 * 60 }
 * const provider = SendGrid(options)
 * ```
 */
export type EmailUserConfig = Omit<Partial<EmailConfig>, "options" | "type">
