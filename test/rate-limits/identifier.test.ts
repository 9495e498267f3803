// The identifier key's hash is what a shared store (Redis) holds a lockout under, so it must not
// change between releases: an upgrade that rehashed would hand every locked-out attacker a fresh
// count. Pinned here to its formula, computed with crypto.subtle: a key K, the first 22 base64url
// characters of SHA-256("latchkey rate limits " + secret); then SHA-256(K + " " + value), first 22
// base64url characters. (Before 0.1.0 the secret and the value were percent-encoded into one
// two-block input; issue 27 made it one block for an address of up to 32 bytes.)
import { describe, expect, it } from "vitest"
import { normalizeEmailAddress } from "../../src/lib/email-address.js"
import { keyedHash, normalizeIdentifier } from "../../src/rate-limits/identifier.js"

const SECRET = "latchkey-test-secret-with spaces/and+signs-0123456789"

const sha256 = async (text: string) => Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).toString("base64url")

async function pinned(secret: string, value: string): Promise<string> {
  const key = (await sha256(`latchkey rate limits ${secret}`)).slice(0, 22)
  return (await sha256(`${key} ${value}`)).slice(0, 22)
}

describe("the identifier key's keyed hash", () => {
  it("is the formula counts are stored under, on every crypto backend", async () => {
    const hash = keyedHash(SECRET)
    for (const value of ["ada@example.com", normalizeIdentifier("Ｌｏｖｅｌａｃｅ")!, "ädä@exämple.com", "credentials:c:198.51.100.7"]) {
      expect(await hash(value)).toBe(await pinned(SECRET, value))
    }
  })

  it("depends on the secret", async () => {
    expect(await keyedHash(SECRET)("ada@example.com")).not.toBe(await keyedHash(`${SECRET}x`)("ada@example.com"))
  })
})

describe("normalizeIdentifier", () => {
  // The general rule, as it read before ASCII took a shorter way: the email rules, else NFKC, trimmed, lower-cased.
  const general = (raw: string) => {
    const bounded = raw.slice(0, 320)
    const value = normalizeEmailAddress(bounded) ?? bounded.normalize("NFKC").trim().toLowerCase()
    return value === "" ? undefined : value
  }

  it("gives ASCII the form the general rule gives it, addresses and the rest alike", () => {
    let seed = 7
    const random = (below: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % below
    const alphabet = "aZ09@.+- _\t\n\r\x00\x7f\"(),:;<>[\\]~"
    const samples = ["Ada@Example.COM", "  ada@example.com\t", "ada", "", "   ", "a@b", "a@@b.com", `${"a".repeat(64)}@example.com`, `${"a".repeat(330)}@example.com`, `${"x".repeat(300)}@Example.com`]
    for (let index = 0; index < 5000; index++) {
      const length = random(index % 10 === 0 ? 400 : 40)
      samples.push(Array.from({ length }, () => alphabet[random(alphabet.length)]).join(""))
    }
    for (const sample of samples) expect(normalizeIdentifier(sample), JSON.stringify(sample)).toBe(general(sample))
  })

  it("folds what is not ASCII by the email rules, or by NFKC", () => {
    expect(normalizeIdentifier("Ａｄａ@Example.com")).toBe("ada@example.com")
    expect(normalizeIdentifier("Ｌｏｖｅｌａｃｅ")).toBe("lovelace")
    expect(normalizeIdentifier("ada\u200b@example.com")).toBe(general("ada\u200b@example.com"))
  })
})
