import type { JWT } from "../types.js"
import type { JWTEncodeParams } from "./codec.js"
import { codec } from "./runtime.js"

/**
 * Seals claims into a session token: a compact JWE with the protected header
 * `{"alg":"dir","enc":"A256CBC-HS512","kid":…}`, keyed by HKDF-SHA-256 of the secret and salt,
 * exactly as Auth.js v5 writes it. `iat` (now), `exp` (now + `maxAge`) and a random `jti` are
 * always set. With a list of secrets, the first one encrypts.
 *
 * Exported from `latchkey/jwt`.
 *
 * @throws {@link index!MissingSecretError} with no secret; {@link index!InvalidOptionError} for a salt that is
 * not a string, a `maxAge` that is not a positive whole number, or claims that are not a plain
 * JSON-serializable object.
 *
 * @example
 * ```ts
 * import { encode } from "latchkey/jwt"
 * const token = await encode({
 *   token: { sub: "42", name: "Ada" },
 *   secret: process.env.AUTH_SECRET!,
 *   salt: "authjs.session-token",
 *   maxAge: 60 * 60 * 24, // one day
 * })
 * ```
 */
export function encode<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  return codec.encode(params)
}
