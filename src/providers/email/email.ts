import Nodemailer, { type NodemailerUserConfig } from "./nodemailer.js"
import type { EmailConfig } from "./types.js"

/**
 * The generic `email` provider: {@link Nodemailer} under the id `email`, for apps that configured
 * `Email` before the SMTP provider had its own name. Callback path: `<base>/callback/email`.
 *
 * Exported from `latchkey/providers/email` and `latchkey/providers`.
 *
 * @example
 * ```ts
 * import Email from "latchkey/providers/email"
 * const provider = Email({ server: process.env.EMAIL_SERVER, from: "auth@acme.dev" })
 * ```
 */
export default function Email(options: NodemailerUserConfig = {}): EmailConfig {
  return { ...Nodemailer(options), id: "email", name: "Email" }
}
