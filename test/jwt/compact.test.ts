// parseCompactJwe checks a well-formed token in one pass and sends everything else through
// parseParts, the part-by-part parse that names what is wrong. Both must answer the same for any
// token: the same parts, or the same error.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { parseCompactJwe, parseParts } from "../../src/jwt/compact.js"
import { codec, PLAIN, SECRET } from "./support.js"

const token = await codec.encode({ token: { sub: "1" }, secret: SECRET, salt: PLAIN })
const gcmHeader = Buffer.from(JSON.stringify({ alg: "dir", enc: "A256GCM" })).toString("base64url")

function outcome(parse: (token: string) => unknown, text: string): unknown {
  try {
    return { parts: parse(text) }
  } catch (error) {
    return { error: `${(error as { reason?: string }).reason}: ${(error as Error).message}` }
  }
}

describe("parseCompactJwe", () => {
  it("answers what parseParts answers, for tokens one edit away from a real one and for random ones", () => {
    const alphabet = fc.constantFrom(..."AQgw-_xyz019.=+/ ".split(""))
    // The last character of each segment carries its unused tail bits: edited there most of all.
    const dots = [...token.matchAll(/\./g)].map((match) => match.index)
    const segmentEnds = [dots[2]! - 1, dots[3]! - 1, token.length - 1]
    const edited = fc.oneof(
      fc.tuple(fc.nat({ max: token.length - 1 }), alphabet).map(([at, char]) => token.slice(0, at) + char + token.slice(at + 1)),
      fc.tuple(fc.constantFrom(...segmentEnds), fc.constantFrom(..."AQgw-_xyz019BCDEFhijk".split(""))).map(([at, char]) => token.slice(0, at) + char + token.slice(at + 1)),
      fc.tuple(fc.nat({ max: token.length }), alphabet).map(([at, char]) => token.slice(0, at) + char + token.slice(at)),
      fc.nat({ max: token.length - 1 }).map((at) => token.slice(0, at) + token.slice(at + 1)),
      fc.array(fc.string({ unit: alphabet, maxLength: 30 }), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(".")),
      fc.tuple(fc.string({ unit: alphabet, maxLength: 24 }), fc.string({ unit: alphabet, maxLength: 40 }), fc.string({ unit: alphabet, maxLength: 24 })).map(
        ([iv, ciphertext, tag]) => `${gcmHeader}..${iv}.${ciphertext}.${tag}`
      )
    )
    let accepted = 0
    fc.assert(
      fc.property(edited, (text) => {
        const fast = outcome(parseCompactJwe, text)
        expect(fast).toEqual(outcome(parseParts, text))
        if ("parts" in (fast as object)) accepted++
      }),
      { numRuns: 4000 }
    )
    // Edits that keep the token well-formed (one character for another in a segment) are accepted.
    expect(accepted).toBeGreaterThan(0)
  })

  it("accepts the real token with its parts", () => {
    const [aad, , iv, ciphertext, tag] = token.split(".")
    expect(parseCompactJwe(token)).toMatchObject({ enc: "A256CBC-HS512", aad, iv, ciphertext, tag })
  })
})
