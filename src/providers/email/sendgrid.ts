import { apiEmailProvider, parseAddress } from "./api.js"
import { requireApiKey, requireFrom } from "./send.js"
import type { EmailConfig, EmailUserConfig } from "./types.js"

/**
 * Sends sign-in links through SendGrid's v3 Mail Send API (`POST https://api.sendgrid.com/v3/mail/send`).
 * Docs: https://www.twilio.com/docs/sendgrid/api-reference/mail-send/mail-send
 *
 * Exported from `latchkey/providers/sendgrid` and `latchkey/providers`. The API key defaults to
 * `AUTH_SENDGRID_KEY`.
 *
 * @example
 * ```ts
 * import SendGrid from "latchkey/providers/sendgrid"
 * const provider = SendGrid({ from: "Acme <auth@acme.dev>" })
 * ```
 */
export default function SendGrid(options?: EmailUserConfig): EmailConfig {
  return apiEmailProvider(
    {
      id: "sendgrid",
      name: "SendGrid",
      request: ({ provider, to, message }) => ({
        url: "https://api.sendgrid.com/v3/mail/send",
        headers: { authorization: `Bearer ${requireApiKey(provider)}` },
        json: {
          personalizations: [{ to: [{ email: to }] }],
          from: parseAddress(requireFrom(provider)),
          subject: message.subject,
          content: [
            { type: "text/plain", value: message.text },
            { type: "text/html", value: message.html },
          ],
        },
      }),
    },
    options
  )
}
