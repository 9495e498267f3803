// The hashers the password benchmark compares, each as { hash(password), verify(password, stored) }:
// latchkey's defaults (scrypt N=2^16 r=8 p=2 where node:crypto exists, PBKDF2-SHA-256 600,000
// elsewhere), latchkey forced to PBKDF2 (what the fallback costs on the same machine), and
// better-auth's default hasher as its docs import it (better-auth/crypto: scrypt N=16384 r=16 p=1).
export const CONTENDERS = {
  latchkey: `import { hashPassword, verifyPassword } from "latchkey/passwords"
export const hash = (password) => hashPassword(password)
export const verify = async (password, stored) => (await verifyPassword(password, stored)).valid`,
  "latchkey-pbkdf2": `import { createPasswordHasher } from "latchkey/passwords"
const hasher = createPasswordHasher({ algorithm: "pbkdf2-sha256" })
export const hash = (password) => hasher.hash(password)
export const verify = async (password, stored) => (await hasher.verify(password, stored)).valid`,
  "better-auth": `import { hashPassword, verifyPassword } from "better-auth/crypto"
export const hash = (password) => hashPassword(password)
export const verify = (password, stored) => verifyPassword({ hash: stored, password })`,
}
