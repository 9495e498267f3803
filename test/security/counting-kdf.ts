// node:crypto with its two key derivations counted, for the password attack suites that prove an
// answer spent (or did not spend) a derivation: `vi.mock("node:crypto", ...)` hands it the real
// module. It imports nothing at run time, so the mock's factory can load it without a cycle.
import type * as NodeCrypto from "node:crypto"

/** `actual` with scrypt and pbkdf2 adding one to `counter.calls` on every call, then running as they are. */
export function countingCrypto(actual: typeof NodeCrypto, counter: { calls: number }) {
  const scrypt = (...args: unknown[]) => (counter.calls++, (actual.scrypt as (...a: unknown[]) => void)(...args))
  const pbkdf2 = (...args: unknown[]) => (counter.calls++, (actual.pbkdf2 as (...a: unknown[]) => void)(...args))
  return { ...actual, scrypt, pbkdf2, default: { ...actual, scrypt, pbkdf2 } }
}
