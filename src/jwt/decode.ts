import type { JWT } from "../types.js"
import type { JWTDecodeParams } from "./codec.js"
import { codec } from "./runtime.js"

/**
 * Opens a session token written by {@link encode} or by Auth.js v5, and checks its claims.
 * Answers `null` for a missing or empty token. Secrets are picked by the token's `kid`; a token
 * without one is tried against every secret. Tokens longer than `MAX_TOKEN_LENGTH` are refused
 * before any crypto. 15 seconds of clock skew are allowed on `exp` and `nbf`.
 *
 * Exported from `latchkey/jwt`.
 *
 * @throws {@link index!TokenExpiredError} when `exp` has passed; {@link index!NoMatchingSecretError} when no
 * secret fits (a wrong secret, or a wrong salt, which defaults to the cookie name);
 * {@link index!InvalidTokenError} for malformed input, a failed integrity check, or a wrong
 * `alg`/`enc`/`zip`/`crit`; {@link index!MissingSecretError} with no secret.
 *
 * @example
 * ```ts
 * import { decode } from "latchkey/jwt"
 * const claims = await decode({ token, secret: [newSecret, oldSecret], salt: "authjs.session-token" })
 * console.log(claims?.sub)
 * ```
 */
export function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  return codec.decode<Payload>(params)
}
