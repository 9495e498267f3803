/**
 * A request's public origin: pinned by `AUTH_URL`, or read from the Host (and X-Forwarded-Host and
 * -Proto) headers when the app trusts them, and then only when they name a plain host.
 */
import type { SettledConfig } from "./context.js"

/**
 * A Host value: a name or IPv4 address, or a bracketed IPv6 address, with an optional port. Each
 * part is one character class that excludes the next part's first character, so matching is
 * linear; the length is bounded before it runs.
 */
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/
const MAX_HOST_LENGTH = 261

/** `https://host` or `http://host` normalised by the URL parser, or undefined when `host` is not a plain host. */
function originOf(proto: string, host: string): string | undefined {
  if (host.length > MAX_HOST_LENGTH || !HOST.test(host)) return undefined
  try {
    return new URL(`${proto}://${host}`).origin
  } catch {
    return undefined
  }
}

/**
 * The public origin of a request: `AUTH_URL` when pinned, else the request's own URL (with
 * X-Forwarded-Host/Proto) when the host is trusted. `"untrusted"` without `trustHost`; `"invalid"`
 * when the host header is not a plain host (a path, userinfo, a bad port, or junk).
 */
export function publicOrigin(settled: Pick<SettledConfig, "pinnedUrl" | "trustHost">, request: Request, url: URL): string | "untrusted" | "invalid" {
  if (settled.pinnedUrl) return settled.pinnedUrl.origin
  if (!settled.trustHost) return "untrusted"
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host") || url.host
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || url.protocol.slice(0, -1)
  return originOf(proto === "https" ? "https" : "http", host) ?? "invalid"
}
