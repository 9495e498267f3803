/**
 * The one transport rule for every URL latchkey sends a request or a browser to on a provider's
 * behalf: https, or plain http to a loopback host (local development). Configured endpoints are
 * checked when providers are resolved (providers/core/resolve.ts); discovered ones where the flow
 * uses them (oauth/).
 */

/** Whether `hostname`, as `URL` spells it, is this machine: `localhost`, `127.x.x.x` or `[::1]`. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname)
}

/** Plain http to a loopback host: the one non-TLS transport provider requests may use. */
export function isLoopbackHttp(url: string | URL): boolean {
  const { protocol, hostname } = new URL(url)
  return protocol === "http:" && isLoopbackHost(hostname)
}

/** https, or plain http to a loopback host. */
export function isSecureUrl(url: string | URL): boolean {
  return new URL(url).protocol === "https:" || isLoopbackHttp(url)
}
