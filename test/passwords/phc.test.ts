// The PHC strings: what latchkey writes parses back to the same bytes and parameters, and every
// damaged or non-canonical spelling is refused with InvalidPasswordHashError("malformed") before
// anything is derived: a damaged hash must never read as "wrong password" or, worse, as valid.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { InvalidPasswordHashError } from "../../src/errors.js"
import { decodeB64, encodeB64 } from "../../src/passwords/base64.js"
import { formatHash, parseHash, type ParsedHash } from "../../src/passwords/phc.js"
import { CHEAP, counting, hasherOn, nodeKdf, rejection } from "./support.js"

const SALT = "c2FsdHNhbHRzYWx0c2FsdA" // "saltsaltsaltsalt", 16 bytes
const HASH = "OxjCnPAcHgeNvnGcUNi5oMU47gzY5wgdcxMT9ZaB6hI" // 32 bytes
const GOOD_SCRYPT = `$scrypt$ln=16,r=8,p=2$${SALT}$${HASH}`
const GOOD_PBKDF2 = `$pbkdf2-sha256$i=600000$${SALT}$${HASH}`

describe("base64 without padding", () => {
  it("round-trips any bytes, and matches the standard alphabet minus padding", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const text = encodeB64(bytes)
        expect(text).toBe(Buffer.from(bytes).toString("base64").replace(/=+$/, ""))
        expect(decodeB64(text)).toEqual(bytes)
      })
    )
  })

  it("refuses padding, the URL-safe alphabet, impossible lengths and non-zero tail bits", () => {
    for (const text of ["c2E=", "c2-_", "c", "c2F", "c2FsdA==", "c2Fsd B", "c2FsdB"]) expect(decodeB64(text), text).toBeUndefined()
  })
})

describe("PHC strings", () => {
  it("parses the canonical scrypt and pbkdf2-sha256 strings", () => {
    expect(parseHash(GOOD_SCRYPT)).toMatchObject({ algorithm: "scrypt", params: { ln: 16, r: 8, p: 2 } })
    expect(parseHash(GOOD_PBKDF2)).toMatchObject({ algorithm: "pbkdf2-sha256", params: { iterations: 600000 } })
  })

  it("format then parse gives back the same hash, for any parameters and bytes", () => {
    const bytes = (min: number) => fc.uint8Array({ minLength: min, maxLength: 64 })
    const scrypt = fc.record({ algorithm: fc.constant("scrypt" as const), params: fc.record({ ln: fc.integer({ min: 1, max: 20 }), r: fc.integer({ min: 1, max: 32 }), p: fc.integer({ min: 1, max: 16 }) }), salt: bytes(8), hash: bytes(16) })
    const pbkdf2 = fc.record({ algorithm: fc.constant("pbkdf2-sha256" as const), params: fc.record({ iterations: fc.integer({ min: 1, max: 10_000_000 }) }), salt: bytes(8), hash: bytes(16) })
    fc.assert(
      fc.property(fc.oneof(scrypt, pbkdf2), (parsed: ParsedHash) => {
        const text = formatHash(parsed)
        expect(parseHash(text)).toEqual(parsed)
      })
    )
  })

  const MALFORMED: Record<string, string> = {
    empty: "",
    "no leading $": GOOD_SCRYPT.slice(1),
    "a version field": `$scrypt$v=1$ln=16,r=8,p=2$${SALT}$${HASH}`,
    "a missing hash": `$scrypt$ln=16,r=8,p=2$${SALT}`,
    "a trailing $": `${GOOD_SCRYPT}$`,
    "a missing parameter": `$scrypt$ln=16,r=8$${SALT}$${HASH}`,
    "parameters out of order": `$scrypt$r=8,ln=16,p=2$${SALT}$${HASH}`,
    "a repeated parameter": `$scrypt$ln=16,r=8,p=2,p=2$${SALT}$${HASH}`,
    "an unknown parameter": `$scrypt$ln=16,r=8,p=2,x=1$${SALT}$${HASH}`,
    "N instead of ln": `$scrypt$N=65536,r=8,p=2$${SALT}$${HASH}`,
    "a leading zero": `$scrypt$ln=016,r=8,p=2$${SALT}$${HASH}`,
    "a sign": `$scrypt$ln=+16,r=8,p=2$${SALT}$${HASH}`,
    "a fraction": `$pbkdf2-sha256$i=600000.5$${SALT}$${HASH}`,
    "an exponent": `$pbkdf2-sha256$i=6e5$${SALT}$${HASH}`,
    "an empty value": `$pbkdf2-sha256$i=$${SALT}$${HASH}`,
    "eleven digits": `$pbkdf2-sha256$i=10000000000$${SALT}$${HASH}`,
    "padding": `$scrypt$ln=16,r=8,p=2$${SALT}==$${HASH}=`,
    "base64url": `$scrypt$ln=16,r=8,p=2$${SALT}$${HASH.replace("/", "_")}`.replace("OxjCnPAcHgeNvnGcUNi5oMU47gzY5wgdcxMT9ZaB6hI", "OxjCnPAcHgeNvnGcUNi5oMU47gzY5wgdcxMT9ZaB6h-"),
    "non-zero tail bits": `$scrypt$ln=16,r=8,p=2$${SALT}$${HASH.slice(0, -1)}J`,
    "a 4-byte salt": `$scrypt$ln=16,r=8,p=2$c2FsdA$${HASH}`,
    "an 8-byte hash": `$scrypt$ln=16,r=8,p=2$${SALT}$c2FsdHNhbHQ`,
    "a 65-byte hash": `$scrypt$ln=16,r=8,p=2$${SALT}$${encodeB64(new Uint8Array(65))}`,
    "pbkdf2 with scrypt parameters": `$pbkdf2-sha256$ln=16,r=8,p=2$${SALT}$${HASH}`,
    "upper-case id": `$SCRYPT$ln=16,r=8,p=2$${SALT}$${HASH}`,
    "white space": `$scrypt$ln=16, r=8,p=2$${SALT}$${HASH}`,
    "a trailing newline": `${GOOD_SCRYPT}\n`,
  }

  for (const [what, text] of Object.entries(MALFORMED)) {
    it(`refuses ${what} as malformed`, () => {
      expect(() => parseHash(text)).toThrow(InvalidPasswordHashError)
      try {
        parseHash(text)
      } catch (error) {
        expect((error as InvalidPasswordHashError).reason).toBe("malformed")
        expect((error as Error).message).not.toContain(SALT)
      }
    })
  }

  it("verify refuses every malformed latchkey string with a typed error and derives nothing", async () => {
    const kdf = counting(nodeKdf)
    const hasher = hasherOn(kdf, CHEAP)
    for (const [what, text] of Object.entries(MALFORMED)) {
      if (!text.startsWith("$scrypt$") && !text.startsWith("$pbkdf2-sha256$")) continue
      const error = await rejection(hasher.verify("a long enough passphrase", text))
      expect(error, what).toBeInstanceOf(InvalidPasswordHashError)
      expect(error.code).toBe("ERR_INVALID_PASSWORD_HASH")
    }
    expect(kdf.calls).toEqual({ scrypt: 0, pbkdf2: 0 })
  })
})
