/**
 * The node:crypto password backend, chosen by the `node` export condition (Node, Bun, Deno).
 * Both functions use the callback forms, which run in libuv's thread pool: a 64 MiB scrypt takes
 * a fifth of a second of CPU, and the synchronous forms would hold every other request that long.
 */
import { pbkdf2, scrypt } from "node:crypto"
import type { PasswordKdf, ScryptInput } from "./types.js"

function scryptAsync(password: Uint8Array, salt: Uint8Array, input: ScryptInput, length: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, { N: input.N, r: input.r, p: input.p, maxmem: input.maxmem }, (error, key) => (error ? reject(error) : resolve(new Uint8Array(key))))
  })
}

function pbkdf2Async(password: Uint8Array, salt: Uint8Array, iterations: number, length: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    pbkdf2(password, salt, iterations, length, "sha256", (error, key) => (error ? reject(error) : resolve(new Uint8Array(key))))
  })
}

export const nodeKdf: PasswordKdf = { name: "node", scrypt: scryptAsync, pbkdf2Sha256: pbkdf2Async }

/** The backend, for `#password-kdf`: ready at once on Node. */
export function loadKdf(): Promise<PasswordKdf> {
  return Promise.resolve(nodeKdf)
}
