/**
 * The codec bound to the crypto backend this runtime resolved: `#crypto-backend` is a package
 * `imports` entry whose `node` condition picks node:crypto and whose other conditions pick
 * WebCrypto.
 */
import { backend } from "#crypto-backend"
import { createCodec } from "./codec.js"

export const codec = createCodec(backend)
