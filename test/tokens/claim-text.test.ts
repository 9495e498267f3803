// The provider tokens claim as a JWT session stores it: "<expires_at>:<provider>", ":<provider>"
// without an expiry, "!:<provider>" after a refused refresh. Whatever else sits under the reserved
// name (the object form a callback might return, a number, text that is not a whole expiry) is no
// claim, so a read neither refreshes nor opens a token cookie for it.
import { describe, expect, it } from "vitest"
import { claimText, tokenClaimOf, withPublicTokens } from "../../src/provider-tokens/jwt-session.js"
import type { TokenClaim } from "../../src/provider-tokens/types.js"

const read = (value: unknown) => tokenClaimOf({ "latchkey.tokens": value } as never)

describe("the provider tokens claim's text", () => {
  it("reads back every claim it writes, provider ids with colons included", () => {
    const claims: TokenClaim[] = [
      { provider: "google", expires_at: 1764000000 },
      { provider: "corp" },
      { provider: "corp", error: "RefreshTokenError" },
      { provider: "urn:example:idp", expires_at: 0 },
    ]
    for (const claim of claims) expect(read(claimText(claim))).toEqual(claim)
    expect(claimText({ provider: "google", expires_at: 1764000000 })).toBe("1764000000:google")
  })

  it("refuses what it does not write", () => {
    for (const value of [{ provider: "corp", expires_at: 1 }, 1764000000, "corp", "1764000000:", ":", "1e9:corp", "-5:corp", "0x10:corp", " 5:corp", "5.5:corp", "9999999999999999:corp", "?:corp"]) {
      expect(read(value), JSON.stringify(value)).toBeUndefined()
    }
  })

  it("shows callbacks the object, drops text that does not read, and leaves what a jwt callback returned", () => {
    expect(withPublicTokens({ sub: "1", "latchkey.tokens": "!:corp" })).toEqual({ sub: "1", "latchkey.tokens": { provider: "corp", error: "RefreshTokenError" } })
    expect(withPublicTokens({ sub: "1", "latchkey.tokens": "corp" })).toEqual({ sub: "1" })
    const shaped = { sub: "1", "latchkey.tokens": { provider: "corp" } }
    expect(withPublicTokens(shaped)).toBe(shaped)
    const plain = { sub: "1" }
    expect(withPublicTokens(plain)).toBe(plain)
  })
})
