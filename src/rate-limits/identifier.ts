/**
 * The identifier key of an attempt: the address or username someone is trying, in one normalised
 * form (so `Ada@Example.com` and `ada@example.com` share a count), then keyed-hashed with the
 * app's secret before any store sees it. A store holds a count per account without holding the
 * account's address, and a leaked store cannot be reversed by hashing a list of addresses
 * without the secret.
 *
 * @module
 */
import { backend } from "#crypto-backend"
import { normalizeEmailAddress } from "../lib/email-address.js"

/** Longer than any address (320) or sensible username: the rest cannot change which account is meant. */
const MAX_IDENTIFIER_LENGTH = 320

/**
 * One form for every spelling of an identifier: an address by the email rules (`lib/email-address.ts`),
 * anything else trimmed, NFKC-folded and lower-cased. Undefined for an empty one.
 */
export function normalizeIdentifier(raw: string | null | undefined): string | undefined {
  if (typeof raw !== "string") return undefined
  const bounded = raw.slice(0, MAX_IDENTIFIER_LENGTH)
  const value = normalizeEmailAddress(bounded) ?? bounded.normalize("NFKC").trim().toLowerCase()
  return value === "" ? undefined : value
}

/**
 * The keyed hash of an app's secret: for each `value`, SHA-256 of the secret, then the value, as
 * 22 base64url characters (128 bits). A keyed digest, not an HMAC: what it must resist is reading
 * the value back, and without the secret no list of addresses can be hashed to compare. Both parts
 * are percent-encoded to ASCII, with a separator no encoding contains; the secret's part is
 * encoded once, here. The runtime's own crypto backend hashes, so on Node the hash comes back
 * as a string from node:crypto (no promise, no WebCrypto round trip through the thread pool); on
 * other runtimes, as a promise.
 */
export function keyedHash(secret: string): (value: string) => string | Promise<string> {
  const prefix = `latchkey rate limits ${encodeURIComponent(secret)} `
  return (value) => {
    const hash = backend.sha256(`${prefix}${encodeURIComponent(value)}`, "base64url")
    return typeof hash === "string" ? hash.slice(0, 22) : hash.then((text) => text.slice(0, 22))
  }
}
