import { apiEmailProvider } from "./api.js"
import { requireApiKey, requireFrom } from "./send.js"
import type { EmailConfig, EmailUserConfig } from "./types.js"

/**
 * Sends sign-in links through Postmark's email API (`POST https://api.postmarkapp.com/email`),
 * authenticated with the server token, on the `outbound` message stream.
 * Docs: https://postmarkapp.com/developer/api/email-api
 *
 * Exported from `latchkey/providers/postmark` and `latchkey/providers`. The server token defaults
 * to `AUTH_POSTMARK_KEY`.
 *
 * @example
 * ```ts
 * import Postmark from "latchkey/providers/postmark"
 * const provider = Postmark({ from: "auth@acme.dev" })
 * ```
 */
export default function Postmark(options?: EmailUserConfig): EmailConfig {
  return apiEmailProvider(
    {
      id: "postmark",
      name: "Postmark",
      request: ({ provider, to, message }) => ({
        url: "https://api.postmarkapp.com/email",
        headers: { "x-postmark-server-token": requireApiKey(provider) },
        json: {
          From: requireFrom(provider),
          To: to,
          Subject: message.subject,
          HtmlBody: message.html,
          TextBody: message.text,
          MessageStream: "outbound",
        },
      }),
    },
    options
  )
}
