import { apiEmailProvider } from "./api.js"
import { basicAuth, requireApiKey, requireFrom } from "./send.js"
import type { EmailConfig, EmailUserConfig } from "./types.js"

/**
 * Sends sign-in links through Forward Email's API (`POST https://api.forwardemail.net/v1/emails`),
 * with the API key as the HTTP Basic user name.
 * Docs: https://forwardemail.net/en/email-api#outbound-emails
 *
 * Exported from `latchkey/providers/forwardemail` and `latchkey/providers`. The API key defaults
 * to `AUTH_FORWARDEMAIL_KEY`.
 *
 * @example
 * ```ts
 * import ForwardEmail from "latchkey/providers/forwardemail"
 * const provider = ForwardEmail({ from: "auth@acme.dev" })
 * ```
 */
export default function ForwardEmail(options?: EmailUserConfig): EmailConfig {
  return apiEmailProvider(
    {
      id: "forwardemail",
      name: "Forward Email",
      request: ({ provider, to, message }) => ({
        url: "https://api.forwardemail.net/v1/emails",
        headers: { authorization: basicAuth(requireApiKey(provider), "") },
        json: { from: requireFrom(provider), to, subject: message.subject, html: message.html, text: message.text },
      }),
    },
    options
  )
}
