// encode's claims writer appends iat, exp and jti to the caller's serialized claims instead of
// serializing a spread copy; the bytes must be those of the spread copy, which is what jose and
// Auth.js write, for any claims.
import fc from "fast-check"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { InvalidOptionError } from "../../src/errors.js"
import { claimsToWrite } from "../../src/jwt/claims.js"
import { AMBIGUOUS, parseStrictJson } from "../../src/jwt/strict-json.js"

const NOW = 1_763_900_000
const JTI = "0b6f0f5e-2b5c-4f0e-9a53-0d1c2e3f4a5b"

describe("claimsToWrite", () => {
  beforeEach(() => vi.useFakeTimers({ now: NOW * 1000 }))
  afterEach(() => vi.useRealTimers())

  const spread = (token: object, maxAge: number) => JSON.stringify({ ...token, iat: NOW, exp: NOW + maxAge, jti: JTI })

  it.each([
    ["no claims", {}],
    ["ordinary claims", { name: "Ada", email: "ada@example.com", sub: "1" }],
    ["integer-like keys, which serialize first", { b: 1, 2: "two", a: [1, { c: null }] }],
    ["iat and exp already set, overridden in place", { iat: 1, sub: "x", exp: 2 }],
    ["a jti already set", { jti: "mine", sub: "x" }],
    ["undefined and function values, which are left out", { a: undefined, b: () => 1, c: 1 }],
    ["a toJSON of its own", { toJSON: () => ({ replaced: true }), sub: "x" }],
    ["a prototype-less object", Object.assign(Object.create(null), { sub: "x" })],
  ])("%s: the bytes of the spread copy", (_, token) => {
    expect(claimsToWrite(token, 3600, JTI)).toBe(spread(token, 3600))
  })

  it("refuses a __proto__ key at any depth, which decode would refuse, but not the text __proto__ in a value", () => {
    const profile = JSON.parse('{"login":"ada","__proto__":{"admin":true}}')
    expect(() => claimsToWrite({ sub: "1", profile }, 3600, JTI)).toThrow(InvalidOptionError)
    expect(() => claimsToWrite({ sub: "1", list: [JSON.parse('{"__proto__":1}')] }, 3600, JTI)).toThrow(InvalidOptionError)
    expect(claimsToWrite({ sub: "1", note: '"__proto__"' }, 3600, JTI)).toBe(spread({ sub: "1", note: '"__proto__"' }, 3600))
    expect(claimsToWrite({ sub: "1", __proto_: 1 }, 3600, JTI)).toBe(spread({ sub: "1", __proto_: 1 }, 3600))
  })

  it("writes the spread copy's bytes for any JSON claims", () => {
    const claims = fc.dictionary(fc.string({ maxLength: 8 }).filter((key) => key !== "__proto__"), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 })
    fc.assert(
      fc.property(claims, fc.integer({ min: 1, max: 10 ** 9 }), (token, maxAge) => {
        const expected = spread(token, maxAge)
        // A __proto__ key nested in a value is what decode would refuse: encode refuses it first.
        if (parseStrictJson(expected) === AMBIGUOUS) expect(() => claimsToWrite(token, maxAge, JTI)).toThrow(InvalidOptionError)
        else expect(claimsToWrite(token, maxAge, JTI)).toBe(expected)
      }),
      { numRuns: 1000 }
    )
  })
})
