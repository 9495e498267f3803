// next-auth v4 tokens, produced the way v4 produced them: jose EncryptJWT with dir + A256GCM, a key
// from HKDF-SHA-256 with an empty salt and the v4 info string, and no kid.
import { EncryptJWT } from "jose"
import { describe, expect, it } from "vitest"
import { NoMatchingSecretError } from "../../src/errors.js"
import { deriveBytes } from "../../src/jwt/keys.js"
import { decodeNextAuthV4, getNextAuthV4Token, NEXT_AUTH_V4_SECURE_SESSION_COOKIE_NAME, NEXT_AUTH_V4_SESSION_COOKIE_NAME } from "../../src/jwt/next-auth-v4.js"
import { getToken } from "../../src/jwt/get-token.js"
import { backend, OTHER_SECRET, SECRET } from "./support.js"

async function v4Token(claims: Record<string, unknown>, secret = SECRET) {
  const key = await deriveBytes("next-auth-v4", "A256GCM", secret, "")
  return new EncryptJWT(claims)
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt()
    .setExpirationTime("30d")
    .setJti(crypto.randomUUID())
    .encrypt(key)
}

describe(`next-auth v4 migration (${backend.name})`, () => {
  it("decodes v4 tokens, with rotation across secrets", async () => {
    const token = await v4Token({ name: "Legacy", email: "legacy@example.com" })
    expect(await decodeNextAuthV4({ token, secret: SECRET })).toMatchObject({ name: "Legacy" })
    expect(await decodeNextAuthV4({ token, secret: [OTHER_SECRET, SECRET] })).toMatchObject({ name: "Legacy" })
    await expect(decodeNextAuthV4({ token, secret: OTHER_SECRET })).rejects.toBeInstanceOf(NoMatchingSecretError)
  })

  it("reads both v4 cookie names with getNextAuthV4Token, and works as getToken's decode", async () => {
    const token = await v4Token({ sub: "v4" })
    for (const name of [NEXT_AUTH_V4_SESSION_COOKIE_NAME, NEXT_AUTH_V4_SECURE_SESSION_COOKIE_NAME]) {
      const req = new Headers({ cookie: `${name}=${token}` })
      expect(await getNextAuthV4Token({ req, secret: SECRET })).toMatchObject({ sub: "v4" })
      expect(await getToken({ req, secret: SECRET, cookieName: name, decode: decodeNextAuthV4 })).toMatchObject({ sub: "v4" })
      expect(await getToken({ req, secret: SECRET })).toBeNull()
    }
  })
})
