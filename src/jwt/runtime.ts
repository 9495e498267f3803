/**
 * The codec bound to the crypto backend this runtime resolved: `#crypto-backend` is a package
 * `imports` entry whose `node` condition picks node:crypto and whose other conditions pick
 * WebCrypto.
 */
import { backend } from "#crypto-backend"
import { createCodec } from "./codec.js"

export const codec = createCodec(backend)

/**
 * Which crypto backend this runtime's export conditions selected: `"node"` (node:crypto) or
 * `"webcrypto"`. For diagnostics and for the runtime matrix tests.
 *
 * Exported from `latchkey/jwt`.
 *
 * @example
 * ```ts
 * import { cryptoBackend } from "latchkey/jwt"
 * console.log(cryptoBackend) // "webcrypto" on Cloudflare Workers, "node" on Node.js
 * ```
 */
export const cryptoBackend: "node" | "webcrypto" = backend.name
