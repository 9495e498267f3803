/**
 * The answer to a request when the app's public URL is unknown: no `AUTH_URL`, and Host headers not
 * trusted. The handler cannot build a callback URL or a cookie it can vouch for, so it refuses; the
 * log (and, in development, the page) says which of the two settings to make, with the value this
 * request suggests, instead of a bare "Untrusted host".
 */
import { LatchkeyError } from "../errors.js"
import type { SettledConfig } from "./config.js"
import { text } from "./response.js"

/** What to set, for a request that came to `url`: its own origin plus the base path, as an example. */
function whatToSet(settled: Pick<SettledConfig, "basePath">, url: URL): string {
  return `set AUTH_URL to the app's public URL (such as AUTH_URL=${url.origin}${settled.basePath}), or trustHost: true (AUTH_TRUST_HOST=true) when the app runs behind a proxy you trust to set the Host header`
}

/** The 400 for an untrusted host, logged with what to set; the page says it too in development. */
export function untrustedHost(settled: Pick<SettledConfig, "basePath" | "logger" | "diagnostics">, url: URL): Response {
  const fix = whatToSet(settled, url)
  settled.logger.error(new LatchkeyError(`Untrusted host: ${fix}.`))
  return text(settled.diagnostics.development ? `Untrusted host: ${fix}.` : "Untrusted host", 400)
}
