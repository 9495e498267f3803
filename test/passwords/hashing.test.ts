// Hash and verify on both backends (node:crypto and WebCrypto), the needsRehash upgrades, the costs
// a stored hash may not ask for, the dummy verify, and what a runtime without scrypt answers. Round
// trips use cheap parameters (allowWeakParameters); the defaults are checked once each at full cost.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { InvalidOptionError, InvalidPasswordHashError, PasswordKdfUnavailableError } from "../../src/errors.js"
import { equalBytes } from "../../src/passwords/derive.js"
import { hashPassword, needsRehash, verifyDummyPassword, verifyPassword } from "../../src/passwords/index.js"
import { formatHash, parseHash } from "../../src/passwords/phc.js"
import { CHEAP, counting, hasherOn, nodeKdf, rejection, webcryptoKdf } from "./support.js"

const PASSWORD = "correct horse battery staple"

describe("the defaults, at full cost", () => {
  it("hashPassword writes scrypt N=2^16 r=8 p=2 with a 16-byte salt and a 32-byte hash on Node, and it verifies", async () => {
    const stored = await hashPassword(PASSWORD)
    expect(stored).toMatch(/^\$scrypt\$ln=16,r=8,p=2\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    expect(await verifyPassword(PASSWORD, stored)).toEqual({ valid: true, needsRehash: false })
    expect(await verifyPassword(`${PASSWORD}!`, stored)).toEqual({ valid: false, needsRehash: false })
  }, 30_000)

  it("the WebCrypto backend writes PBKDF2-SHA-256 at 600,000 iterations, which node:crypto verifies and flags for scrypt", async () => {
    const stored = await hasherOn(webcryptoKdf, {}).hash(PASSWORD)
    expect(stored).toMatch(/^\$pbkdf2-sha256\$i=600000\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    expect(await hasherOn(webcryptoKdf, {}).verify(PASSWORD, stored)).toEqual({ valid: true, needsRehash: false })
    expect(await hasherOn(nodeKdf, {}).verify(PASSWORD, stored)).toEqual({ valid: true, needsRehash: true })
  }, 30_000)

  it("two hashes of one password differ (a fresh salt each time)", async () => {
    const hasher = hasherOn(nodeKdf)
    const [a, b] = await Promise.all([hasher.hash(PASSWORD), hasher.hash(PASSWORD)])
    expect(parseHash(a).salt).not.toEqual(parseHash(b).salt)
    expect(a).not.toBe(b)
  })
})

describe("round trips on both backends", () => {
  for (const [name, kdf] of [["node:crypto", nodeKdf], ["WebCrypto", webcryptoKdf]] as const) {
    it(`${name}: any password of the allowed length verifies, and any other password does not`, async () => {
      const hasher = hasherOn(kdf)
      await fc.assert(
        fc.asyncProperty(fc.string({ minLength: 15, maxLength: 40, unit: "grapheme" }), fc.string({ minLength: 1, maxLength: 3 }), async (password, extra) => {
          const stored = await hasher.hash(password)
          expect((await hasher.verify(password, stored)).valid).toBe(true)
          expect((await hasher.verify(password + extra, stored)).valid).toBe(false)
        }),
        { numRuns: 25 }
      )
    }, 60_000)
  }

  it("the same pbkdf2-sha256 hash verifies on both backends (they derive the same bytes)", async () => {
    const options = { ...CHEAP, algorithm: "pbkdf2-sha256" as const }
    const stored = await hasherOn(nodeKdf, options).hash(PASSWORD)
    expect((await hasherOn(webcryptoKdf, options).verify(PASSWORD, stored)).valid).toBe(true)
    const back = await hasherOn(webcryptoKdf, options).hash(PASSWORD)
    expect((await hasherOn(nodeKdf, options).verify(PASSWORD, back)).valid).toBe(true)
  })
})

describe("a tampered hash never verifies", () => {
  it("flipping any bit of the salt or the hash, or changing a parameter, makes the right password invalid", async () => {
    const hasher = hasherOn(nodeKdf)
    const parsed = parseHash(await hasher.hash(PASSWORD))
    if (parsed.algorithm !== "scrypt") throw new Error("expected scrypt")
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("salt", "hash", "r", "p"), fc.nat(), fc.integer({ min: 0, max: 7 }), async (part, at, bit) => {
        const salt = new Uint8Array(parsed.salt)
        const hash = new Uint8Array(parsed.hash)
        if (part === "salt") salt[at % salt.length]! ^= 1 << bit
        if (part === "hash") hash[at % hash.length]! ^= 1 << bit
        const params = { ...parsed.params, ...(part === "r" ? { r: parsed.params.r + 1 } : part === "p" ? { p: parsed.params.p + 1 } : {}) }
        expect(await hasher.verify(PASSWORD, formatHash({ algorithm: "scrypt", params, salt, hash }))).toEqual({ valid: false, needsRehash: false })
      }),
      { numRuns: 30 }
    )
  })
})

describe("needsRehash: upgrades on the next sign-in", () => {
  const older = { ...CHEAP, scrypt: { ln: 10, r: 8, p: 1 } }
  const newer = { ...CHEAP, scrypt: { ln: 11, r: 8, p: 1 } }

  it("a hash made with older parameters verifies and is flagged; the fresh hash is not", async () => {
    const stored = await hasherOn(nodeKdf, older).hash(PASSWORD)
    const hasher = hasherOn(nodeKdf, newer)
    expect(await hasher.verify(PASSWORD, stored)).toEqual({ valid: true, needsRehash: true })
    expect(await hasher.needsRehash(stored)).toBe(true)
    const fresh = await hasher.hash(PASSWORD)
    expect(await hasher.verify(PASSWORD, fresh)).toEqual({ valid: true, needsRehash: false })
    expect(await hasher.needsRehash(fresh)).toBe(false)
  })

  it("a wrong password is never flagged (nothing to rehash from)", async () => {
    const stored = await hasherOn(nodeKdf, older).hash(PASSWORD)
    expect(await hasherOn(nodeKdf, newer).verify("another long passphrase", stored)).toEqual({ valid: false, needsRehash: false })
  })

  it("each parameter counts: r, p, PBKDF2 iterations, and a change of function", async () => {
    const stored = await hasherOn(nodeKdf).hash(PASSWORD)
    expect(await hasherOn(nodeKdf, { ...CHEAP, scrypt: { ln: 10, r: 9, p: 1 } }).needsRehash(stored)).toBe(true)
    expect(await hasherOn(nodeKdf, { ...CHEAP, scrypt: { ln: 10, r: 8, p: 2 } }).needsRehash(stored)).toBe(true)
    expect(await hasherOn(nodeKdf, { ...CHEAP, algorithm: "pbkdf2-sha256" }).needsRehash(stored)).toBe(true)
    const pbkdf2 = await hasherOn(nodeKdf, { ...CHEAP, algorithm: "pbkdf2-sha256" }).hash(PASSWORD)
    expect(await hasherOn(nodeKdf, { ...CHEAP, algorithm: "pbkdf2-sha256", pbkdf2: { iterations: 2000 } }).needsRehash(pbkdf2)).toBe(true)
    expect(await needsRehash("$scrypt$ln=15,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$OxjCnPAcHgeNvnGcUNi5oMU47gzY5wgdcxMT9ZaB6hI")).toBe(true)
  })
})

describe("what a stored hash may cost a verify", () => {
  const SALT = "c2FsdHNhbHRzYWx0c2FsdA"
  const HASH = "OxjCnPAcHgeNvnGcUNi5oMU47gzY5wgdcxMT9ZaB6hI"

  it("refuses scrypt memory over maxMemory, scrypt N over 2^20 and PBKDF2 over 10 million iterations, deriving nothing", async () => {
    const kdf = counting(nodeKdf)
    const hasher = hasherOn(kdf, CHEAP)
    for (const stored of [`$scrypt$ln=18,r=8,p=1$${SALT}$${HASH}`, `$scrypt$ln=21,r=1,p=1$${SALT}$${HASH}`, `$scrypt$ln=0,r=8,p=1$${SALT}$${HASH}`, `$pbkdf2-sha256$i=10000001$${SALT}$${HASH}`, `$pbkdf2-sha256$i=0$${SALT}$${HASH}`]) {
      const error = await rejection(hasher.verify(PASSWORD, stored))
      expect(error, stored).toBeInstanceOf(InvalidPasswordHashError)
      expect(error.reason).toBe("out_of_range")
    }
    expect(kdf.calls).toEqual({ scrypt: 0, pbkdf2: 0 })
  })

  it("the OWASP first line (N=2^17, r=8, p=1, 128 MiB) stays verifiable under the default maxMemory", async () => {
    const kdf = counting(nodeKdf)
    const verification = await hasherOn(kdf, {}).verify(PASSWORD, `$scrypt$ln=17,r=8,p=1$${SALT}$${HASH}`)
    expect(verification).toEqual({ valid: false, needsRehash: false })
    expect(kdf.calls.scrypt).toBe(1)
  }, 30_000)
})

describe("a runtime without node:crypto", () => {
  it("verifying a scrypt hash is refused with ERR_PASSWORD_KDF_UNAVAILABLE, naming nodejs_compat", async () => {
    const stored = await hasherOn(nodeKdf).hash(PASSWORD)
    const error = await rejection(hasherOn(webcryptoKdf).verify(PASSWORD, stored))
    expect(error).toBeInstanceOf(PasswordKdfUnavailableError)
    expect(error.code).toBe("ERR_PASSWORD_KDF_UNAVAILABLE")
    expect(error.algorithm).toBe("scrypt")
    expect(error.message).toContain("nodejs_compat")
    expect(error.message).not.toContain(PASSWORD)
  })

  it("asking for scrypt there is refused the same way, not silently swapped for PBKDF2", async () => {
    const error = await rejection(hasherOn(webcryptoKdf, { ...CHEAP, algorithm: "scrypt" }).hash(PASSWORD))
    expect(error).toBeInstanceOf(PasswordKdfUnavailableError)
  })

  it("a PBKDF2 count the platform refuses becomes the same typed error, with the platform's message kept as the cause", async () => {
    const capped = { ...webcryptoKdf, pbkdf2Sha256: () => Promise.reject(new DOMException("Pbkdf2 failed: iteration counts above 100000 are not supported (requested 600000).", "NotSupportedError")) }
    const error = await rejection(hasherOn(capped, {}).hash(PASSWORD))
    expect(error).toBeInstanceOf(PasswordKdfUnavailableError)
    expect(error.algorithm).toBe("pbkdf2-sha256")
    expect(error.cause).toMatchObject({ name: "NotSupportedError" })
  })
})

describe("the dummy verify, for unknown users", () => {
  it("costs one derivation with today's parameters, as a real verify does, and never matches", async () => {
    const kdf = counting(nodeKdf)
    const hasher = hasherOn(kdf)
    const stored = await hasher.hash(PASSWORD)
    kdf.calls.scrypt = 0
    await hasher.verify(PASSWORD, stored)
    const real = { ...kdf.calls }
    kdf.calls.scrypt = 0
    expect(await hasher.verifyDummy(PASSWORD)).toEqual({ valid: false, needsRehash: false })
    expect(kdf.calls).toEqual(real)
  })

  it("uses the backend's function: PBKDF2 where there is no scrypt", async () => {
    const kdf = counting(webcryptoKdf)
    await hasherOn(kdf).verifyDummy(PASSWORD)
    expect(kdf.calls).toEqual({ scrypt: 0, pbkdf2: 1 })
  })

  it("applies the same length limit as verify (a 1 MB password is refused for unknown users too)", async () => {
    expect((await rejection(verifyDummyPassword("x".repeat(1_000_000)))).reason).toBe("too_long")
  })
})

describe("options", () => {
  it("refuses costs under OWASP's unless allowWeakParameters is set", () => {
    expect(() => hasherOn(nodeKdf, { scrypt: { ln: 12 } })).toThrow(InvalidOptionError)
    expect(() => hasherOn(nodeKdf, { scrypt: { ln: 14, r: 8, p: 1 } })).toThrow(InvalidOptionError)
    expect(() => hasherOn(nodeKdf, { scrypt: { r: 4 } })).toThrow(InvalidOptionError)
    expect(() => hasherOn(nodeKdf, { pbkdf2: { iterations: 599_999 } })).toThrow(InvalidOptionError)
    expect(() => hasherOn(nodeKdf, { scrypt: { ln: 17, r: 8, p: 1 } })).not.toThrow()
    expect(() => hasherOn(nodeKdf, { scrypt: { ln: 14, r: 8, p: 5 } })).not.toThrow()
    expect(() => hasherOn(nodeKdf, { scrypt: { ln: 18, r: 8, p: 1 } })).toThrow(/maxMemory/)
    expect(() => hasherOn(nodeKdf, { algorithm: "md5" as never })).toThrow(InvalidOptionError)
  })
})

describe("comparison", () => {
  it("equalBytes is equality of bytes", () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (a, b) => equalBytes(a, b) === Buffer.from(a).equals(Buffer.from(b))))
    expect(equalBytes(new Uint8Array(32), new Uint8Array(31))).toBe(false)
  })
})
