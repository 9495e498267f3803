// Shared fixtures for the token suites. The backend is whichever one this vitest project aliased
// `#crypto-backend` to, so every suite that uses it runs once per backend.
import { backend } from "#crypto-backend"
import { createCodec } from "../../src/jwt/codec.js"

export { backend }
export const codec = createCodec(backend)

/** An obvious test value, never a real secret. */
export const SECRET = "latchkey-test-secret-0123456789abcdef"
export const OTHER_SECRET = "latchkey-other-test-secret-fedcba9876543210"
export const PLAIN = "authjs.session-token"
export const SECURE = "__Secure-authjs.session-token"

/** Replaces one base64url character of `token` at `index` with another valid one. */
export function tamperAt(token: string, index: number): string {
  const current = token[index]!
  const replacement = current === "A" ? "B" : "A"
  return token.slice(0, index) + replacement + token.slice(index + 1)
}

/** Builds a Cookie header from name/value pairs. */
export function cookieHeader(cookies: Record<string, string>): string {
  return Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ")
}
