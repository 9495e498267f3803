/**
 * Every request latchkey makes to a provider goes through here: the configured `fetch`, a timeout,
 * a bound on how much of a response is read, and plain http allowed only for loopback hosts (the
 * rule provider resolution enforces). A hostile or broken endpoint can delay a sign-in by at most
 * the timeout and make latchkey buffer at most the limit.
 */
import { allowInsecureRequests, customFetch } from "oauth4webapi"
import { OAuthProtocolError } from "../errors.js"

/** Options every flow function takes. */
export interface HttpOptions {
  /** Replaces the global `fetch`: for tests, proxies and custom TLS. */
  fetch?: typeof fetch
  /** Milliseconds before a request to the provider is abandoned. Default 10 000. */
  timeout?: number
  /** The most bytes of any one response body that are read. Default 1 MiB. */
  maxResponseBytes?: number
}

/** The default request timeout, in milliseconds. */
export const DEFAULT_TIMEOUT = 10_000

/** The default bound on a response body: 1 MiB, far above any discovery document, JWKS or profile. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1_048_576

function isLoopbackHttp(url: string | URL): boolean {
  const { protocol, hostname } = new URL(url)
  return protocol === "http:" && (hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname))
}

function tooLarge(provider: string, limit: number): OAuthProtocolError {
  return new OAuthProtocolError(provider, `a response was larger than ${limit} bytes.`)
}

/** The response with its body cut off, as an error, past `limit` bytes. */
function bounded(response: Response, provider: string, limit: number): Response {
  const declared = Number(response.headers.get("content-length"))
  if (declared > limit) {
    void response.body?.cancel()
    throw tooLarge(provider, limit)
  }
  if (response.body === null) return response
  let seen = 0
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength
        if (seen > limit) controller.error(tooLarge(provider, limit))
        else controller.enqueue(chunk)
      },
    })
  )
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
}

/** The configured fetch, bounded in time and size, for requests to `provider`. */
export function providerFetch(options: HttpOptions, provider: string): typeof fetch {
  const base = options.fetch ?? fetch
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
  return async (input, init) => {
    const signal = init?.signal ?? AbortSignal.timeout(options.timeout ?? DEFAULT_TIMEOUT)
    return bounded(await base(input, { ...init, signal }), provider, limit)
  }
}

/** oauth4webapi request options for a request to `url` on behalf of `provider`. */
export function requestOptions(url: string | URL | undefined, options: HttpOptions, provider: string) {
  return {
    [customFetch]: providerFetch(options, provider),
    [allowInsecureRequests]: url !== undefined && isLoopbackHttp(url),
    signal: AbortSignal.timeout(options.timeout ?? DEFAULT_TIMEOUT),
  }
}
