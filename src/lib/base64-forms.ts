/**
 * Converting between the two base64 forms a passkey's ids travel in. WebAuthn's JSON uses
 * unpadded base64url; Auth.js stores `credentialID` and `credentialPublicKey` in padded standard
 * base64. Latchkey writes the Auth.js form, so existing `Authenticator` tables keep working, and
 * reads both.
 *
 * @module
 */

const BASE64URL = /^[A-Za-z0-9_-]*$/
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** Standard padded base64 for base64url `text`; undefined when `text` is not base64url. */
export function base64urlToBase64(text: string): string | undefined {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined
  const standard = text.replaceAll("-", "+").replaceAll("_", "/")
  return standard + "=".repeat((4 - (standard.length % 4)) % 4)
}

/** Unpadded base64url for standard (or already url-safe) base64 `text`; undefined when it is neither. */
export function toBase64url(text: string): string | undefined {
  if (BASE64URL.test(text)) return text.length % 4 === 1 ? undefined : text
  if (!BASE64.test(text) || text.length % 4 !== 0) return undefined
  return text.replace(/=+$/, "").replaceAll("+", "-").replaceAll("/", "_")
}
