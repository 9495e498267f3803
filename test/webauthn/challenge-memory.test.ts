// The in-process memory of used passkey challenges, and the base64 forms of credential ids: the
// memory refuses a second use until the challenge expires, forgets expired ones, and stays bounded
// (the oldest go first, with one warning); ids convert between WebAuthn's base64url and Auth.js's
// padded base64 exactly as Buffer does.
import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { MAX_REMEMBERED_CHALLENGES, UsedChallenges } from "../../src/webauthn/challenge.js"
import { base64urlToBase64, toBase64url } from "../../src/lib/base64-forms.js"

describe("the used-challenge memory", () => {
  it("refuses a second use until the challenge expires, then forgets it", () => {
    const memory = new UsedChallenges()
    const overflow = () => expect.unreachable("no overflow")
    expect(memory.use("a", Date.now() + 60_000, overflow)).toBe(true)
    expect(memory.use("a", Date.now() + 60_000, overflow)).toBe(false)
    expect(memory.use("b", Date.now() - 1, overflow)).toBe(true)
    // Expired: a second use is no longer a replay the memory can tell (the cookie itself has expired).
    expect(memory.use("b", Date.now() + 60_000, overflow)).toBe(true)
  })

  it("holds at most MAX_REMEMBERED_CHALLENGES, forgetting the oldest first and warning once", () => {
    const memory = new UsedChallenges()
    let warnings = 0
    const later = Date.now() + 600_000
    for (let i = 0; i < MAX_REMEMBERED_CHALLENGES + 10; i++) expect(memory.use(`c${i}`, later, () => warnings++)).toBe(true)
    expect(warnings).toBe(1)
    // The newest are still refused; the oldest ten were forgotten early.
    expect(memory.use(`c${MAX_REMEMBERED_CHALLENGES + 9}`, later, () => warnings++)).toBe(false)
    expect(memory.use("c0", later, () => warnings++)).toBe(true)
  })
})

describe("credential id forms", () => {
  it("converts base64url and padded base64 both ways, as Buffer does", () => {
    const lengths = [0, 1, 2, 3, 16, 31, 32, 33, 64, 255]
    expect(lengths.length).toBeGreaterThan(0)
    for (const length of lengths) {
      for (let round = 0; round < 20; round++) {
        const bytes = randomBytes(length)
        const url = bytes.toString("base64url")
        const standard = bytes.toString("base64")
        expect(base64urlToBase64(url)).toBe(standard)
        expect(toBase64url(standard)).toBe(url)
        expect(toBase64url(url)).toBe(url)
      }
    }
  })

  it("refuses what is neither form", () => {
    for (const bad of ["a", "ab$c", "ab=c", "abc==="]) expect(toBase64url(bad)).toBeUndefined()
    for (const bad of ["a", "ab+c", "ab/c", "ab=="]) expect(base64urlToBase64(bad)).toBeUndefined()
  })
})
