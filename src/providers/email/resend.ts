import { apiEmailProvider } from "./api.js"
import { requireApiKey, requireFrom } from "./send.js"
import type { EmailConfig, EmailUserConfig } from "./types.js"

/**
 * Sends sign-in links through Resend's email API (`POST https://api.resend.com/emails`).
 * Docs: https://resend.com/docs/api-reference/emails/send-email
 *
 * Exported from `latchkey/providers/resend` and `latchkey/providers`. The API key defaults to
 * `AUTH_RESEND_KEY`.
 *
 * @example
 * ```ts
 * import Resend from "latchkey/providers/resend"
 * const provider = Resend({ from: "Acme <auth@acme.dev>" }) // apiKey from AUTH_RESEND_KEY
 * ```
 */
export default function Resend(options?: EmailUserConfig): EmailConfig {
  return apiEmailProvider(
    {
      id: "resend",
      name: "Resend",
      request: ({ provider, to, message }) => ({
        url: "https://api.resend.com/emails",
        headers: { authorization: `Bearer ${requireApiKey(provider)}` },
        json: { from: requireFrom(provider), to, subject: message.subject, html: message.html, text: message.text },
      }),
    },
    options
  )
}
