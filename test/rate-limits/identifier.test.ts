// The identifier key's hash is what a shared store (Redis) holds a lockout under, so it must not
// change between releases: an upgrade that rehashed would hand every locked-out attacker a fresh
// count. Pinned here to the formula it has always had, computed with crypto.subtle: SHA-256 of
// "latchkey rate limits <secret> <value>", both percent-encoded, first 22 base64url characters.
import { describe, expect, it } from "vitest"
import { keyedHash, normalizeIdentifier } from "../../src/rate-limits/identifier.js"

const SECRET = "latchkey-test-secret-with spaces/and+signs-0123456789"

async function pinned(secret: string, value: string): Promise<string> {
  const text = `latchkey rate limits ${encodeURIComponent(secret)} ${encodeURIComponent(value)}`
  return Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).toString("base64url").slice(0, 22)
}

describe("the identifier key's keyed hash", () => {
  it("is the formula counts were always stored under", async () => {
    const hash = keyedHash(SECRET)
    for (const value of ["ada@example.com", normalizeIdentifier("Ｌｏｖｅｌａｃｅ")!, "ädä@exämple.com", "credentials:c:198.51.100.7"]) {
      expect(await hash(value)).toBe(await pinned(SECRET, value))
    }
  })

  it("depends on the secret", async () => {
    expect(await keyedHash(SECRET)("ada@example.com")).not.toBe(await keyedHash(`${SECRET}x`)("ada@example.com"))
  })
})
