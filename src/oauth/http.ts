/**
 * Every request latchkey makes to a provider goes through here: the configured `fetch`, a timeout,
 * a bound on how much of a response is read, and plain http allowed only for loopback hosts (the
 * rule provider resolution enforces). A hostile or broken endpoint can delay a sign-in by at most
 * the timeout and make latchkey buffer at most the limit.
 */
import { allowInsecureRequests, customFetch } from "oauth4webapi"
import { OAuthProtocolError } from "../errors.js"
import { isLoopbackHttp } from "../lib/secure-url.js"

/**
 * Options every flow function takes.
 *
 * @example
 * ```ts
 * import { refreshTokens, type HttpOptions } from "latchkey/oauth"
 * const http: HttpOptions = { fetch: proxiedFetch, timeout: 3000, maxResponseBytes: 64 * 1024 } // proxiedFetch: your own fetch
 * const tokens = await refreshTokens(google, refreshToken, http)
 * ```
 */
export interface HttpOptions {
  /** Replaces the global `fetch`: for tests, proxies and custom TLS. */
  fetch?: typeof fetch
  /** Milliseconds before a request to the provider is abandoned. Default 10 000. */
  timeout?: number
  /** The most bytes of any one response body that are read. Default 1 MiB. */
  maxResponseBytes?: number
}

/**
 * The default request timeout, in milliseconds.
 *
 * @example
 * ```ts
 * import { DEFAULT_TIMEOUT, refreshTokens } from "latchkey/oauth"
 * // 10 000 ms unless `timeout` says otherwise; give a slow provider twice as long
 * const tokens = await refreshTokens(google, refreshToken, { timeout: 2 * DEFAULT_TIMEOUT })
 * ```
 */
export const DEFAULT_TIMEOUT = 10_000

/**
 * The default bound on a response body: 1 MiB, far above any discovery document, JWKS or profile.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_RESPONSE_BYTES, finishSignIn } from "latchkey/oauth"
 * // a provider whose responses can exceed 1 MiB needs a higher bound
 * const result = await finishSignIn(provider, request, { redirectUri, maxResponseBytes: 4 * DEFAULT_MAX_RESPONSE_BYTES })
 * ```
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 1_048_576


function tooLarge(provider: string, limit: number): OAuthProtocolError {
  return new OAuthProtocolError(provider, `a response was larger than ${limit} bytes.`)
}

const NULL_BODY_STATUS = new Set([101, 204, 205, 304])

/**
 * The response, read in full but never past `limit` bytes. Provider responses are small JSON, so
 * holding them is the point; reading eagerly also keeps the result an ordinary Response that every
 * runtime can clone and re-read.
 */
async function bounded(response: Response, provider: string, limit: number): Promise<Response> {
  const declared = Number(response.headers.get("content-length"))
  if (declared > limit) {
    await response.body?.cancel()
    throw tooLarge(provider, limit)
  }
  if (response.body === null) return response
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw tooLarge(provider, limit)
    }
    chunks.push(read.value)
  }
  const body = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.byteLength
  }
  // The body is now plain decoded bytes, so the original's length and encoding no longer apply.
  const headers = new Headers(response.headers)
  headers.delete("content-length")
  headers.delete("content-encoding")
  return new Response(NULL_BODY_STATUS.has(response.status) ? null : body, { status: response.status, statusText: response.statusText, headers })
}

/** The configured fetch, bounded in time and size, for requests to `provider`. */
export function providerFetch(options: HttpOptions, provider: string): typeof fetch {
  const base = options.fetch ?? fetch
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
  return async (input, init) => {
    const signal = init?.signal ?? AbortSignal.timeout(options.timeout ?? DEFAULT_TIMEOUT)
    return await bounded(await base(input, { ...init, signal }), provider, limit)
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
