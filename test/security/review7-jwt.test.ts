// Review 7, latchkey/jwt: wire compatibility with the real @auth/core/jwt both ways, getToken's
// cookie and Bearer selection, rotation, algorithm confusion, claim timing, error hygiene and
// resource bounds. A failing test here is a confirmed finding.
import * as authJwt from "@auth/core/jwt"
import { EncryptJWT } from "jose"
import { hkdf } from "@panva/hkdf"
import { describe, expect, it } from "vitest"
import { InvalidOptionError, InvalidTokenError, LatchkeyError, NoMatchingSecretError, TokenExpiredError } from "../../src/errors.js"
import { decode, encode, getToken, MAX_TOKEN_LENGTH, setCookieHeaders } from "../../src/jwt/index.js"

const SECRET = "review7-secret-0123456789abcdefghijkl"
const OLD_SECRET = "review7-old-secret-zyxwvutsrqponmlkj"
const PLAIN = "authjs.session-token"
const SECURE = "__Secure-authjs.session-token"
const quiet = { error() {}, warn() {}, debug() {} }
const now = () => Math.floor(Date.now() / 1000)

/** The cookie pairs setCookieHeaders would leave in a browser, as a Cookie header. */
function cookieHeaderFor(name: string, token: string): string {
  return setCookieHeaders({ name, value: token })
    .map((line) => line.split(";")[0]!)
    .join("; ")
}

/** A dir JWE sealed with the Auth.js-derived key, with any header and any claims, as jose writes it. */
async function authjsKey(enc: "A256CBC-HS512" | "A256GCM", secret: string, salt: string) {
  return hkdf("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, enc === "A256GCM" ? 32 : 64)
}

/** Flips one base64url character in the middle of the ciphertext: the tag no longer matches. */
function tamperCiphertext(token: string): string {
  const parts = token.split(".")
  const ct = parts[3]!
  const at = Math.floor(ct.length / 2)
  parts[3] = ct.slice(0, at) + (ct[at] === "A" ? "B" : "A") + ct.slice(at + 1)
  return parts.join(".")
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error("expected a rejection")
}

const UNICODE_CLAIMS = {
  sub: "üser-ß-42",
  name: "Ada 🔑 Lovelace",
  rtl: "مرحبا",
  zeroWidth: "a\u200bb",
  control: "tab\tnewline\nnul\u0000",
  lone: "\ud800x\udc00",
  'quote"key': "v",
  "back\\slash": 1,
  "ключ": { nested: ["日本", { deep: true }] },
  "\ud83d\ude00": null,
}

describe("review 7: latchkey/jwt against the real @auth/core/jwt", () => {
  describe("wire interop, both ways", () => {
    it("interop: @auth/core encode of unicode, control-character, escaped-key and nested claims reads identically with latchkey decode", async () => {
      const theirs = await authJwt.encode({ token: UNICODE_CLAIMS, secret: SECRET, salt: PLAIN })
      const ours = await decode({ token: theirs, secret: SECRET, salt: PLAIN })
      const reference = await authJwt.decode({ token: theirs, secret: SECRET, salt: PLAIN })
      expect(ours).toEqual(reference)
      expect(ours).toMatchObject(JSON.parse(JSON.stringify(UNICODE_CLAIMS)))
    })

    it("interop: latchkey encode of the same claims reads identically with @auth/core decode, iat/exp/jti included", async () => {
      const ours = await encode({ token: UNICODE_CLAIMS, secret: SECRET, salt: SECURE, maxAge: 600 })
      const theirs = await authJwt.decode({ token: ours, secret: SECRET, salt: SECURE })
      expect(theirs).toEqual(await decode({ token: ours, secret: SECRET, salt: SECURE }))
      expect(theirs!.exp! - theirs!.iat!).toBe(600)
      expect(theirs!.jti).toMatch(/^[0-9a-f-]{36}$/)
    })

    it("interop: a unicode secret and a custom salt derive the same key on both sides (kid matches)", async () => {
      const secret = "sécret-🔑-\u00e9\u0301-rotation"
      const salt = "my-app.session"
      const theirs = await authJwt.encode({ token: { sub: "u" }, secret, salt })
      expect(await decode({ token: theirs, secret, salt })).toMatchObject({ sub: "u" })
      const ours = await encode({ token: { sub: "v" }, secret, salt })
      expect(await authJwt.decode({ token: ours, secret, salt })).toMatchObject({ sub: "v" })
      expect(ours.split(".")[0]).toBe(theirs.split(".")[0])
    })

    it("interop: a caller-supplied exp/iat/jti is overridden identically by both encoders, custom nbf kept", async () => {
      const claims = { sub: "1", exp: 1, iat: 2, jti: "mine", nbf: now() - 5 }
      for (const token of [
        await encode({ token: claims, secret: SECRET, salt: PLAIN, maxAge: 60 }),
        await authJwt.encode({ token: claims, secret: SECRET, salt: PLAIN, maxAge: 60 }),
      ]) {
        const a = (await decode({ token, secret: SECRET, salt: PLAIN }))!
        const b = (await authJwt.decode({ token, secret: SECRET, salt: PLAIN }))!
        expect(a).toEqual(b)
        expect(a.jti).not.toBe("mine")
        expect(a.exp! - a.iat!).toBe(60)
        expect(a.nbf).toBe(claims.nbf)
      }
    })

    it("interop: a 20 kB Auth.js token, chunked as .0/.1/... by latchkey's writer, comes back whole through getToken and Auth.js getToken", async () => {
      const big = "é".repeat(10_000)
      const theirs = await authJwt.encode({ token: { sub: "big", big }, secret: SECRET, salt: PLAIN })
      const cookie = cookieHeaderFor(PLAIN, theirs)
      expect(cookie).toContain(`${PLAIN}.4=`)
      expect(await getToken({ req: { headers: { cookie } }, secret: SECRET })).toMatchObject({ big })
      expect(await authJwt.getToken({ req: { headers: { cookie } }, secret: SECRET, logger: quiet })).toMatchObject({ big })
    })

    it("interop: an early-v5 A256GCM token (jose, kid-less and with a SHA-256 kid) opens with latchkey decode", async () => {
      const key = await authjsKey("A256GCM", SECRET, PLAIN)
      const kidless = await new EncryptJWT({ sub: "gcm" }).setProtectedHeader({ alg: "dir", enc: "A256GCM" }).setExpirationTime(now() + 60).encrypt(key)
      expect(await decode({ token: kidless, secret: [OLD_SECRET, SECRET], salt: PLAIN })).toMatchObject({ sub: "gcm" })
      const { calculateJwkThumbprint, base64url } = await import("jose")
      const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, "sha256")
      const withKid = await new EncryptJWT({ sub: "gcm2" }).setProtectedHeader({ alg: "dir", enc: "A256GCM", kid }).setExpirationTime(now() + 60).encrypt(key)
      expect(await decode({ token: withKid, secret: SECRET, salt: PLAIN })).toMatchObject({ sub: "gcm2" })
      expect(await authJwt.decode({ token: withKid, secret: SECRET, salt: PLAIN })).toMatchObject({ sub: "gcm2" })
    })

    it("a nested key named __proto__ (a JSON.parse'd profile copied into the token) is refused by encode, typed, or reads back: never sealed unreadable", async () => {
      // decode refuses __proto__ at any depth; encode once refused it only at the top level, so it
      // sealed tokens that every later read refused, signing the user out without a word.
      const token = JSON.parse('{"sub":"1","profile":{"__proto__":{"admin":true},"login":"ada"}}')
      let written: string | undefined
      let encodeError: unknown
      try {
        written = await encode({ token, secret: SECRET, salt: PLAIN })
      } catch (error) {
        encodeError = error
      }
      if (written === undefined) {
        // Refusing it up front, with a typed error, would be consistent too.
        expect(encodeError).toBeInstanceOf(InvalidOptionError)
        return
      }
      expect(await authJwt.decode({ token: written, secret: SECRET, salt: PLAIN })).toMatchObject({ sub: "1" })
      await expect(decode({ token: written, secret: SECRET, salt: PLAIN })).resolves.toMatchObject({ sub: "1", profile: { login: "ada" } })
    })
  })

  describe("secret rotation", () => {
    it("rotation: an Auth.js token sealed with the old secret still opens with [new, old]; a fresh latchkey token carries the new secret's kid and does not open with the old one alone", async () => {
      const old = await authJwt.encode({ token: { sub: "r" }, secret: OLD_SECRET, salt: PLAIN })
      expect(await decode({ token: old, secret: [SECRET, OLD_SECRET], salt: PLAIN })).toMatchObject({ sub: "r" })
      const fresh = await encode({ token: { sub: "r" }, secret: [SECRET, OLD_SECRET], salt: PLAIN })
      const newOnly = await authJwt.encode({ token: {}, secret: SECRET, salt: PLAIN })
      expect(fresh.split(".")[0]).toBe(newOnly.split(".")[0])
      expect(await rejection(decode({ token: fresh, secret: OLD_SECRET, salt: PLAIN }))).toBeInstanceOf(NoMatchingSecretError)
      expect(await authJwt.decode({ token: fresh, secret: [OLD_SECRET, SECRET], salt: PLAIN })).toMatchObject({ sub: "r" })
    })

    it("rotation: a token whose kid names the old secret but whose tag is broken is refused, not retried against the new secret", async () => {
      const old = await authJwt.encode({ token: { sub: "r" }, secret: OLD_SECRET, salt: PLAIN })
      const error = await rejection(decode({ token: tamperCiphertext(old), secret: [SECRET, OLD_SECRET], salt: PLAIN }))
      expect(error).toBeInstanceOf(InvalidTokenError)
    })
  })

  describe("algorithm confusion and malformed compact tokens", () => {
    const header = (h: object) => Buffer.from(JSON.stringify(h)).toString("base64url")

    it("alg confusion: an unsecured JWS (alg none, two dots) and an HS256 JWS signed with the derived key are refused with typed errors", async () => {
      const payload = Buffer.from(JSON.stringify({ sub: "admin", exp: now() + 600 })).toString("base64url")
      const none = `${header({ alg: "none" })}.${payload}.`
      const { SignJWT } = await import("jose")
      const key = await authjsKey("A256CBC-HS512", SECRET, PLAIN)
      const hs = await new SignJWT({ sub: "admin" }).setProtectedHeader({ alg: "HS512" }).setExpirationTime(now() + 600).sign(key)
      for (const token of [none, hs, `${header({ alg: "none" })}..${payload}..`]) {
        const error = await rejection(decode({ token, secret: SECRET, salt: PLAIN }))
        expect(error).toBeInstanceOf(InvalidTokenError)
        expect(await getToken({ req: { headers: { cookie: `${PLAIN}=${token}` } }, secret: SECRET })).toBeNull()
      }
    })

    it("alg confusion: a dir JWE with enc A128GCM / A192CBC-HS384 sealed by jose with the matching HKDF length is refused", async () => {
      for (const [enc, length] of [["A128GCM", 16], ["A192CBC-HS384", 48], ["A128CBC-HS256", 32]] as const) {
        const key = await hkdf("sha256", SECRET, PLAIN, `Auth.js Generated Encryption Key (${PLAIN})`, length)
        const token = await new EncryptJWT({ sub: "x" }).setProtectedHeader({ alg: "dir", enc }).setExpirationTime(now() + 60).encrypt(key)
        const error = await rejection(decode({ token, secret: SECRET, salt: PLAIN }))
        expect(error).toMatchObject({ reason: "unsupported_enc" })
      }
    })

    it("malformed: a real token with a sixth segment, a leading/trailing dot or whitespace is refused as malformed", async () => {
      const token = await authJwt.encode({ token: { sub: "1" }, secret: SECRET, salt: PLAIN })
      for (const bad of [`${token}.AAAA`, `${token}.`, `.${token}`, `${token} `, ` ${token}`, `${token}\n`]) {
        const error = await rejection(decode({ token: bad, secret: SECRET, salt: PLAIN }))
        expect(error).toBeInstanceOf(InvalidTokenError)
      }
    })

    it("malformed: a 60 kB protected header (valid base64url JSON) is refused with a typed error, and the header cache stays usable", async () => {
      const huge = header({ alg: "dir", enc: "A256CBC-HS512", pad: "x".repeat(44_000) })
      const token = `${huge}..AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.${"A".repeat(43)}`
      expect(token.length).toBeLessThan(MAX_TOKEN_LENGTH)
      for (let i = 0; i < 20; i++) expect(await rejection(decode({ token, secret: SECRET, salt: PLAIN }))).toMatchObject({ reason: "unexpected_header" })
      const good = await authJwt.encode({ token: { sub: "ok" }, secret: SECRET, salt: PLAIN })
      expect(await decode({ token: good, secret: SECRET, salt: PLAIN })).toMatchObject({ sub: "ok" })
    })
  })

  describe("claim timing", () => {
    async function sealed(claims: Record<string, unknown>) {
      const key = await authjsKey("A256CBC-HS512", SECRET, PLAIN)
      return new EncryptJWT(claims).setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" }).encrypt(key)
    }

    it("timing: exp 16 s in the past, nbf 16 s ahead are refused by both; iat a year ahead is accepted by both (no maxTokenAge)", async () => {
      const expired = await sealed({ sub: "1", exp: now() - 16 })
      expect(await rejection(decode({ token: expired, secret: SECRET, salt: PLAIN }))).toBeInstanceOf(TokenExpiredError)
      await expect(authJwt.decode({ token: expired, secret: SECRET, salt: PLAIN })).rejects.toThrow()
      const early = await sealed({ sub: "1", exp: now() + 600, nbf: now() + 16 })
      expect(await rejection(decode({ token: early, secret: SECRET, salt: PLAIN }))).toMatchObject({ reason: "not_yet_valid" })
      await expect(authJwt.decode({ token: early, secret: SECRET, salt: PLAIN })).rejects.toThrow()
      const future = await sealed({ sub: "1", exp: now() + 600, iat: now() + 365 * 86400 })
      expect(await decode({ token: future, secret: SECRET, salt: PLAIN })).toMatchObject({ sub: "1" })
      expect(await authJwt.decode({ token: future, secret: SECRET, salt: PLAIN })).toMatchObject({ sub: "1" })
    })

    it("timing: an Auth.js token with maxAge 1 s is still read within the 15 s tolerance, as Auth.js reads it", async () => {
      const token = await authJwt.encode({ token: { sub: "short" }, secret: SECRET, salt: PLAIN, maxAge: 1 })
      expect(await decode({ token, secret: SECRET, salt: PLAIN })).toMatchObject({ sub: "short" })
    })
  })

  describe("errors carry neither the token nor the secret", () => {
    it("errors: every decode failure is a LatchkeyError whose message, cause and stack hold no token fragment or secret", async () => {
      const good = await authJwt.encode({ token: { sub: "1" }, secret: SECRET, salt: PLAIN })
      const expired = await new EncryptJWT({ sub: "1", exp: now() - 100 })
        .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
        .encrypt(await authjsKey("A256CBC-HS512", SECRET, PLAIN))
      const cases: [string, string | string[], string][] = [
        [good, OLD_SECRET, PLAIN],
        [good, SECRET, SECURE],
        [expired, SECRET, PLAIN],
        [tamperCiphertext(good), SECRET, PLAIN],
        ["x".repeat(MAX_TOKEN_LENGTH + 1), SECRET, PLAIN],
        [`${good}.extra`, SECRET, PLAIN],
        ["%%%", SECRET, PLAIN],
      ]
      for (const [token, secret, salt] of cases) {
        const error = await rejection(decode({ token, secret, salt }))
        expect(error).toBeInstanceOf(LatchkeyError)
        const text = `${(error as Error).message} ${(error as Error).stack} ${JSON.stringify(error)} ${String((error as Error).cause)}`
        expect(text).not.toContain(SECRET)
        expect(text).not.toContain(OLD_SECRET)
        expect(text).not.toContain(good.split(".")[3]!.slice(0, 24))
      }
    })
  })

  describe("getToken cookie selection", () => {
    it("getToken: a planted extra chunk .5, a gap, or a whole cookie next to chunks makes the session unreadable rather than grafted", async () => {
      const token = await encode({ token: { sub: "victim", pad: "z".repeat(6000) }, secret: SECRET, salt: PLAIN })
      const cookie = cookieHeaderFor(PLAIN, token)
      expect(await getToken({ req: { headers: { cookie } }, secret: SECRET })).toMatchObject({ sub: "victim" })
      const attacker = await encode({ token: { sub: "attacker" }, secret: SECRET, salt: PLAIN })
      for (const bad of [`${cookie}; ${PLAIN}.5=AAAA`, `${cookie}; ${PLAIN}=${attacker}`, cookie.replace(`${PLAIN}.0=`, `${PLAIN}.9=`)]) {
        expect(await getToken({ req: { headers: { cookie: bad } }, secret: SECRET })).toBeNull()
      }
    })

    it("getToken: chunks listed out of order, or split over two Cookie headers of a Node record, join in numeric order", async () => {
      const token = await authJwt.encode({ token: { sub: "o", pad: "q".repeat(9000) }, secret: SECRET, salt: SECURE })
      const pairs = cookieHeaderFor(SECURE, token).split("; ")
      expect(pairs.length).toBeGreaterThan(2)
      const reversed = [...pairs].reverse()
      expect(await getToken({ req: { headers: { cookie: reversed.join("; ") } }, secret: SECRET })).toMatchObject({ sub: "o" })
      expect(await getToken({ req: { headers: { cookie: [reversed[0]!, reversed.slice(1).join("; ")] } }, secret: SECRET })).toMatchObject({ sub: "o" })
    })

    it("getToken: a token sealed for the plain cookie but planted under __Secure- (or vice versa) is refused: each name keeps its own salt", async () => {
      const plainToken = await authJwt.encode({ token: { sub: "p" }, secret: SECRET, salt: PLAIN })
      expect(await getToken({ req: { headers: { cookie: `${SECURE}=${plainToken}` } }, secret: SECRET })).toBeNull()
      const secureToken = await authJwt.encode({ token: { sub: "s" }, secret: SECRET, salt: SECURE })
      expect(await getToken({ req: { headers: { cookie: `${PLAIN}=${secureToken}` } }, secret: SECRET })).toBeNull()
      // And the __Secure- name is preferred when both decode (Auth.js's handler wrote it over https).
      const both = `${PLAIN}=${plainToken}; ${SECURE}=${secureToken}`
      expect(await getToken({ req: { headers: { cookie: both } }, secret: SECRET })).toMatchObject({ sub: "s" })
      expect(await getToken({ req: { headers: { cookie: both } }, secret: SECRET, secureCookie: false })).toMatchObject({ sub: "p" })
    })

    it("getToken raw: true answers exactly the joined cookie string Auth.js's getToken answers, without a secret", async () => {
      const token = await authJwt.encode({ token: { sub: "raw", pad: "r".repeat(7000) }, secret: SECRET, salt: PLAIN })
      const cookie = cookieHeaderFor(PLAIN, token)
      const ours = await getToken({ req: { headers: { cookie } }, raw: true, secret: undefined })
      const theirs = await authJwt.getToken({ req: { headers: { cookie } }, raw: true, logger: quiet } as never)
      expect(ours).toBe(token)
      expect(theirs).toBe(token)
    })
  })

  describe("getToken Bearer fallback", () => {
    it("Bearer: used only when there is no session cookie, as Auth.js does; a present but invalid cookie does not fall through to the header", async () => {
      const bearer = await authJwt.encode({ token: { sub: "api" }, secret: SECRET, salt: PLAIN })
      const req = (headers: Record<string, string>) => ({ headers })
      expect(await getToken({ req: req({ authorization: `Bearer ${bearer}` }), secret: SECRET, secureCookie: false })).toMatchObject({ sub: "api" })
      expect(await authJwt.getToken({ req: req({ authorization: `Bearer ${bearer}` }), secret: SECRET, logger: quiet })).toMatchObject({ sub: "api" })
      const invalid = req({ cookie: `${PLAIN}=garbage`, authorization: `Bearer ${bearer}` })
      expect(await authJwt.getToken({ req: invalid, secret: SECRET, logger: quiet })).toBeNull()
      expect(await getToken({ req: invalid, secret: SECRET })).toBeNull()
      // Not a Bearer scheme: not read.
      expect(await getToken({ req: req({ authorization: `Basic ${bearer}` }), secret: SECRET })).toBeNull()
      expect(await getToken({ req: req({ authorization: `Bearer ${bearer} extra` }), secret: SECRET })).toBeNull()
    })
  })

  describe("resource bounds", () => {
    // No timing thresholds in unit tests: what these cost is measured by hand (the CHANGELOG's figures);
    // here, that such headers answer no token and throw nothing.
    it("a 1 MB Cookie header of repeated session-chunk names reads as no token (read in linear time: Sets, not arrays)", async () => {
      const cookie = Array.from({ length: 40_000 }, (_, i) => `${PLAIN}.${i % 1000}=x`).join("; ")
      expect(cookie.length).toBeGreaterThan(1_000_000)
      expect(await getToken({ req: { headers: { cookie } }, secret: SECRET })).toBeNull()
      expect(await authJwt.getToken({ req: { headers: { cookie } }, secret: SECRET, logger: quiet })).toBeNull()
    })

    it("a 1 MB Cookie header of '=' characters, spaces or one giant value answers what the whole cookie says", async () => {
      const token = await encode({ token: { sub: "1" }, secret: SECRET, salt: PLAIN })
      expect(await getToken({ req: { headers: { cookie: `a=${" ".repeat(1_000_000)}${PLAIN}=${token}` } }, secret: SECRET })).toBeNull()
      expect(await getToken({ req: { headers: { cookie: `${PLAIN}=${token}; ${"=".repeat(1_000_000)}` } }, secret: SECRET })).toMatchObject({ sub: "1" })
      expect(await getToken({ req: { headers: { cookie: `x=${"y".repeat(1_000_000)}` } }, secret: SECRET })).toBeNull()
    })
  })
})
