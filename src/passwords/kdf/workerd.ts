/**
 * The password backend on Cloudflare Workers (the `workerd` condition). Whether node:crypto exists
 * there is a deploy-time flag (`nodejs_compat`), not an export condition, so it is asked at run
 * time: a dynamic import whose specifier a bundler cannot see (a static one would fail the
 * Worker's build without the flag). With the flag, scrypt and PBKDF2 come from node:crypto; without
 * it, PBKDF2 comes from WebCrypto and a scrypt hash cannot be verified (the hasher says to add the
 * flag).
 */
import type { PasswordKdf, ScryptInput } from "./types.js"
import { webcryptoKdf } from "./webcrypto.js"

interface NodeCrypto {
  scrypt(password: Uint8Array, salt: Uint8Array, length: number, options: ScryptInput, callback: (error: Error | null, key: Uint8Array) => void): void
  pbkdf2(password: Uint8Array, salt: Uint8Array, iterations: number, length: number, digest: string, callback: (error: Error | null, key: Uint8Array) => void): void
}

/** Imports a module named at run time, so bundlers leave it to the runtime. */
const importAtRunTime = (specifier: string): Promise<unknown> => import(/* @vite-ignore */ specifier)

function fromNodeCrypto(node: NodeCrypto): PasswordKdf {
  const settle = (resolve: (key: Uint8Array) => void, reject: (error: Error) => void) => (error: Error | null, key: Uint8Array) => (error ? reject(error) : resolve(new Uint8Array(key)))
  return {
    name: "node",
    scrypt: (password, salt, input, length) => new Promise((resolve, reject) => node.scrypt(password, salt, length, input, settle(resolve, reject))),
    pbkdf2Sha256: (password, salt, iterations, length) => new Promise((resolve, reject) => node.pbkdf2(password, salt, iterations, length, "sha256", settle(resolve, reject))),
  }
}

let loaded: Promise<PasswordKdf> | undefined

/** The backend, for `#password-kdf` on workerd: node:crypto when the Worker has it. */
export function loadKdf(): Promise<PasswordKdf> {
  loaded ??= importAtRunTime("node:crypto").then(
    (module) => {
      const node = module as Partial<NodeCrypto>
      return typeof node.scrypt === "function" && typeof node.pbkdf2 === "function" ? fromNodeCrypto(node as NodeCrypto) : webcryptoKdf
    },
    () => webcryptoKdf
  )
  return loaded
}
