import { CompactEncrypt, EncryptJWT } from "jose"
import { afterEach, describe, expect, it, vi } from "vitest"
import { InvalidOptionError, InvalidTokenError, MissingSecretError, NoMatchingSecretError, TokenExpiredError } from "../../src/errors.js"
import type { JWTDecodeParams } from "../../src/jwt/codec.js"
import { MAX_TOKEN_LENGTH } from "../../src/jwt/compact.js"
import { deriveBytes } from "../../src/jwt/keys.js"
import { backend, codec, OTHER_SECRET, PLAIN, SECRET, SECURE, tamperAt } from "./support.js"

const encoder = new TextEncoder()
const hour = 60 * 60

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection")
    },
    (error: unknown) => error
  )
}

/** A token with an arbitrary protected header, properly sealed with the real key. */
async function sealedWithHeader(header: Record<string, unknown>, claims: object = { sub: "1", exp: Math.floor(Date.now() / 1000) + hour }) {
  const enc = header.enc === "A256GCM" ? "A256GCM" : "A256CBC-HS512"
  const raw = await deriveBytes("authjs", enc, SECRET, PLAIN)
  const { kid } = await codec.keys.get("authjs", enc, SECRET, PLAIN)
  return new CompactEncrypt(encoder.encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: "dir", enc, kid, ...header } as never)
    .encrypt(raw)
}

afterEach(() => {
  vi.useRealTimers()
})

describe(`decode (${backend.name})`, () => {
  it("returns null for a missing or empty token", async () => {
    for (const token of [undefined, null, ""]) expect(await codec.decode({ token, secret: SECRET, salt: PLAIN })).toBeNull()
  })

  it("round-trips claims and sets iat, exp and jti", async () => {
    const token = await codec.encode({ token: { sub: "42", name: "Ada" }, secret: SECRET, salt: PLAIN, maxAge: hour })
    const claims = await codec.decode({ token, secret: SECRET, salt: PLAIN })
    expect(claims).toMatchObject({ sub: "42", name: "Ada" })
    expect(claims!.exp! - claims!.iat!).toBe(hour)
    expect(typeof claims!.jti).toBe("string")
  })

  // V8's JSON.parse (Node 24 and later, nodejs/node#63785) reads the key `q"` as `q\` once a token
  // with the key `q\` has been read; decode must round-trip both whatever it read before.
  it("round-trips claims keyed with quotes and backslashes, one token after another", async () => {
    for (const key of ["q\\", 'q"', "q\\", 'q"', "\\", '"']) {
      const token = await codec.encode({ token: { sub: "1", [key]: key }, secret: SECRET, salt: PLAIN, maxAge: hour })
      const claims = await codec.decode({ token, secret: SECRET, salt: PLAIN })
      expect(Object.keys(claims!)).toContain(key)
      expect(claims![key]).toBe(key)
    }
  })

  it("overrides iat, exp and jti that the caller passed", async () => {
    const token = await codec.encode({ token: { sub: "1", iat: 1, exp: 2, jti: "fixed" }, secret: SECRET, salt: PLAIN })
    const claims = await codec.decode({ token, secret: SECRET, salt: PLAIN })
    expect(claims!.iat).toBeGreaterThan(1)
    expect(claims!.jti).not.toBe("fixed")
  })

  describe("rotation", () => {
    it("encrypts with the first secret and decodes with any listed one", async () => {
      const token = await codec.encode({ token: { sub: "1" }, secret: [SECRET, OTHER_SECRET], salt: PLAIN })
      expect(await codec.decode({ token, secret: SECRET, salt: PLAIN })).toMatchObject({ sub: "1" })
      await expect(codec.decode({ token, secret: OTHER_SECRET, salt: PLAIN })).rejects.toBeInstanceOf(NoMatchingSecretError)
      expect(await codec.decode({ token, secret: [OTHER_SECRET, SECRET], salt: PLAIN })).toMatchObject({ sub: "1" })
    })

    it("tries a kid-less token against every secret, not only the first", async () => {
      const raw = await deriveBytes("authjs", "A256CBC-HS512", SECRET, PLAIN)
      const token = await new EncryptJWT({ sub: "kidless" })
        .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
        .setExpirationTime("1h")
        .encrypt(raw)
      expect(await codec.decode({ token, secret: [OTHER_SECRET, SECRET], salt: PLAIN })).toMatchObject({ sub: "kidless" })
      await expect(codec.decode({ token, secret: [OTHER_SECRET], salt: PLAIN })).rejects.toBeInstanceOf(NoMatchingSecretError)
    })
  })

  describe("expiry at the tolerance edges", () => {
    it("accepts up to 15 s past exp and rejects from there on", async () => {
      vi.useFakeTimers({ toFake: ["Date"] })
      vi.setSystemTime(new Date("2026-01-01T00:00:00Z"))
      const token = await codec.encode({ token: { sub: "1" }, secret: SECRET, salt: PLAIN, maxAge: 60 })
      const exp = Date.UTC(2026, 0, 1, 0, 1, 0)
      vi.setSystemTime(exp + 14_999)
      expect(await codec.decode({ token, secret: SECRET, salt: PLAIN })).toMatchObject({ sub: "1" })
      vi.setSystemTime(exp + 15_000)
      const error = await rejection(codec.decode({ token, secret: SECRET, salt: PLAIN }))
      expect(error).toBeInstanceOf(TokenExpiredError)
      expect((error as TokenExpiredError).code).toBe("ERR_TOKEN_EXPIRED")
      expect((error as TokenExpiredError).expiredAt).toBe(exp / 1000)
    })

    it("rejects nbf more than 15 s ahead, accepts it within", async () => {
      const now = Math.floor(Date.now() / 1000)
      const within = await sealedWithHeader({}, { exp: now + hour, nbf: now + 14 })
      expect(await codec.decode({ token: within, secret: SECRET, salt: PLAIN })).toMatchObject({ nbf: now + 14 })
      const ahead = await sealedWithHeader({}, { exp: now + hour, nbf: now + 60 })
      await expect(codec.decode({ token: ahead, secret: SECRET, salt: PLAIN })).rejects.toMatchObject({ reason: "not_yet_valid" })
    })

    it("requires a numeric exp and numeric iat", async () => {
      for (const claims of [{ sub: "1" }, { exp: "soon" }, { exp: Math.floor(Date.now() / 1000) + hour, iat: "now" }]) {
        const token = await sealedWithHeader({}, claims)
        await expect(codec.decode({ token, secret: SECRET, salt: PLAIN })).rejects.toMatchObject({ reason: "invalid_claims" })
      }
    })

    it("rejects a claims set that is not an object", async () => {
      for (const claims of [[1, 2], "text", 7, null]) {
        const token = await sealedWithHeader({}, claims as never)
        await expect(codec.decode({ token, secret: SECRET, salt: PLAIN })).rejects.toMatchObject({ reason: "invalid_claims" })
      }
    })
  })

  it("rejects every single-character tamper of a token", async () => {
    const token = await codec.encode({ token: { sub: "1", name: "tamper target" }, secret: SECRET, salt: PLAIN })
    let rejected = 0
    for (let index = 0; index < token.length; index++) {
      if (token[index] === ".") continue
      const error = await rejection(codec.decode({ token: tamperAt(token, index), secret: SECRET, salt: PLAIN }))
      expect(error).toBeInstanceOf(Error)
      expect((error as { code?: string }).code).toMatch(/^ERR_(INVALID_TOKEN|NO_MATCHING_SECRET)$/)
      rejected++
    }
    expect(rejected).toBe(token.length - 4)
  })

  it("rejects a wrong salt with NoMatchingSecretError that names the salt as a cause", async () => {
    const token = await codec.encode({ token: { sub: "1" }, secret: SECRET, salt: SECURE })
    const error = await rejection(codec.decode({ token, secret: SECRET, salt: PLAIN }))
    expect(error).toBeInstanceOf(NoMatchingSecretError)
    expect((error as Error).message).toMatch(/salt/)
    expect((error as Error).message).toMatch(/cookie name/)
  })

  describe("algorithm confusion", () => {
    it.each([
      [{ alg: "none" }, "unsupported_alg"],
      [{ alg: "A256KW" }, "unsupported_alg"],
      [{ alg: "RSA-OAEP" }, "unsupported_alg"],
      [{ enc: "A128GCM" }, "unsupported_enc"],
      [{ enc: "A128CBC-HS256" }, "unsupported_enc"],
      [{ zip: "DEF" }, "unsupported_zip"],
      [{ crit: ["exp"], exp: 1 }, "unsupported_crit"],
      [{ kid: 12 }, "malformed"],
    ])("rejects header %j as %s", async (header, reason) => {
      const now = Math.floor(Date.now() / 1000)
      const payload = JSON.stringify({ sub: "1", exp: now + hour })
      // Build the token by hand so jose's own producer checks cannot stop the bad header.
      const headerPart = Buffer.from(JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", ...header })).toString("base64url")
      const derived = await codec.keys.get("authjs", "A256CBC-HS512", SECRET, PLAIN)
      const sealed = await codec.backend.seal(derived.prepared, headerPart, payload)
      const token = `${headerPart}..${sealed.iv}.${sealed.ciphertext}.${sealed.tag}`
      const error = await rejection(codec.decode({ token, secret: SECRET, salt: PLAIN }))
      expect(error).toBeInstanceOf(InvalidTokenError)
      expect((error as InvalidTokenError).reason).toBe(reason)
    })

    it("rejects a non-empty encrypted key part", async () => {
      const token = await codec.encode({ token: { sub: "1" }, secret: SECRET, salt: PLAIN })
      const parts = token.split(".")
      parts[1] = "AAAA"
      await expect(codec.decode({ token: parts.join("."), secret: SECRET, salt: PLAIN })).rejects.toMatchObject({ reason: "malformed" })
    })

    it("rejects wrong IV and tag lengths before decrypting", async () => {
      const token = await codec.encode({ token: { sub: "1" }, secret: SECRET, salt: PLAIN })
      const parts = token.split(".")
      for (const [index, value] of [
        [2, "AAAAAAAAAAAAAAAA"],
        [4, "AAAAAAAAAAAAAAAAAAAAAA"],
        [3, "AAAA"],
      ] as const) {
        const changed = [...parts]
        changed[index] = value
        await expect(codec.decode({ token: changed.join("."), secret: SECRET, salt: PLAIN })).rejects.toMatchObject({ reason: "malformed" })
      }
    })
  })

  it("refuses a token over the size bound before any crypto", async () => {
    const spy = vi.spyOn(codec.backend, "open")
    const token = `${"A".repeat(MAX_TOKEN_LENGTH)}..AAAA.AAAA.AAAA`
    await expect(codec.decode({ token, secret: SECRET, salt: PLAIN })).rejects.toMatchObject({ reason: "too_large" })
    expect(spy).not.toHaveBeenCalled()
    spy.mockRestore()
  })

  it.each([
    ["not a JWE", "hello"],
    ["three parts", "a.b.c"],
    ["a non-JSON header", "bm90IGpzb24..AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
  ])("rejects %s as malformed", async (_, token) => {
    const error = await rejection(codec.decode({ token, secret: SECRET, salt: PLAIN }))
    expect(error).toMatchObject({ code: "ERR_INVALID_TOKEN", reason: "malformed" })
  })

  describe("arguments", () => {
    it("requires a secret", async () => {
      await expect(codec.encode({ token: {}, secret: "", salt: PLAIN })).rejects.toBeInstanceOf(MissingSecretError)
      await expect(codec.decode({ token: "x", secret: [], salt: PLAIN })).rejects.toBeInstanceOf(MissingSecretError)
      await expect(codec.encode({ token: {}, secret: [""] as never, salt: PLAIN })).rejects.toMatchObject({ option: "secret" })
    })

    it("requires a string salt", async () => {
      await expect(codec.encode({ token: {}, secret: SECRET, salt: undefined as never })).rejects.toMatchObject({ option: "salt" })
    })

    it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("rejects maxAge %s", async (maxAge) => {
      await expect(codec.encode({ token: {}, secret: SECRET, salt: PLAIN, maxAge })).rejects.toMatchObject({ option: "maxAge" })
    })

    it("rejects claims that are not a plain JSON object", async () => {
      const cyclic: Record<string, unknown> = {}
      cyclic.self = cyclic
      for (const token of [[1], new Date(), cyclic, { big: 1n }]) {
        const error = await rejection(codec.encode({ token: token as never, secret: SECRET, salt: PLAIN }))
        expect(error).toBeInstanceOf(InvalidOptionError)
        expect((error as InvalidOptionError).option).toBe("token")
      }
    })
  })

  it("keeps the key cache bounded", async () => {
    codec.keys.clear()
    for (let i = 0; i < 200; i++) await codec.encode({ token: {}, secret: `${SECRET}-${i}`, salt: PLAIN })
    expect(codec.keys.size).toBeLessThanOrEqual(64)
  })

  // decodeNow is decodeWith without a promise where none is needed (getToken's path): it finishes
  // at once with a cached key on node:crypto, and on a promise after a key's first derivation, on
  // WebCrypto, and when a kid-less token goes on to the next secret. Every outcome must be the
  // same on both paths: each case runs with a cold key cache and again with a warm one.
  describe("decodeNow", () => {
    async function outcome(run: () => unknown): Promise<unknown> {
      try {
        const claims = (await run()) as { sub?: string } | null
        return claims === null ? null : { sub: claims.sub }
      } catch (error) {
        return { error: (error as Error).name, reason: (error as { reason?: string }).reason }
      }
    }

    it("answers every kind of token the same, cold or cached, at once or on a promise", async () => {
      const kidless = await new EncryptJWT({ sub: "kidless" })
        .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
        .setExpirationTime("1h")
        .encrypt(await deriveBytes("authjs", "A256CBC-HS512", SECRET, PLAIN))
      const token = await codec.encode({ token: { sub: "1" }, secret: SECRET, salt: PLAIN })
      const expired = await codec.seal(await codec.keys.get("authjs", "A256CBC-HS512", SECRET, PLAIN), '{"sub":"1","exp":1}')
      const noSecret = { error: "NoMatchingSecretError", reason: undefined }
      const cases: [JWTDecodeParams, unknown][] = [
        [{ token, secret: SECRET, salt: PLAIN }, { sub: "1" }],
        [{ token, secret: [OTHER_SECRET, SECRET], salt: PLAIN }, { sub: "1" }],
        [{ token, secret: OTHER_SECRET, salt: PLAIN }, noSecret],
        [{ token, secret: SECRET, salt: SECURE }, noSecret],
        // A kid names one key: when it fails, no other secret is tried.
        [{ token: tamperAt(token, token.length - 5), secret: [SECRET, OTHER_SECRET], salt: PLAIN }, { error: "InvalidTokenError", reason: "decryption_failed" }],
        [{ token: expired, secret: SECRET, salt: PLAIN }, { error: "TokenExpiredError", reason: undefined }],
        [{ token: kidless, secret: [OTHER_SECRET, SECRET], salt: PLAIN }, { sub: "kidless" }],
        [{ token: kidless, secret: [OTHER_SECRET, `${OTHER_SECRET}-2`], salt: PLAIN }, noSecret],
        [{ token: tamperAt(kidless, kidless.length - 5), secret: [SECRET, OTHER_SECRET], salt: PLAIN }, noSecret],
        [{ token: "not.a.token", secret: SECRET, salt: PLAIN }, { error: "InvalidTokenError", reason: "malformed" }],
        [{ token: "", secret: SECRET, salt: PLAIN }, null],
        [{ token, secret: [], salt: PLAIN }, { error: "MissingSecretError", reason: undefined }],
      ]
      for (const cold of [true, false]) {
        for (const [params, expected] of cases) {
          if (cold) codec.keys.clear()
          expect(await outcome(() => codec.decodeNow("authjs", params))).toEqual(expected)
          if (cold) codec.keys.clear()
          expect(await outcome(() => codec.decodeWith("authjs", params))).toEqual(expected)
        }
      }
    })

    it("answers without a promise on node:crypto once the key is cached", async () => {
      const token = await codec.encode({ token: { sub: "1" }, secret: SECRET, salt: PLAIN })
      await codec.decode({ token, secret: SECRET, salt: PLAIN })
      const answer = codec.decodeNow("authjs", { token, secret: SECRET, salt: PLAIN })
      if (backend.name === "node") expect(answer).toMatchObject({ sub: "1" })
      else expect(answer).toBeInstanceOf(Promise)
    })
  })
})
