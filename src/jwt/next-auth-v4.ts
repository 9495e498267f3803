/**
 * Reading next-auth v4 session tokens, so users signed in before a migration stay signed in.
 * v4 derived one 32-byte key with HKDF-SHA-256 (empty salt, info
 * `NextAuth.js Generated Encryption Key`) and wrote `dir` + `A256GCM` tokens without a `kid`.
 * latchkey reads them; it never writes them.
 */
import type { JWT } from "../types.js"
import type { SecretInput } from "./secrets.js"
import { readSessionToken, type GetTokenParams } from "./get-token.js"
import { codec } from "./runtime.js"

/**
 * next-auth v4's session cookie over plain HTTP.
 *
 * @example
 * ```ts
 * import { getNextAuthV4Token, NEXT_AUTH_V4_SESSION_COOKIE_NAME } from "latchkey/jwt"
 * // "next-auth.session-token": read only the plain-HTTP v4 cookie
 * const token = await getNextAuthV4Token({ req: request, cookieName: NEXT_AUTH_V4_SESSION_COOKIE_NAME })
 * ```
 */
export const NEXT_AUTH_V4_SESSION_COOKIE_NAME = "next-auth.session-token"
/**
 * next-auth v4's session cookie over HTTPS.
 *
 * @example
 * ```ts
 * import { setCookieHeaders, NEXT_AUTH_V4_SECURE_SESSION_COOKIE_NAME } from "latchkey/jwt"
 * // once a v4 session has been re-issued as a latchkey one, expire "__Secure-next-auth.session-token"
 * const expired = setCookieHeaders({ name: NEXT_AUTH_V4_SECURE_SESSION_COOKIE_NAME, value: null, request })
 * ```
 */
export const NEXT_AUTH_V4_SECURE_SESSION_COOKIE_NAME = "__Secure-next-auth.session-token"

/**
 * Opens a next-auth v4 session token. Usable on its own or as `getToken`'s `decode`. The salt is
 * ignored: v4 did not use one.
 *
 * Exported from `latchkey/jwt`.
 *
 * @example
 * ```ts
 * import { decodeNextAuthV4 } from "latchkey/jwt"
 * const claims = await decodeNextAuthV4({ token: v4Cookie, secret: process.env.NEXTAUTH_SECRET! })
 * ```
 */
export function decodeNextAuthV4<Payload = JWT>(params: { token?: string | null; secret: SecretInput; salt?: string }): Promise<Payload | null> {
  return codec.decodeWith<Payload>("next-auth-v4", { token: params.token, secret: params.secret, salt: "" })
}

/**
 * {@link getToken} for next-auth v4 cookies: it reads `__Secure-next-auth.session-token`, then
 * `next-auth.session-token` (chunks and Bearer included) and decodes with
 * {@link decodeNextAuthV4}. Run it after `getToken` finds nothing, while v4 sessions last.
 *
 * Exported from `latchkey/jwt`.
 *
 * @example
 * ```ts
 * import { getToken, getNextAuthV4Token } from "latchkey/jwt"
 * const token = (await getToken({ req })) ?? (await getNextAuthV4Token({ req, secret: process.env.NEXTAUTH_SECRET }))
 * ```
 */
export function getNextAuthV4Token<Payload = JWT>(params: Omit<GetTokenParams<Payload>, "decode" | "salt"> & { raw: true }): Promise<string | null>
export function getNextAuthV4Token<Payload = JWT>(params: Omit<GetTokenParams<Payload>, "decode" | "salt"> & { raw?: false }): Promise<Payload | null>
export function getNextAuthV4Token<Payload = JWT>(params: Omit<GetTokenParams<Payload>, "decode" | "salt">): Promise<Payload | string | null> {
  return readSessionToken(params, [NEXT_AUTH_V4_SECURE_SESSION_COOKIE_NAME, NEXT_AUTH_V4_SESSION_COOKIE_NAME], (decodeParams) =>
    // As decodeNextAuthV4, without a promise when none is needed.
    codec.decodeNow<Payload>("next-auth-v4", { token: decodeParams.token, secret: decodeParams.secret, salt: "" })
  )
}
