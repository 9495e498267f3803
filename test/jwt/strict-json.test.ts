import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { AMBIGUOUS, parseStrictJson } from "../../src/jwt/strict-json.js"

/**
 * The reference: whether `text` has a duplicate key in any object, or a `__proto__` key anywhere,
 * by one walk over the text keeping a set of keys per object, each key decoded with JSON.parse.
 * Slow and obviously right; parseStrictJson must answer as it does.
 */
function hasAmbiguousKeys(text: string): boolean {
  const stack: (Set<string> | null)[] = []
  let expectKey = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char === '"') {
      let end = i + 1
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1
      const keys = stack[stack.length - 1]
      if (expectKey && keys) {
        let key: string
        try {
          key = JSON.parse(text.slice(i, end + 1)) as string
        } catch {
          return true
        }
        if (key === "__proto__" || keys.has(key)) return true
        keys.add(key)
        expectKey = false
      }
      i = end
    } else if (char === "{") {
      stack.push(new Set())
      expectKey = true
    } else if (char === "[") {
      stack.push(null)
    } else if (char === "}" || char === "]") {
      stack.pop()
    } else if (char === ",") {
      expectKey = stack[stack.length - 1] != null
    }
  }
  return false
}


const CASES: [string, boolean][] = [
  ['{"a":1,"a":2}', true],
  ['{"a":{"b":1,"b":2}}', true],
  ['{"__proto__":{"admin":true}}', true],
  ['{"x":[{"__proto__":1}]}', true],
  ['{"\\u005f_proto__":1}', true],
  ['{"__pro\\u0074o__" : 1}', true],
  ['{"a\\u0062":1,"ab":2}', true],
  ['{"a":{"x":1,"y":2},"a":{"z":3}}', true],
  ['{"1":{"b":1},"b":{"c":2,"c":3}}', true],
  ['{ "a" : 1 , "a" : 2 }', true],
  ['{"a":1,"b":{"a":2}}', false],
  ['{"a":"{\\"a\\":1,\\"a\\":2}"}', false],
  ['{"list":["a","a"],"a":"__proto__"}', false],
  ['{"q\\\\":"\\\\","q\\\\\\"":1}', false],
  ['{"2":1,"10":{"b":[{"c":1},{"c":1}]},"a":null}', false],
]

describe("hasAmbiguousKeys", () => {
  it.each(CASES)("%s → %s", (text, expected) => {
    expect(hasAmbiguousKeys(text)).toBe(expected)
  })

  it("never flags what JSON.stringify produces", () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => !hasAmbiguousKeys(JSON.stringify(value)) || JSON.stringify(value).includes('"__proto__"')))
  })
})

describe("parseStrictJson", () => {
  it.each(CASES)("%s → ambiguous: %s", (text, expected) => {
    const parsed = parseStrictJson(text)
    expect(parsed === AMBIGUOUS).toBe(expected)
    if (!expected) expect(parsed).toEqual(JSON.parse(text))
  })

  it("throws JSON.parse's error for text that is not JSON", () => {
    expect(() => parseStrictJson('{"a":1,')).toThrow(SyntaxError)
    expect(() => parseStrictJson('{"a":"unterminated}')).toThrow(SyntaxError)
  })

  // Text with repeated keys at any depth, escaped spellings and stray white space: the counting
  // check must answer exactly what the reference scanner answers, for every text JSON.parse accepts.
  const key = fc.constantFrom("a", "b", "1", "10", "__proto__", "\\u0061", "\\u005f_proto__", 'q\\"', "q\\\\")
  const space = fc.constantFrom("", " ", "\n", "\t ")
  const json: fc.Arbitrary<string> = fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
    value: fc.oneof({ depthSize: "small" }, fc.constantFrom("1", "null", '"a"', '"{\\"a\\":1}"', "true"), tie("object"), tie("array")),
    object: fc.array(fc.tuple(space, key, space, tie("value")), { maxLength: 5 }).map((members) => `{${members.map(([s, k, t, v]) => `${s}"${k}"${t}:${v}`).join(",")}}`),
    array: fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
  })).object

  it("agrees with hasAmbiguousKeys on generated JSON with repeated and escaped keys", () => {
    let ambiguous = 0
    fc.assert(
      fc.property(json, (text) => {
        const expected = hasAmbiguousKeys(text)
        if (expected) ambiguous++
        const parsed = parseStrictJson(text)
        expect(parsed === AMBIGUOUS).toBe(expected)
        if (!expected) expect(parsed).toEqual(JSON.parse(text))
      }),
      { numRuns: 2000 }
    )
    expect(ambiguous).toBeGreaterThan(0)
  })

  // Claims are usually one flat object, whose keys parseStrictJson counts without reading its
  // values. Flat objects, objects with nested values, and strings holding braces and brackets:
  // the shortcut must answer what the reference answers, and see the nesting it must not skip.
  it("agrees with hasAmbiguousKeys on flat claims-like objects and nested ones", () => {
    const flatKey = fc.constantFrom("sub", "name", "iat", "exp", "a", "1", "__proto__", "\\u0061")
    const member = fc.constantFrom("1", "null", '"a"', '"{"', '"["', '"}]"', '"{\\"a\\":1}"', "true", "{}", "[]", '{"a":1}', '[{"a":1}]', '{"a":1,"a":2}', '[{"a":1,"a":2}]')
    const flat = fc
      .array(fc.tuple(flatKey, member), { maxLength: 6 })
      .map((members) => `{${members.map(([key, value]) => `"${key}":${value}`).join(",")}}`)
    const seen = { ambiguous: 0, clear: 0 }
    fc.assert(
      fc.property(flat, (text) => {
        const expected = hasAmbiguousKeys(text)
        seen[expected ? "ambiguous" : "clear"]++
        const parsed = parseStrictJson(text)
        expect(parsed === AMBIGUOUS).toBe(expected)
        if (!expected) expect(parsed).toEqual(JSON.parse(text))
      }),
      { numRuns: 2000 }
    )
    expect(seen.ambiguous).toBeGreaterThan(0)
    expect(seen.clear).toBeGreaterThan(0)
  })

  // Regression: on Node 24, after a few hundred parses of such text, JSON.parse read
  // {"q\"":1,"q\"":[]} as the two keys q" and q\, so counting the parsed keys missed the duplicate.
  it("refuses a duplicate escaped key after JSON.parse has warmed up on escaped keys", () => {
    const samples = fc.sample(json, 3000)
    expect(samples.length).toBe(3000)
    for (const text of samples) parseStrictJson(text)
    expect(parseStrictJson('{"q\\"":1,"q\\"":[]}')).toBe(AMBIGUOUS)
    expect(parseStrictJson('{"q\\"":[],"q\\"":1}')).toBe(AMBIGUOUS)
  })

  it("accepts whatever JSON.stringify writes without __proto__", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const text = JSON.stringify(value)
        fc.pre(!text.includes('"__proto__"'))
        expect(parseStrictJson(text)).toEqual(JSON.parse(text))
      })
    )
  })
})
