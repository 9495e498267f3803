/**
 * `latchkey/jwt`: session tokens. `encode` and `decode` write and read compact JWEs
 * (`dir` + `A256CBC-HS512`, key by HKDF from a secret and a salt) that Auth.js v5 reads and writes
 * too; `getToken` finds and opens the token of a request (chunked cookies, both cookie names, each
 * with its own salt, and Bearer); `setCookieHeaders` writes one back in chunks. Derived keys are
 * cached, and on Node the symmetric crypto runs on node:crypto, chosen by an export condition,
 * because this code runs on every request.
 *
 * @module
 */
export { encode } from "./encode.js"
export { decode } from "./decode.js"
export type { JWTEncodeParams, JWTDecodeParams } from "./codec.js"
export { getToken, SESSION_COOKIE_NAME, SECURE_SESSION_COOKIE_NAME } from "./get-token.js"
export type { GetTokenParams, TokenDecoder } from "./get-token.js"
export { setCookieHeaders, SET_COOKIE_LIMIT, MAX_CHUNKS } from "./cookies.js"
export type { SetCookieParams, SessionCookieOptions } from "./cookies.js"
export type { RequestLike, HeaderRecord } from "./headers.js"
export type { SecretInput } from "./secrets.js"
export {
  decodeNextAuthV4,
  getNextAuthV4Token,
  NEXT_AUTH_V4_SESSION_COOKIE_NAME,
  NEXT_AUTH_V4_SECURE_SESSION_COOKIE_NAME,
} from "./next-auth-v4.js"
export { MAX_TOKEN_LENGTH } from "./compact.js"
export { cryptoBackend } from "./runtime.js"
export { CLOCK_TOLERANCE, DEFAULT_MAX_AGE } from "./claims.js"
/**
 * The session token's claim types, re-exported from `latchkey/types`: `DefaultJWT` holds the
 * claims latchkey writes by default, and `JWT` extends it with your own through declaration merging.
 *
 * @example
 * ```ts
 * import { decode, SESSION_COOKIE_NAME, type DefaultJWT, type JWT } from "latchkey/jwt"
 * const claims: JWT | null = await decode({ token, secret, salt: SESSION_COOKIE_NAME })
 * const { name, email, sub }: DefaultJWT = claims ?? {}
 * ```
 */
export type { JWT, DefaultJWT } from "../types.js"
