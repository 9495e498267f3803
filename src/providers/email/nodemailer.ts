import { EmailSendError, InvalidProviderError } from "../../errors.js"
import { verificationMessage } from "./message.js"
import { requireFrom } from "./send.js"
import type { EmailConfig, EmailUserConfig } from "./types.js"

/**
 * The optional peer's name, held in a variable so bundlers do not follow the import: an edge
 * bundle that never sends mail must not need nodemailer (or Node's built-ins) at all.
 */
const NODEMAILER = "nodemailer"

/**
 * Nodemailer options: the SMTP server, as a connection URL or transport options.
 *
 * @example
 * ```ts
 * import Nodemailer, { type NodemailerUserConfig } from "latchkey/providers/nodemailer"
 * const options: NodemailerUserConfig = { server: { host: "smtp.acme.dev", port: 587, auth: { user: "auth", pass: process.env.SMTP_PASSWORD } }, from: "auth@acme.dev" }
 * const provider = Nodemailer(options)
 * ```
 */
export interface NodemailerUserConfig extends EmailUserConfig {
  server?: string | Record<string, unknown>
}

/**
 * Sends sign-in links over SMTP with `nodemailer`, an optional peer dependency loaded on the first
 * send, so the provider can be imported where nodemailer is not installed (an edge bundle that
 * never sends mail). Pass `server` (`smtp://user:pass@smtp.example.com:587`, or transport
 * options) and `from`. A message the server rejects throws `EmailSendError`.
 * Docs: https://nodemailer.com/smtp/
 *
 * Exported from `latchkey/providers/nodemailer` and `latchkey/providers`.
 *
 * @example
 * ```ts
 * import Nodemailer from "latchkey/providers/nodemailer"
 * const provider = Nodemailer({ server: process.env.EMAIL_SERVER, from: "Acme <auth@acme.dev>" })
 * ```
 */
export default function Nodemailer(options: NodemailerUserConfig = {}): EmailConfig {
  return {
    id: "nodemailer",
    type: "email",
    name: "Email",
    maxAge: 24 * 60 * 60,
    async sendVerificationRequest(params) {
      const { provider, identifier } = params
      if (provider.server === undefined) throw new InvalidProviderError(provider.id, "server", "no SMTP server: pass server.")
      const { createTransport } = (await import(/* @vite-ignore */ NODEMAILER)) as typeof import("nodemailer")
      const message = verificationMessage(params)
      const result = await createTransport(provider.server as never).sendMail({ to: identifier, from: requireFrom(provider), ...message })
      const rejected = [...(result.rejected ?? []), ...((result as { pending?: unknown[] }).pending ?? [])]
      if (rejected.length > 0) throw new EmailSendError(provider.id, 550)
    },
    options,
  }
}
