// SHA-256 of text on the runtime's crypto backend (jwt/digest.ts), which the CSRF check, the email
// link tokens, the session's browser binding and the rate limiter's keys all hash with: it must be
// byte for byte what `crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))` gives, on
// both backends, for any string: non-ASCII letters, astral characters, and lone surrogates (which
// TextEncoder writes as U+FFFD). node:crypto answers without a promise, which is why it is used.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { sha256, sha256Hex } from "../../src/jwt/digest.js"
import { backend } from "./support.js"

async function reference(text: string): Promise<{ hex: string; base64url: string }> {
  const bytes = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))
  return { hex: bytes.toString("hex"), base64url: bytes.toString("base64url") }
}

const SAMPLES = ["", "a", "ada@example.com", "Ädä@exämple.com", "ｆｕｌｌｗｉｄｔｈ", "emoji 🙂 and 𝔸", "lone \ud800 high", "lone \udc00 low", "\udc00\ud800", "nul \u0000 and \u00ff", "x".repeat(10_000)]

describe(`sha256 on the ${backend.name} backend`, () => {
  it("hashes the UTF-8 bytes, as crypto.subtle does, in both encodings", async () => {
    for (const text of SAMPLES) {
      const expected = await reference(text)
      expect(await backend.sha256(text, "hex")).toBe(expected.hex)
      expect(await backend.sha256(text, "base64url")).toBe(expected.base64url)
      expect(await sha256Hex(text)).toBe(expected.hex)
      expect(await sha256(text)).toBe(expected.base64url)
    }
  })

  it("agrees with crypto.subtle on any string", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 200 }), async (text) => {
        const expected = await reference(text)
        expect(await backend.sha256(text, "hex")).toBe(expected.hex)
        expect(await backend.sha256(text, "base64url")).toBe(expected.base64url)
      }),
      { numRuns: 100 },
    )
  }, 60_000)

  it.runIf(backend.name === "node")("answers the digest itself on node:crypto: no promise, no thread-pool hop", () => {
    expect(typeof backend.sha256("ada@example.com", "hex")).toBe("string")
    expect(typeof sha256("ada@example.com")).toBe("string")
  })
})
