/**
 * The password provider: email-and-password accounts that latchkey runs end to end (sign-up, sign-in,
 * email verification, forgot and reset, change of password and of address). This record only
 * describes the app's choices; the routes live in `latchkey/passwords`, which the app passes to
 * `createAuth` as `passwords`, so an app without passwords bundles none of them.
 *
 * @module
 */
import type { Awaitable, User } from "../types.js"
import type { CommonProviderOptions } from "./common.js"

/**
 * One mail the password routes send, for the app's mailer. `kind` says which: a link to verify the
 * address at sign-up, a reset link, a link to confirm a new address, the notice to the old address,
 * or the notice to an owner whose address someone tried to sign up with. `url` is the link, when the
 * mail has one. The texts are plain and short; an app that wants its own writes them from `kind`.
 *
 * @example
 * ```ts
 * import type { PasswordEmail } from "latchkey/providers/password"
 * const log = (mail: PasswordEmail) => console.info(mail.kind, mail.to, mail.subject)
 * ```
 */
export interface PasswordEmail {
  to: string
  subject: string
  text: string
  html: string
  kind: "verify-email" | "reset" | "change-email" | "email-changed-notice" | "sign-up-notice"
  url?: string
}

/**
 * One extra field on the sign-up form (beside email, password and name).
 *
 * @example
 * ```ts
 * import type { SignUpField } from "latchkey/providers/password"
 * const company: SignUpField = { name: "company", label: "Company", required: false }
 * ```
 */
export interface SignUpField {
  name: string
  label: string
  type?: string
  required?: boolean
}

/**
 * What a sign-up submitted, for the `signUp` callback: the normalised address, the name, and the
 * app's own fields (only those `signUpFields` declares).
 *
 * @example
 * ```ts
 * import type { SignUpInput } from "latchkey/providers/password"
 * const input: SignUpInput = { email: "ada@example.com", name: "Ada", fields: { company: "Analytical" } }
 * ```
 */
export interface SignUpInput {
  email: string
  name?: string
  fields: Record<string, string>
}

/**
 * How long each mailed link lasts, in seconds.
 *
 * @example
 * ```ts
 * import type { PasswordTokenLifetimes } from "latchkey/providers/password"
 * const short: PasswordTokenLifetimes = { verifyEmail: 86_400, reset: 900, changeEmail: 3_600 }
 * ```
 */
export interface PasswordTokenLifetimes {
  /** The sign-up verification link. Default one day. */
  verifyEmail: number
  /** The reset link. Default one hour. */
  reset: number
  /** The link to a new address. Default one day. */
  changeEmail: number
}

/**
 * A password provider's configuration, as {@link Password} makes it.
 *
 * @example
 * ```ts
 * import Password, { type PasswordConfig } from "latchkey/providers/password"
 * const provider: PasswordConfig = Password({ sendEmail: async () => {} })
 * const open = provider.allowSignUp // true
 * ```
 */
export interface PasswordConfig extends CommonProviderOptions {
  type: "password"
  /** Whether anyone may create an account. Default true. */
  allowSignUp: boolean
  /** Whether a new address must be verified through a mailed link before it signs in. Default true. */
  requireEmailVerification: boolean
  /** Sends one mail (verification, reset, change of address, notices). Required. */
  sendEmail?: (mail: PasswordEmail) => Awaitable<void>
  /** The app's own sign-up fields, shown on the sign-up page and passed to `signUp`. */
  signUpFields: SignUpField[]
  /**
   * The user fields a sign-up stores beside `email` and `name` (the app's columns), from what was
   * submitted; `false` refuses the sign-up (`AccessDenied`). `id`, `email`, `emailVerified` and
   * `password` are never taken from it. Default: the declared fields as submitted.
   */
  signUp?: (input: SignUpInput) => Awaitable<Partial<User> & Record<string, unknown> | false>
  /** Whether a password reset ends every session of the user (then signs this browser in). Default true. */
  revokeSessionsOnReset: boolean
  /**
   * Whether a password may be added to a user who has none (one who signed up through OAuth, an
   * emailed link or a passkey). Default false: a sign-up never joins an existing user. When true, the
   * owner is mailed a link to set the password; nothing is joined until the address is proven.
   */
  allowLinkingToExistingUser: boolean
  /** Normalises the address before use, as the email provider's does. Default: trimmed and lower-cased. */
  normalizeIdentifier?: (identifier: string) => string
  /** How long mailed links last. */
  tokenMaxAge: PasswordTokenLifetimes
  options?: PasswordUserConfig
}

/**
 * The options {@link Password} takes: every field of {@link PasswordConfig} but the type, optional.
 *
 * @example
 * ```ts
 * import Password, { type PasswordUserConfig } from "latchkey/providers/password"
 * const options: PasswordUserConfig = { requireEmailVerification: false, sendEmail: async () => {} }
 * const provider = Password(options)
 * ```
 */
export type PasswordUserConfig = Partial<Omit<PasswordConfig, "type" | "options" | "tokenMaxAge">> & { tokenMaxAge?: Partial<PasswordTokenLifetimes> }

const DAY = 24 * 60 * 60

/**
 * Creates the email-and-password provider. It needs the `passwords` plug-in from
 * `latchkey/passwords` (the routes) and an adapter with `getUserPassword` and `setUserPassword`
 * (memoryAdapter has them; see docs/passwords.md for one line each on other adapters).
 * Callback path: `<base>/callback/password`.
 *
 * Exported from `latchkey/providers/password`.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * import { memoryAdapter } from "latchkey/adapters"
 * import Password from "latchkey/providers/password"
 * import { passwords } from "latchkey/passwords"
 * export const { handler, auth } = createAuth({
 *   providers: [Password({ sendEmail: async ({ to, subject, text }) => console.info(to, subject, text) })],
 *   adapter: memoryAdapter(),
 *   passwords,
 * })
 * ```
 */
export default function Password(options: PasswordUserConfig = {}): PasswordConfig {
  const { tokenMaxAge, ...rest } = options
  return {
    id: "password",
    name: "Password",
    allowSignUp: true,
    requireEmailVerification: true,
    signUpFields: [],
    revokeSessionsOnReset: true,
    allowLinkingToExistingUser: false,
    ...rest,
    type: "password",
    tokenMaxAge: { verifyEmail: DAY, reset: 60 * 60, changeEmail: DAY, ...tokenMaxAge },
  }
}
