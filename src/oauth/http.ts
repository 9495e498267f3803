/**
 * The request options every oauth4webapi call shares: the configured `fetch`, a timeout, and plain
 * http allowed only for loopback hosts (the same rule provider resolution enforces).
 */
import { allowInsecureRequests, customFetch } from "oauth4webapi"

/** Options every flow function takes. */
export interface HttpOptions {
  /** Replaces the global `fetch`: for tests, proxies and custom TLS. */
  fetch?: typeof fetch
  /** Milliseconds before a request to the provider is abandoned. Default 10 000. */
  timeout?: number
}

/** The default request timeout, in milliseconds. */
export const DEFAULT_TIMEOUT = 10_000

function isLoopbackHttp(url: string | URL): boolean {
  const { protocol, hostname } = new URL(url)
  return protocol === "http:" && (hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname))
}

/** oauth4webapi request options for a request to `url`. */
export function requestOptions(url: string | URL | undefined, options: HttpOptions) {
  return {
    [customFetch]: options.fetch ?? fetch,
    [allowInsecureRequests]: url !== undefined && isLoopbackHttp(url),
    signal: AbortSignal.timeout(options.timeout ?? DEFAULT_TIMEOUT),
  }
}

/** Any fetch bound to the same timeout, for requests made outside oauth4webapi. */
export function timedFetch(options: HttpOptions): typeof fetch {
  const base = options.fetch ?? fetch
  return (input, init) => base(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(options.timeout ?? DEFAULT_TIMEOUT) })
}
