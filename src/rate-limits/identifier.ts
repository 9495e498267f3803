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
import { ASCII, normalizeEmailAddress } from "../lib/email-address.js"

/** Longer than any address (320) or sensible username: the rest cannot change which account is meant. */
const MAX_IDENTIFIER_LENGTH = 320

/**
 * One form for every spelling of an identifier: an address by the email rules (`lib/email-address.ts`),
 * anything else trimmed, NFKC-folded and lower-cased. Undefined for an empty one.
 */
export function normalizeIdentifier(raw: string | null | undefined): string | undefined {
  if (typeof raw !== "string") return undefined
  const bounded = raw.slice(0, MAX_IDENTIFIER_LENGTH)
  // ASCII, nearly every attempt: the email rules and the rest agree (trimmed and lower-cased, NFKC
  // being no change), so the address pattern, which only chose between them, is not run on the
  // sign-in path. test/rate-limits/identifier.test.ts holds the two forms equal.
  if (ASCII.test(bounded)) {
    const value = bounded.trim().toLowerCase()
    return value === "" ? undefined : value
  }
  const value = normalizeEmailAddress(bounded) ?? bounded.normalize("NFKC").trim().toLowerCase()
  return value === "" ? undefined : value
}

/**
 * The keyed hash of an app's secret: for each `value`, SHA-256 of a key drawn from the secret,
 * then the value, as 22 base64url characters (128 bits). A keyed digest, not an HMAC: what it
 * must resist is reading the value back, and without the secret no list of addresses can be
 * hashed to compare. The key is the first 22 base64url characters (132 bits) of SHA-256 of
 * "latchkey rate limits " and the secret, worked out once: short, so the key, a space and an
 * address of up to 32 bytes are one SHA-256 block, where the secret itself would make every
 * attempt hash two. The value is hashed as it is (its UTF-8 bytes). The runtime's own crypto
 * backend hashes, so on Node the hash comes back as a string from node:crypto (no promise, no
 * WebCrypto round trip through the thread pool); on other runtimes, as a promise.
 */
export function keyedHash(secret: string): (value: string) => string | Promise<string> {
  let key: string | Promise<string> | undefined
  const keyOf = (): string | Promise<string> => {
    const derived = backend.sha256(`latchkey rate limits ${secret}`, "base64url")
    return typeof derived === "string" ? `${derived.slice(0, 22)} ` : derived.then((text) => (key = `${text.slice(0, 22)} `))
  }
  const hashWith = (prefix: string, value: string): string | Promise<string> => {
    const hash = backend.sha256(prefix + value, "base64url")
    return typeof hash === "string" ? hash.slice(0, 22) : hash.then((text) => text.slice(0, 22))
  }
  return (value) => {
    key ??= keyOf()
    return typeof key === "string" ? hashWith(key, value) : key.then((prefix) => hashWith(prefix, value))
  }
}
