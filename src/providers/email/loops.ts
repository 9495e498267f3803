import { InvalidProviderError } from "../../errors.js"
import { apiEmailProvider } from "./api.js"
import { requireApiKey } from "./send.js"
import type { EmailConfig, EmailUserConfig } from "./types.js"

/**
 * Loops options: the transactional email template to send.
 *
 * @example
 * ```ts
 * import Loops, { type LoopsUserConfig } from "latchkey/providers/loops"
 * const options: LoopsUserConfig = { transactionalId: "clx0signinlink00001", apiKey: process.env.LOOPS_API_KEY }
 * const provider = Loops(options)
 * ```
 */
export interface LoopsUserConfig extends EmailUserConfig {
  /** The id of a Loops transactional email with a `url` data variable. */
  transactionalId?: string
}

/**
 * Sends sign-in links through a Loops transactional email
 * (`POST https://app.loops.so/api/v1/transactional`). The message itself is the Loops template;
 * latchkey passes the link as the `url` data variable. The sender is set in Loops.
 * Docs: https://loops.so/docs/api-reference/send-transactional-email
 *
 * Exported from `latchkey/providers/loops` and `latchkey/providers`. The API key defaults to
 * `AUTH_LOOPS_KEY`.
 *
 * @example
 * ```ts
 * import Loops from "latchkey/providers/loops"
 * const provider = Loops({ transactionalId: "clfq6dinn000yl70fgwwyp82l" })
 * ```
 */
export default function Loops(options: LoopsUserConfig = {}): EmailConfig {
  const { transactionalId, ...rest } = options
  return apiEmailProvider(
    {
      id: "loops",
      name: "Loops",
      request: ({ provider, to, params }) => {
        if (!transactionalId) throw new InvalidProviderError(provider.id, "transactionalId", "no transactional email: pass transactionalId.")
        return {
          url: "https://app.loops.so/api/v1/transactional",
          headers: { authorization: `Bearer ${requireApiKey(provider)}` },
          json: { transactionalId, email: to, dataVariables: { url: params.url } },
        }
      },
    },
    rest
  )
}
