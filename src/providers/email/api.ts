/**
 * The shape shared by every HTTP email provider: build the verification message, describe the one
 * request the API wants, send it. A provider file supplies only the request.
 */
import type { EmailConfig, EmailUserConfig, VerificationRequestParams } from "./types.js"
import { verificationMessage, type VerificationMessage } from "./message.js"
import { postToEmailApi } from "./send.js"

/** What a provider's request builder receives. */
export interface EmailRequestContext {
  provider: EmailConfig
  to: string
  message: VerificationMessage
  params: VerificationRequestParams
}

/** One API request: JSON or form-encoded. */
export interface EmailApiRequest {
  url: string
  headers: Record<string, string>
  json?: unknown
  form?: URLSearchParams
}

/** Defines an HTTP email provider from its id, name and request builder. */
export function apiEmailProvider(
  defaults: { id: string; name: string; request: (context: EmailRequestContext) => EmailApiRequest },
  options: EmailUserConfig = {}
): EmailConfig {
  const { request, ...identity } = defaults
  return {
    ...identity,
    type: "email",
    maxAge: 24 * 60 * 60,
    async sendVerificationRequest(params) {
      const message = verificationMessage(params)
      const built = request({ provider: params.provider, to: params.identifier, message, params })
      const body = built.form ?? JSON.stringify(built.json)
      const contentType = built.form ? "application/x-www-form-urlencoded" : "application/json"
      await postToEmailApi(params.provider, built.url, { headers: { "content-type": contentType, accept: "application/json", ...built.headers }, body })
    },
    options,
  }
}

/** Splits `"Name <address>"` into its parts; a bare address has no name. */
export function parseAddress(from: string): { email: string; name?: string } {
  const match = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(from)
  if (match === null) return { email: from.trim() }
  const name = match[1]!.replace(/^"|"$/g, "")
  return name === "" ? { email: match[2]! } : { email: match[2]!, name }
}
