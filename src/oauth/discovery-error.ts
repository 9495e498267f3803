/**
 * A failed discovery, said so that the fix is findable: which URL was asked, and why it failed (the
 * host refused the connection, its certificate was not trusted, it answered 404, the document names
 * another issuer). Discovery sends no credentials, so nothing it reports can hold a secret; the
 * URL is still shown without userinfo or query, which a pasted configuration might carry.
 */
import * as oauth from "oauth4webapi"
import { LatchkeyError, OAuthProtocolError } from "../errors.js"
import type { ResolvedOAuthProvider } from "../providers/types.js"
import { translateError } from "./translate-error.js"

/** Node's and undici's codes for a connection that failed, in words. */
const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "the host refused the connection (is the server running on that port?)",
  ENOTFOUND: "the host name does not resolve",
  EAI_AGAIN: "the host name could not be resolved right now",
  ECONNRESET: "the connection was reset",
  ETIMEDOUT: "the connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed and not trusted",
  SELF_SIGNED_CERT_IN_CHAIN: "the server's TLS certificate chain is self-signed and not trusted",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate could not be verified",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is for another host name",
  EPROTO: "the TLS handshake failed (is it plain http on an https URL?)",
  ERR_SSL_WRONG_VERSION_NUMBER: "the TLS handshake failed (is it plain http on an https URL?)",
}

/** The URL discovery asks: the configured `wellKnown`, else the issuer's OpenID configuration. */
export function discoveryUrl(provider: ResolvedOAuthProvider): string {
  const raw = provider.wellKnown ?? `${provider.issuer!.replace(/\/$/, "")}/.well-known/openid-configuration`
  if (!URL.canParse(raw)) return "(an unparsable URL)"
  const url = new URL(raw)
  return `${url.origin}${url.pathname}`
}

/** The code of the first error in a cause chain that has a string one (fetch hides the socket's under `cause`). */
function networkCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; typeof current === "object" && current !== null && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string" && Object.hasOwn(NETWORK_CODES, code)) return code
  }
  return undefined
}

/** Why discovery failed, in a few words, from what it threw. */
function reasonOf(error: unknown, translated: Error): string {
  const code = networkCode(error)
  if (code !== undefined) return `${NETWORK_CODES[code]} (${code})`
  const response = (error as { cause?: unknown })?.cause
  if (error instanceof oauth.OperationProcessingError && response instanceof Response) return `it answered HTTP ${response.status}, not the discovery document`
  const message = translated.message.replace(/^Provider "[^"]*": /, "")
  return message.replace(/^discovery: /, "").replace(/\.$/, "")
}

/**
 * The error for a discovery of `provider` that failed with `error`: an `OAuthProtocolError` that
 * names the URL and the reason, with the translated error as its cause.
 */
export function discoveryError(provider: ResolvedOAuthProvider, error: unknown): Error {
  const translated = translateError(provider.id, error, "discovery")
  if (translated instanceof LatchkeyError && translated.code !== "ERR_OAUTH_PROTOCOL") return translated
  return new OAuthProtocolError(provider.id, `discovery at ${discoveryUrl(provider)} failed: ${reasonOf(error, translated)}.`, { cause: translated })
}
