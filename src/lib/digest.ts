/**
 * Small digests and comparisons shared by the session store, the plug-ins and the handler: SHA-256
 * in the two encodings latchkey's cookies use (base64url for latchkey's own values, hex where
 * Auth.js wrote hex), hex for random tokens, and a comparison whose time does not depend on where
 * two secrets differ.
 */
import { encodeBase64url } from "./base64url.js"

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))
}

/** Lower-case hex of `bytes`. */
export function hex(bytes: Uint8Array): string {
  let out = ""
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0")
  return out
}

/** SHA-256 of `text`, base64url. */
export async function sha256(text: string): Promise<string> {
  return encodeBase64url(await digest(text))
}

/** SHA-256 of `text`, lower-case hex: how Auth.js writes the CSRF cookie's hash. */
export async function sha256Hex(text: string): Promise<string> {
  return hex(await digest(text))
}

/** Compares two strings in time that depends only on their length. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}
