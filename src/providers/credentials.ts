/**
 * The credentials provider: sign-in with whatever the user types (a username and password, a
 * one-time code), checked by your own `authorize`. latchkey renders the form from `credentials`
 * and calls `authorize` with what was posted; a `null` answer is a failed sign-in.
 *
 * @module
 */
import type { Awaitable, User } from "../types.js"
import type { CommonProviderOptions } from "./common.js"

/**
 * One form field: any HTML input attribute, plus a label.
 *
 * @example
 * ```ts
 * import Credentials, { type CredentialInput } from "latchkey/providers/credentials"
 * const code: CredentialInput = { label: "One-time code", type: "text", inputmode: "numeric", autocomplete: "one-time-code" }
 * const provider = Credentials({ id: "otp", credentials: { code }, authorize: async () => null })
 * ```
 */
export interface CredentialInput {
  label?: string
  type?: string
  placeholder?: string
  autocomplete?: string
  required?: boolean
  [attribute: string]: unknown
}

/**
 * A credentials provider's configuration.
 *
 * @example
 * ```ts
 * import Credentials, { type CredentialsConfig } from "latchkey/providers/credentials"
 * const provider: CredentialsConfig = Credentials({ name: "Staff login", authorize: async () => null })
 * const fieldNames = (config: CredentialsConfig) => Object.keys(config.credentials)
 * ```
 */
export interface CredentialsConfig<Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>> extends CommonProviderOptions {
  type: "credentials"
  /** The form fields, by name. */
  credentials: Fields
  /**
   * Checks what was submitted. Answer the user to sign them in, `null` to refuse. Values arrive
   * as posted (strings), so validate them.
   */
  authorize: (credentials: Partial<Record<keyof Fields, unknown>>, request: Request) => Awaitable<User | null>
  options?: Partial<Omit<CredentialsConfig<Fields>, "options" | "type">>
}

/**
 * Creates a credentials provider. Defaults: id `credentials`, name `Credentials`, and no fields.
 * Callback path: `<base>/callback/credentials`.
 *
 * Exported from `latchkey/providers/credentials` and `latchkey/providers`.
 *
 * @example
 * ```ts
 * import Credentials from "latchkey/providers/credentials"
 * const provider = Credentials({
 *   credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
 *   async authorize({ email, password }) {
 *     return typeof email === "string" && typeof password === "string" ? await checkPassword(email, password) : null
 *   },
 * })
 * ```
 */
export default function Credentials<Fields extends Record<string, CredentialInput>>(
  options: Partial<Omit<CredentialsConfig<Fields>, "options" | "type">> = {}
): CredentialsConfig<Fields> {
  // Passed uncalled (`providers: [Credentials]`) it has no authorize: it signs no one in, as in Auth.js.
  return { id: "credentials", name: "Credentials", type: "credentials", credentials: {} as Fields, authorize: options.authorize ?? (() => null), options }
}
