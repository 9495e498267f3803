import { InvalidProviderError } from "../../errors.js"
import { apiEmailProvider, parseAddress } from "./api.js"
import { basicAuth, requireApiKey, requireFrom } from "./send.js"
import type { EmailConfig, EmailUserConfig } from "./types.js"

/**
 * Mailgun options: the sending domain and the account's region.
 *
 * @example
 * ```ts
 * import Mailgun, { type MailgunUserConfig } from "latchkey/providers/mailgun"
 * const options: MailgunUserConfig = { from: "Acme <auth@acme.dev>", domain: "mg.acme.dev", region: "eu" }
 * const provider = Mailgun(options)
 * ```
 */
export interface MailgunUserConfig extends EmailUserConfig {
  /** The sending domain. Default: the domain of the `from` address. */
  domain?: string
  /** `"eu"` for accounts in Mailgun's EU region. Default `"us"`. */
  region?: "us" | "eu"
}

/**
 * Sends sign-in links through Mailgun's Messages API
 * (`POST https://api.mailgun.net/v3/<domain>/messages`, or `api.eu.mailgun.net` for the EU region),
 * form-encoded, with HTTP Basic auth as `api:<key>`.
 * Docs: https://documentation.mailgun.com/docs/mailgun/api-reference/send/mailgun/messages
 *
 * Exported from `latchkey/providers/mailgun` and `latchkey/providers`. The API key defaults to
 * `AUTH_MAILGUN_KEY`.
 *
 * @example
 * ```ts
 * import Mailgun from "latchkey/providers/mailgun"
 * const provider = Mailgun({ from: "Acme <auth@mg.acme.dev>", region: "eu" })
 * ```
 */
export default function Mailgun(options: MailgunUserConfig = {}): EmailConfig {
  const { domain, region = "us", ...rest } = options
  return apiEmailProvider(
    {
      id: "mailgun",
      name: "Mailgun",
      request: ({ provider, to, message }) => {
        const from = requireFrom(provider)
        const sendingDomain = domain ?? parseAddress(from).email.split("@")[1]
        if (!sendingDomain) throw new InvalidProviderError(provider.id, "domain", "no sending domain: pass domain, or a from address with one.")
        const host = region === "eu" ? "api.eu.mailgun.net" : "api.mailgun.net"
        return {
          url: `https://${host}/v3/${encodeURIComponent(sendingDomain)}/messages`,
          headers: { authorization: basicAuth("api", requireApiKey(provider)) },
          form: new URLSearchParams({ from, to, subject: message.subject, text: message.text, html: message.html }),
        }
      },
    },
    rest
  )
}
