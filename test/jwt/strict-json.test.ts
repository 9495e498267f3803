import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { hasAmbiguousKeys } from "../../src/jwt/strict-json.js"

describe("hasAmbiguousKeys", () => {
  it.each([
    ['{"a":1,"a":2}', true],
    ['{"a":{"b":1,"b":2}}', true],
    ['{"__proto__":{"admin":true}}', true],
    ['{"x":[{"__proto__":1}]}', true],
    ['{"a\\u0062":1,"ab":2}', true],
    ['{"a":1,"b":{"a":2}}', false],
    ['{"a":"{\\"a\\":1,\\"a\\":2}"}', false],
    ['{"list":["a","a"],"a":"__proto__"}', false],
  ])("%s → %s", (text, expected) => {
    expect(hasAmbiguousKeys(text)).toBe(expected)
  })

  it("never flags what JSON.stringify produces", () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => !hasAmbiguousKeys(JSON.stringify(value)) || JSON.stringify(value).includes('"__proto__"')))
  })
})
