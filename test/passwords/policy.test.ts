// The password rules: NIST SP 800-63B rev. 4 lengths counted in code points, NFKC normalisation
// (composed and decomposed, full-width and ligature forms are one password), and the maximum that
// stops hashing DoS: a 1 MB password is refused before any derivation and before it is normalised.
import { afterEach, describe, expect, it, vi } from "vitest"
import { InvalidOptionError, PasswordPolicyError } from "../../src/errors.js"
import { checkPassword, hashPassword, verifyPassword } from "../../src/passwords/index.js"
import { CHEAP, counting, hasherOn, nodeKdf, rejection } from "./support.js"

const MEGABYTE = "a".repeat(1024 * 1024)

afterEach(() => vi.restoreAllMocks())

describe("a 1 MB password", () => {
  it("is refused by hash and verify with ERR_PASSWORD_POLICY too_long, before any derivation", async () => {
    const kdf = counting(nodeKdf)
    const hasher = hasherOn(kdf)
    const stored = await hasher.hash("a long enough passphrase")
    kdf.calls.scrypt = 0
    for (const attempt of [hasher.hash(MEGABYTE), hasher.verify(MEGABYTE, stored), hasher.verifyDummy(MEGABYTE), hasher.check(MEGABYTE)]) {
      const error = await rejection(attempt)
      expect(error).toBeInstanceOf(PasswordPolicyError)
      expect(error.code).toBe("ERR_PASSWORD_POLICY")
      expect(error).toMatchObject({ reason: "too_long", limit: 128 })
      expect(error.message.length).toBeLessThan(200)
    }
    expect(kdf.calls).toEqual({ scrypt: 0, pbkdf2: 0 })
  })

  it("is refused before it is normalised (its length alone decides)", async () => {
    const normalize = vi.spyOn(String.prototype, "normalize")
    expect((await rejection(hashPassword(MEGABYTE))).reason).toBe("too_long")
    expect((await rejection(verifyPassword(MEGABYTE, "$scrypt$ln=16,r=8,p=2$c2FsdHNhbHRzYWx0c2FsdA$OxjCnPAcHgeNvnGcUNi5oMU47gzY5wgdcxMT9ZaB6hI"))).reason).toBe("too_long")
    expect(normalize).not.toHaveBeenCalled()
  })

  it("a ligature that NFKC expands past the maximum is counted after normalising", async () => {
    // U+FDFA is one code point that NFKC turns into 18.
    const error = await rejection(checkPassword("\uFDFA".repeat(10)))
    expect(error).toMatchObject({ reason: "too_long" })
    expect(await checkPassword("\uFDFA")).toHaveLength(18)
  })
})

describe("lengths (NIST SP 800-63B rev. 4)", () => {
  it("the default minimum is 15 characters", async () => {
    expect(await rejection(checkPassword("fourteen chars"))).toMatchObject({ reason: "too_short", limit: 15 })
    await expect(checkPassword("fifteen chars!!")).resolves.toBe("fifteen chars!!")
  })

  it("counts code points, not UTF-16 units: 15 emoji are 15 characters, 14 are not", async () => {
    await expect(checkPassword("🔑".repeat(15))).resolves.toBeDefined()
    expect(await rejection(checkPassword("🔑".repeat(14)))).toMatchObject({ reason: "too_short" })
  })

  it("the maximum is 128 by default and accepts exactly that many", async () => {
    await expect(checkPassword("x".repeat(128))).resolves.toHaveLength(128)
    expect(await rejection(checkPassword("x".repeat(129)))).toMatchObject({ reason: "too_long" })
  })

  it("8 is allowed as the minimum (a password that is one factor of several), less is refused", () => {
    expect(() => hasherOn(nodeKdf, { ...CHEAP, policy: { minLength: 8 } })).not.toThrow()
    expect(() => hasherOn(nodeKdf, { ...CHEAP, policy: { minLength: 7 } })).toThrow(InvalidOptionError)
    expect(() => hasherOn(nodeKdf, { ...CHEAP, policy: { maxLength: 63 } })).toThrow(InvalidOptionError)
  })

  it("a value that is not a string is refused as not_a_string", async () => {
    expect(await rejection(checkPassword(12345678901234567 as never))).toMatchObject({ reason: "not_a_string" })
    expect(await rejection(verifyPassword(undefined as never, "$x"))).toMatchObject({ reason: "not_a_string" })
  })

  it("verify does not apply the minimum: an older, shorter password still signs in", async () => {
    const hasher = hasherOn(nodeKdf, { ...CHEAP, policy: { minLength: 8 } })
    const stored = await hasher.hash("eight ch")
    expect((await hasherOn(nodeKdf).verify("eight ch", stored)).valid).toBe(true)
  })
})

describe("ill-formed Unicode", () => {
  it("a lone surrogate is refused: UTF-8 would turn any of them into U+FFFD, so two passwords would hash alike", async () => {
    const hasher = hasherOn(nodeKdf)
    const stored = await hasher.hash("a long enough passphrase \uFFFD")
    for (const lone of ["\uD800", "\uDFFF", "\uDBFF"]) {
      expect(await rejection(hasher.verify(`a long enough passphrase ${lone}`, stored))).toMatchObject({ code: "ERR_PASSWORD_POLICY", reason: "invalid_unicode" })
      expect(await rejection(hasher.hash(`another long passphrase ${lone}`))).toMatchObject({ reason: "invalid_unicode" })
    }
    await expect(hasher.check("a pair is fine: \uD83D\uDD11 key")).resolves.toBeDefined()
  })
})

describe("NFKC normalisation: look-alike forms are one password", () => {
  const hasher = hasherOn(nodeKdf)
  const pairs: Array<[string, string, string]> = [
    ["composed and decomposed é", "caf\u00e9 au lait, s'il vous plaît", "cafe\u0301 au lait, s'il vous plai\u0302t"],
    ["full-width and ASCII letters", "ＰａｓｓｗｏｒｄＰａｓｓｗｏｒｄ", "PasswordPassword"],
    ["the ﬁ ligature and f i", "\uFB01ve boxing wizards jump", "five boxing wizards jump"],
    ["Hangul syllables and their jamo", "한국어 비밀번호입니다 정말로요", "한국어 비밀번호입니다 정말로요".normalize("NFD")],
    ["the Ångström sign and Å", "\u212Bngström units of length", "\u00C5ngström units of length"],
  ]
  for (const [what, typed, stored] of pairs) {
    it(`${what}: a hash of one verifies the other`, async () => {
      expect(typed).not.toBe(stored)
      const hash = await hasher.hash(stored)
      expect((await hasher.verify(typed, hash)).valid).toBe(true)
    })
  }

  it("letters that only look alike stay different passwords (Cyrillic а is not Latin a)", async () => {
    const hash = await hasher.hash("password password")
    expect((await hasher.verify("p\u0430ssword password", hash)).valid).toBe(false)
  })

  it("decomposed input that composes within the maximum is accepted (4 units per character are read)", async () => {
    const decomposed = "한".repeat(128).normalize("NFD")
    expect(decomposed.length).toBe(128 * 3)
    await expect(checkPassword(decomposed)).resolves.toHaveLength(128)
  })
})
