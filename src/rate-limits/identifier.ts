/**
 * The identifier key of an attempt: the address or username someone is trying, in one normalised
 * form (so `Ada@Example.com` and `ada@example.com` share a count), then keyed-hashed with the
 * app's secret before any store sees it. A store holds a count per account without holding the
 * account's address, and a leaked store cannot be reversed by hashing a list of addresses
 * without the secret.
 *
 * @module
 */
import { encodeBase64url } from "../lib/base64url.js"
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

/** HMAC keys by secret: imported once, since every limited attempt hashes. */
const keys = new Map<string, Promise<CryptoKey>>()

function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret)
  if (key === undefined) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(`latchkey rate limits ${secret}`), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
    if (keys.size >= 8) keys.clear()
    keys.set(secret, key)
  }
  return key
}

/** HMAC-SHA-256 of `value` under the secret, as 22 base64url characters (128 bits). */
export async function keyedHash(secret: string, value: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await keyFor(secret), new TextEncoder().encode(value))
  return encodeBase64url(new Uint8Array(mac, 0, 16))
}
