import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { decodeBase64url, encodeBase64url, isCanonicalBase64url } from "../../src/lib/base64url.js"

describe("base64url", () => {
  it("round-trips any bytes and matches Node's encoder", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const encoded = encodeBase64url(bytes)
        expect(encoded).toBe(Buffer.from(bytes).toString("base64url"))
        expect(isCanonicalBase64url(encoded)).toBe(true)
        expect(decodeBase64url(encoded)).toEqual(bytes)
      })
    )
  })

  it.each([
    ["padding", "QQ=="],
    ["standard alphabet +", "a+b"],
    ["standard alphabet /", "a/bc"],
    ["white space", "QUJD RA"],
    ["a newline", "QUJD\nRA"],
    ["an impossible length", "QUJDR"],
    ["non-zero tail bits (2 chars)", "QR"],
    ["non-zero tail bits (3 chars)", "QUF"],
  ])("rejects %s", (_, text) => {
    expect(isCanonicalBase64url(text)).toBe(false)
  })

  it("accepts the canonical forms of the same lengths", () => {
    for (const text of ["", "QQ", "QUE", "QUJD"]) expect(isCanonicalBase64url(text)).toBe(true)
  })
})
