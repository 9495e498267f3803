// The hand-written JWE path (the one exception to "use the library") must agree with jose byte for
// byte: same key, IV and plaintext give the same token; every token of ours opens with
// jose.jwtDecrypt; every token jose makes with these parameters opens with ours.
import fc from "fast-check"
import { CompactEncrypt, compactDecrypt, EncryptJWT, jwtDecrypt } from "jose"
import { describe, expect, it } from "vitest"
import { deriveBytes } from "../../src/jwt/keys.js"
import { AMBIGUOUS, parseStrictJson } from "../../src/jwt/strict-json.js"
import { backend, codec, PLAIN, SECRET } from "./support.js"

const claimsArbitrary = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !["iat", "exp", "jti", "nbf", "__proto__"].includes(key)),
  fc.jsonValue({ maxDepth: 3 }),
  { maxKeys: 8 }
  // latchkey refuses __proto__ keys anywhere (test/jwt/strict-json.test.ts); fast-check favours them.
).filter((claims) => parseStrictJson(JSON.stringify(claims)) !== AMBIGUOUS)

// JSON.parse is no oracle for these claims: V8 (Node 24 and later, nodejs/node#63785) misreads an
// escaped key once a like object has had a key matching its raw text, and fast-check's keys hold
// quotes and backslashes. So claims are compared as text: jose's plaintext, which JSON.stringify
// wrote, against what JSON.stringify writes again.
const plaintextOf = async (token: string, raw: Uint8Array) => new TextDecoder().decode((await compactDecrypt(token, raw)).plaintext)

const keyBytes = (enc: "A256CBC-HS512" | "A256GCM", salt = PLAIN) => deriveBytes("authjs", enc, SECRET, salt)

describe(`differential against jose (${backend.name})`, () => {
  it.each(["A256CBC-HS512", "A256GCM"] as const)("seals byte for byte like jose CompactEncrypt (%s)", async (enc) => {
    const raw = await keyBytes(enc)
    const derived = await codec.keys.get("authjs", enc, SECRET, PLAIN)
    const ivLength = enc === "A256GCM" ? 12 : 16
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), fc.uint8Array({ minLength: ivLength, maxLength: ivLength }), async (plaintext, iv) => {
        const ours = await codec.seal(derived, plaintext, new Uint8Array(iv))
        const theirs = await new CompactEncrypt(new TextEncoder().encode(plaintext))
          .setProtectedHeader({ alg: "dir", enc, kid: derived.kid })
          .setInitializationVector(new Uint8Array(iv))
          .encrypt(raw)
        expect(ours).toBe(theirs)
      }),
      { numRuns: 150 }
    )
  })

  it("every token encode makes opens with jose.jwtDecrypt, claims intact", async () => {
    const raw = await keyBytes("A256CBC-HS512")
    await fc.assert(
      fc.asyncProperty(claimsArbitrary, async (claims) => {
        const token = await codec.encode({ token: claims, secret: SECRET, salt: PLAIN })
        const { payload, protectedHeader } = await jwtDecrypt(token, raw, { clockTolerance: 15 })
        expect(protectedHeader.alg).toBe("dir")
        expect(protectedHeader.enc).toBe("A256CBC-HS512")
        expect(await plaintextOf(token, raw)).toBe(JSON.stringify({ ...claims, iat: payload.iat, exp: payload.exp, jti: payload.jti }))
        expect(payload.exp! - payload.iat!).toBe(30 * 24 * 60 * 60)
        expect(payload.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      }),
      { numRuns: 150 }
    )
  })

  it.each(["A256CBC-HS512", "A256GCM"] as const)("every token jose makes (%s) opens with decode", async (enc) => {
    const raw = await keyBytes(enc)
    const { kid } = await codec.keys.get("authjs", enc, SECRET, PLAIN)
    await fc.assert(
      fc.asyncProperty(claimsArbitrary, fc.boolean(), async (claims, withKid) => {
        const token = await new EncryptJWT(claims)
          .setProtectedHeader(withKid ? { alg: "dir", enc, kid } : { alg: "dir", enc })
          .setIssuedAt()
          .setExpirationTime("1h")
          .encrypt(raw)
        const decoded = await codec.decode({ token, secret: SECRET, salt: PLAIN })
        expect(JSON.stringify(decoded)).toBe(await plaintextOf(token, raw))
      }),
      { numRuns: 150 }
    )
  })
})
