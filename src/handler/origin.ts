/**
 * A request's public origin: pinned by `AUTH_URL`, or read from the Host (and X-Forwarded-Host and
 * -Proto) headers when the app trusts them, and then only when they name a plain host. A forwarded
 * list is read from the right, as deep as `trustedProxy` says the app's proxies go.
 */
import { fromRight, proxyHops } from "../rate-limits/client-ip.js"
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
export function publicOrigin(settled: Pick<SettledConfig, "pinnedUrl" | "trustHost" | "trustedProxy">, request: Request, url: URL): string | "untrusted" | "invalid" {
  if (settled.pinnedUrl) return settled.pinnedUrl.origin
  if (!settled.trustHost) return "untrusted"
  const hops = proxyHops(settled.trustedProxy)
  const forwardedHost = proxyEntry(request.headers.get("x-forwarded-host"), hops)
  const forwardedProto = proxyEntry(request.headers.get("x-forwarded-proto"), hops)
  if (forwardedHost === null || forwardedProto === null) return "invalid"
  const host = forwardedHost || request.headers.get("host") || url.host
  const proto = forwardedProto || url.protocol.slice(0, -1)
  return originOf(proto === "https" ? "https" : "http", host) ?? "invalid"
}

/**
 * The entry of a forwarding header that the app's own proxy wrote: a lone value as it stands; in a
 * list (a proxy that appends, after what the client sent), the `hops`-th from the right, as the
 * client's address is read (`trustedProxy`). The left-most entry may be the client's own: with no
 * hop count known, or fewer entries than hops, a list is null (refused). Undefined when absent.
 */
function proxyEntry(value: string | null, hops: number | undefined): string | null | undefined {
  if (value === null) return undefined
  if (!value.includes(",")) return value.trim()
  return (hops === undefined ? undefined : fromRight(value, hops)) || null
}
