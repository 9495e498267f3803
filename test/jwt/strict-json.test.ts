import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { AMBIGUOUS, parseStrictJson } from "../../src/jwt/strict-json.js"

// JSON.parse cannot be the oracle here: V8 (Node 24 and later, nodejs/node#63785) reads an escaped
// key wrongly once a like object has had a key matching its raw prefix. So each case says what it
// holds, and the generated texts are built beside the values they write.

const CASES: [string, unknown][] = [
  ['{"a":1,"a":2}', AMBIGUOUS],
  ['{"a":{"b":1,"b":2}}', AMBIGUOUS],
  ['{"__proto__":{"admin":true}}', AMBIGUOUS],
  ['{"x":[{"__proto__":1}]}', AMBIGUOUS],
  ['{"\\u005f_proto__":1}', AMBIGUOUS],
  ['{"__pro\\u0074o__" : 1}', AMBIGUOUS],
  ['{"a\\u0062":1,"ab":2}', AMBIGUOUS],
  ['{"a":{"x":1,"y":2},"a":{"z":3}}', AMBIGUOUS],
  ['{"1":{"b":1},"b":{"c":2,"c":3}}', AMBIGUOUS],
  ['{ "a" : 1 , "a" : 2 }', AMBIGUOUS],
  ['{"q\\"":1,"q\\"":[]}', AMBIGUOUS],
  ['{"a":1,"b":{"a":2}}', { a: 1, b: { a: 2 } }],
  ['{"a":"{\\"a\\":1,\\"a\\":2}"}', { a: '{"a":1,"a":2}' }],
  ['{"list":["a","a"],"a":"__proto__"}', { list: ["a", "a"], a: "__proto__" }],
  ['{"q\\\\":"\\\\","q\\\\\\"":1}', { "q\\": "\\", 'q\\"': 1 }],
  ['{"2":1,"10":{"b":[{"c":1},{"c":1}]},"a":null}', { 2: 1, 10: { b: [{ c: 1 }, { c: 1 }] }, a: null }],
  ['{"\\u0061" : [1, -2.5e3, true, false, null, "\\ud800"], "b":{}}', { a: [1, -2500, true, false, null, "\ud800"], b: {} }],
  ['{"\\n":{"\\t":[[{"\\"":""}]]}}', { "\n": { "\t": [[{ '"': "" }]] } }],
]

describe("parseStrictJson", () => {
  it.each(CASES)("%s → %o", (text, expected) => {
    expect(parseStrictJson(text)).toEqual(expected)
  })

  it("throws JSON.parse's error for text that is not JSON", () => {
    expect(() => parseStrictJson('{"a":1,')).toThrow(SyntaxError)
    expect(() => parseStrictJson('{"a":"unterminated}')).toThrow(SyntaxError)
    expect(() => parseStrictJson('{"\\u0061":1,')).toThrow(SyntaxError)
    expect(() => parseStrictJson('{"\\u0061":1}}')).toThrow(SyntaxError)
  })

  // A piece of JSON text and the value it writes, built together so that no JSON.parse judges
  // them; `ambiguous` when it or anything in it repeats a key in one object or writes __proto__.
  interface Piece {
    text: string
    value: unknown
    ambiguous: boolean
  }
  // Keys as written and as they read: plain, escaped, and the pairs that set V8's fault off
  // (`q\` before `q"`, `\` before `"`).
  const KEYS: [string, string][] = [
    ["a", "a"],
    ["b", "b"],
    ["1", "1"],
    ["10", "10"],
    ["__proto__", "__proto__"],
    ["\\u0061", "a"],
    ["\\u005f_proto__", "__proto__"],
    ['q\\"', 'q"'],
    ["q\\\\", "q\\"],
    ['\\"', '"'],
    ["\\\\", "\\"],
    ["h\\n", "h\n"],
  ]
  const SCALARS: Piece[] = [
    { text: "1", value: 1, ambiguous: false },
    { text: "null", value: null, ambiguous: false },
    { text: '"a"', value: "a", ambiguous: false },
    { text: '"{\\"a\\":1}"', value: '{"a":1}', ambiguous: false },
    { text: '"q\\\\"', value: "q\\", ambiguous: false },
    { text: "true", value: true, ambiguous: false },
  ]
  const space = fc.constantFrom("", " ", "\n", "\t ")
  function objectPiece(members: [string, [string, string], string, Piece][]): Piece {
    const value: Record<string, unknown> = {}
    let ambiguous = false
    for (const [, [, key], , item] of members) {
      ambiguous ||= item.ambiguous || key === "__proto__" || Object.hasOwn(value, key)
      if (key !== "__proto__") value[key] = item.value
    }
    const text = `{${members.map(([before, [written], after, item]) => `${before}"${written}"${after}:${item.text}`).join(",")}}`
    return { text, value, ambiguous }
  }
  const pieces = fc.letrec<{ value: Piece; object: Piece; array: Piece }>((tie) => ({
    value: fc.oneof({ depthSize: "small" }, fc.constantFrom(...SCALARS), tie("object"), tie("array")),
    object: fc.array(fc.tuple(space, fc.constantFrom(...KEYS), space, tie("value")), { maxLength: 5 }).map(objectPiece),
    array: fc.array(tie("value"), { maxLength: 4 }).map((items) => ({
      text: `[${items.map((item) => item.text).join(",")}]`,
      value: items.map((item) => item.value),
      ambiguous: items.some((item) => item.ambiguous),
    })),
  })).object
  const json = pieces.map((piece) => piece.text)

  it("reads generated JSON with repeated and escaped keys as it was written", () => {
    const seen = { ambiguous: 0, clear: 0 }
    fc.assert(
      fc.property(pieces, ({ text, value, ambiguous }) => {
        seen[ambiguous ? "ambiguous" : "clear"]++
        expect(parseStrictJson(text)).toEqual(ambiguous ? AMBIGUOUS : value)
      }),
      { numRuns: 2000 }
    )
    expect(seen.ambiguous).toBeGreaterThan(0)
    expect(seen.clear).toBeGreaterThan(0)
  })

  // Claims are usually one flat object, whose keys parseStrictJson counts without reading its
  // values. Flat objects, objects with nested values, and strings holding braces and brackets:
  // the shortcut must see the nesting it must not skip.
  it("reads flat claims-like objects and nested ones as they were written", () => {
    const flatKeys: [string, string][] = [
      ["sub", "sub"],
      ["name", "name"],
      ["iat", "iat"],
      ["exp", "exp"],
      ["a", "a"],
      ["1", "1"],
      ["__proto__", "__proto__"],
      ["\\u0061", "a"],
    ]
    const members: Piece[] = [
      ...SCALARS,
      ...['"{"', '"["', '"}]"'].map((text) => ({ text, value: text.slice(1, -1), ambiguous: false })),
      { text: "{}", value: {}, ambiguous: false },
      { text: "[]", value: [], ambiguous: false },
      { text: '{"a":1}', value: { a: 1 }, ambiguous: false },
      { text: '[{"a":1}]', value: [{ a: 1 }], ambiguous: false },
      { text: '{"a":1,"a":2}', value: undefined, ambiguous: true },
      { text: '[{"a":1,"a":2}]', value: undefined, ambiguous: true },
    ]
    const flat = fc
      .array(fc.tuple(fc.constantFrom(...flatKeys), fc.constantFrom(...members)), { maxLength: 6 })
      .map((list) => objectPiece(list.map(([key, item]) => ["", key, "", item])))
    const seen = { ambiguous: 0, clear: 0 }
    fc.assert(
      fc.property(flat, ({ text, value, ambiguous }) => {
        seen[ambiguous ? "ambiguous" : "clear"]++
        expect(parseStrictJson(text)).toEqual(ambiguous ? AMBIGUOUS : value)
      }),
      { numRuns: 2000 }
    )
    expect(seen.ambiguous).toBeGreaterThan(0)
    expect(seen.clear).toBeGreaterThan(0)
  })

  // Regression: on Node 24, once an object has had the key `q\`, JSON.parse reads the key `"q\""`
  // in a like object as `q\`; the first pair is nodejs/node#63785's own. parseStrictJson must read
  // both right on every runtime, whatever was parsed before.
  it("reads escaped keys right after JSON.parse has seen keys that match their raw text", () => {
    JSON.parse('{"h":[],"\\\\":0}')
    expect(parseStrictJson('{"h":1,"\\"":2}')).toEqual({ h: 1, '"': 2 })
    JSON.parse('{"q\\\\":1}')
    expect(parseStrictJson('{"q\\"":1}')).toEqual({ 'q"': 1 })
    expect(parseStrictJson('{"q\\"":1,"q\\\\":[]}')).toEqual({ 'q"': 1, "q\\": [] })
    for (const text of fc.sample(json, 3000)) parseStrictJson(text)
    expect(parseStrictJson('{"q\\"":1,"q\\"":[]}')).toBe(AMBIGUOUS)
    expect(parseStrictJson('{"q\\"":[],"q\\"":1}')).toBe(AMBIGUOUS)
  })

  it("reads deeply nested text with an escaped key without running out of stack", () => {
    const depth = 100_000
    const text = `{"\\u0061":${"[".repeat(depth)}${"]".repeat(depth)}}`
    let value = (parseStrictJson(text) as { a: unknown }).a
    for (let level = 1; level < depth; level++) value = (value as unknown[])[0]
    expect(value).toEqual([])
  })

  // JSON.stringify's text, parsed and written again, is the same text; that needs no oracle.
  it("reads back whatever JSON.stringify writes without __proto__", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const text = JSON.stringify(value)
        fc.pre(!text.includes('"__proto__"'))
        expect(JSON.stringify(parseStrictJson(text))).toBe(text)
      })
    )
  })
})
