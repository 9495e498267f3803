/**
 * The one HTTP call behind every API-based email provider: a POST that must succeed, or an
 * {@link index!EmailSendError} with the status.
 */
import { EmailSendError, InvalidProviderError } from "../../errors.js"
import type { EmailConfig } from "./types.js"

/** Returns the API key or throws a configuration error that names the env variable. */
export function requireApiKey(provider: EmailConfig): string {
  if (!provider.apiKey) {
    const variable = `AUTH_${provider.id.toUpperCase().replace(/-/g, "_")}_KEY`
    throw new InvalidProviderError(provider.id, "apiKey", `no API key: pass apiKey, or set ${variable}.`)
  }
  return provider.apiKey
}

/** Returns the sender address or throws a configuration error. */
export function requireFrom(provider: EmailConfig): string {
  if (!provider.from) throw new InvalidProviderError(provider.id, "from", "no sender: pass from, such as \"Acme <auth@acme.dev>\".")
  return provider.from
}

/** POSTs to an email API and throws {@link index!EmailSendError} unless it answers 2xx. */
export async function postToEmailApi(provider: EmailConfig, url: string, init: { headers: Record<string, string>; body: string | URLSearchParams }): Promise<void> {
  const send = provider.fetch ?? fetch
  const response = await send(url, { method: "POST", headers: init.headers, body: init.body })
  await response.body?.cancel()
  if (!response.ok) throw new EmailSendError(provider.id, response.status)
}

/** The `Basic` authorization header value for `user:password`. */
export function basicAuth(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`)
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return `Basic ${btoa(binary)}`
}
