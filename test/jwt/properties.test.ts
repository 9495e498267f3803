import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { getToken } from "../../src/jwt/get-token.js"
import { backend, codec, PLAIN, SECRET, SECURE } from "./support.js"

const validToken = await codec.encode({ token: { sub: "1", role: "admin" }, secret: SECRET, salt: PLAIN })
const genuineClaims = await codec.decode({ token: validToken, secret: SECRET, salt: PLAIN })
const [header, , iv, ciphertext, tag] = validToken.split(".") as [string, string, string, string, string]

const base64urlText = fc.string({ unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".split("")), maxLength: 120 })

/** Inputs an attacker controls: random text, JWE-shaped text, and valid tokens with one change. */
const hostileToken = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.tuple(base64urlText, base64urlText, base64urlText, base64urlText).map(([a, b, c, d]) => `${header}.${a}.${b}.${c}.${d}`),
  fc.tuple(base64urlText, base64urlText).map(([a, b]) => `${header}..${iv}.${a}.${b}`),
  fc.tuple(fc.nat({ max: validToken.length - 1 }), fc.constantFrom(..."AQgw-_xyz019.".split(""))).map(([at, char]) =>
    validToken.slice(0, at) + char + validToken.slice(at + 1)
  ),
  fc.nat({ max: validToken.length - 1 }).map((length) => validToken.slice(0, length)),
  fc.string({ minLength: 1, maxLength: 40 }).map((extra) => validToken + extra)
).filter((token) => token !== validToken)

describe(`properties (${backend.name})`, () => {
  it("no token that was not made with the secret is accepted", async () => {
    await fc.assert(
      fc.asyncProperty(hostileToken, async (token) => {
        const outcome = await codec.decode({ token, secret: SECRET, salt: PLAIN }).then(
          (payload) => ({ accepted: payload !== null }),
          (error: unknown) => ({ accepted: false, code: (error as { code?: string }).code })
        )
        expect(outcome.accepted).toBe(false)
        if ("code" in outcome) expect(outcome.code).toMatch(/^ERR_(INVALID_TOKEN|NO_MATCHING_SECRET|TOKEN_EXPIRED)$/)
      }),
      { numRuns: 1500 }
    )
  })

  it("a token made with any other secret or salt is refused", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ maxLength: 40 }), async (otherSecret, otherSalt) => {
        fc.pre(otherSecret !== SECRET || otherSalt !== PLAIN)
        const token = await codec.encode({ token: { sub: "x" }, secret: otherSecret, salt: otherSalt })
        await expect(codec.decode({ token, secret: SECRET, salt: PLAIN })).rejects.toMatchObject({ code: "ERR_NO_MATCHING_SECRET" })
      }),
      { numRuns: 200 }
    )
  })

  // A hostile header can still carry the genuine token (cookie parsing strips surrounding white
  // space, for one). So the property is: whatever is accepted was read as exactly the genuine token
  // and yields exactly its claims; everything else gives null; nothing throws.
  it("no request makes getToken throw, and only the genuine token is ever accepted", async () => {
    // Most inputs give null; the count shows how many carried the genuine token and were checked.
    const seen = { requests: 0, accepted: 0 }
    const cookieName = fc.constantFrom(PLAIN, SECURE, `${PLAIN}.0`, `${PLAIN}.1`, `${SECURE}.0`, `${PLAIN}.99`, "other", "")
    const cookiePair = fc.tuple(cookieName, fc.oneof(hostileToken, fc.string({ maxLength: 50 }))).map(([name, value]) => `${name}=${value}`)
    const cookieHeader = fc.oneof(fc.string({ maxLength: 400 }), fc.array(cookiePair, { maxLength: 6 }).map((pairs) => pairs.join("; ")))
    const authorization = fc.option(
      fc.oneof(fc.string({ maxLength: 200 }), hostileToken.map((token) => `Bearer ${token}`)),
      { nil: undefined }
    )
    await fc.assert(
      fc.asyncProperty(cookieHeader, authorization, async (cookie, auth) => {
        const req = { headers: { cookie, authorization: auth } }
        seen.requests++
        const payload = await getToken({ req, secret: SECRET })
        if (payload === null) return
        seen.accepted++
        const readTokens = await Promise.all([true, false].map((secureCookie) => getToken({ req, raw: true, secureCookie })))
        expect(readTokens).toContain(validToken)
        expect(payload).toEqual(genuineClaims)
      }),
      { numRuns: 1500 }
    )
    expect(seen.requests).toBe(1500)
    console.log(`getToken property: ${seen.requests} hostile requests, ${seen.accepted} carried the genuine token and yielded exactly its claims`)
  })
})
