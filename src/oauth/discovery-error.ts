/**
 * Why a discovery failed, in words that lead to the fix: the host refused the connection, its
 * certificate was not trusted, it answered 404. Discovery sends no credentials, so nothing here
 * can hold a secret. Loaded on demand by discovery.ts, and imports nothing at run time, so the
 * sign-in that succeeds carries none of it.
 */

/** Node's and undici's codes for a connection that failed, in words. */
const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused: is the server running on that port?",
  ENOTFOUND: "the host name does not resolve",
  ECONNRESET: "the connection was reset",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "its TLS certificate is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "its TLS certificate is not trusted",
  ERR_TLS_CERT_ALTNAME_INVALID: "its TLS certificate is for another host",
  ERR_SSL_WRONG_VERSION_NUMBER: "the TLS handshake failed: is it plain http?",
}

/** The URL discovery asked, without userinfo or query, which a pasted configuration might carry. */
function shownUrl(raw: string): string {
  if (!URL.canParse(raw)) return "(an unparsable URL)"
  const url = new URL(raw)
  return `${url.origin}${url.pathname}`
}

/** The code of the first error in a cause chain that has a known one (fetch hides the socket's under `cause`). */
function networkCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; typeof current === "object" && current !== null && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string" && Object.hasOwn(NETWORK_CODES, code)) return code
  }
  return undefined
}

/**
 * `discovery at <url> failed: <why>` for a discovery that threw `error`; `translated` is the
 * message latchkey's own translation gave it, used when nothing more specific is known.
 */
export function discoveryFailure(url: string, error: unknown, translated: string): string {
  const code = networkCode(error)
  const response = (error as { cause?: unknown } | null)?.cause
  // oauth4webapi's OperationProcessingError for a status other than 200 carries the Response as its cause.
  const status = response instanceof Response ? `it answered HTTP ${response.status}, not the discovery document` : undefined
  const why = code !== undefined ? `${NETWORK_CODES[code]} (${code})` : (status ?? translated.replace(/^Provider "[^"]*": (discovery: )?/, "").replace(/\.$/, ""))
  return `discovery at ${shownUrl(url)} failed: ${why}.`
}
