import { afterEach, describe, expect, it, vi } from "vitest"
import { InvalidOptionError, MissingSecretError } from "../../src/errors.js"
import { setCookieHeaders } from "../../src/jwt/cookies.js"
import { getToken } from "../../src/jwt/get-token.js"
import { backend, codec, cookieHeader, OTHER_SECRET, PLAIN, SECRET, SECURE } from "./support.js"

const BIG = "y".repeat(9000)

async function tokenFor(salt: string, claims: Record<string, unknown> = { sub: "1" }, secret = SECRET) {
  return codec.encode({ token: claims, secret, salt })
}

/** Splits a token into the chunk cookies latchkey's writer would set. */
function chunkCookies(name: string, token: string): Record<string, string> {
  const cookies: Record<string, string> = {}
  for (const line of setCookieHeaders({ name, value: token })) {
    const [pair] = line.split(";")
    const at = pair!.indexOf("=")
    cookies[pair!.slice(0, at)] = pair!.slice(at + 1)
  }
  return cookies
}

function recordingLogger() {
  const messages: unknown[] = []
  return { messages, logger: { debug: (message: string, metadata?: unknown) => messages.push({ message, metadata }) } }
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe(`getToken (${backend.name})`, () => {
  describe("request shapes", () => {
    it("reads a Request, a Headers, and { headers } as Headers or a plain record", async () => {
      const cookie = `${PLAIN}=${await tokenFor(PLAIN)}`
      const shapes = [
        new Request("http://localhost/", { headers: { cookie } }),
        new Headers({ cookie }),
        { headers: new Headers({ cookie }) },
        { headers: { cookie } },
        { headers: { Cookie: cookie } },
        { headers: { cookie: [cookie, "other=1"] } },
      ]
      for (const req of shapes) expect(await getToken({ req, secret: SECRET })).toMatchObject({ sub: "1" })
    })

    it("throws a typed error for something that is not a request", async () => {
      await expect(getToken({ req: 42 as never, secret: SECRET })).rejects.toBeInstanceOf(InvalidOptionError)
    })
  })

  describe("cookie names and salts", () => {
    it("finds the __Secure- cookie first, then the plain one, each with its own salt", async () => {
      const secure = await tokenFor(SECURE, { sub: "secure" })
      const plain = await tokenFor(PLAIN, { sub: "plain" })
      expect(await getToken({ req: new Headers({ cookie: `${SECURE}=${secure}` }), secret: SECRET })).toMatchObject({ sub: "secure" })
      expect(await getToken({ req: new Headers({ cookie: `${PLAIN}=${plain}` }), secret: SECRET })).toMatchObject({ sub: "plain" })
      const both = new Headers({ cookie: `${PLAIN}=${plain}; ${SECURE}=${secure}` })
      expect(await getToken({ req: both, secret: SECRET })).toMatchObject({ sub: "secure" })
    })

    it("falls back to the plain cookie when the secure one does not decode", async () => {
      const plain = await tokenFor(PLAIN, { sub: "plain" })
      const stale = await tokenFor(SECURE, { sub: "stale" }, OTHER_SECRET)
      const { messages, logger } = recordingLogger()
      const req = new Headers({ cookie: `${SECURE}=${stale}; ${PLAIN}=${plain}` })
      expect(await getToken({ req, secret: SECRET, logger })).toMatchObject({ sub: "plain" })
      expect(messages).toEqual([{ message: "getToken: token rejected", metadata: { code: "ERR_NO_MATCHING_SECRET", source: SECURE } }])
    })

    it("secureCookie picks one name; cookieName picks exactly that cookie with its own salt", async () => {
      const secure = await tokenFor(SECURE, { sub: "secure" })
      const plain = await tokenFor(PLAIN, { sub: "plain" })
      const req = new Headers({ cookie: `${PLAIN}=${plain}; ${SECURE}=${secure}` })
      expect(await getToken({ req, secret: SECRET, secureCookie: false })).toMatchObject({ sub: "plain" })
      expect(await getToken({ req, secret: SECRET, secureCookie: true })).toMatchObject({ sub: "secure" })
      const custom = await tokenFor("my-session", { sub: "custom" })
      const withCustom = new Headers({ cookie: `my-session=${custom}` })
      expect(await getToken({ req: withCustom, secret: SECRET, cookieName: "my-session" })).toMatchObject({ sub: "custom" })
      expect(await getToken({ req: withCustom, secret: SECRET })).toBeNull()
    })

    it("an explicit salt applies to every name", async () => {
      const token = await tokenFor("shared-salt", { sub: "salted" })
      const req = new Headers({ cookie: `${PLAIN}=${token}` })
      expect(await getToken({ req, secret: SECRET, salt: "shared-salt" })).toMatchObject({ sub: "salted" })
      expect(await getToken({ req, secret: SECRET })).toBeNull()
    })
  })

  describe("chunks", () => {
    it("joins chunks in numeric order, whatever order the header lists them in", async () => {
      const token = await tokenFor(PLAIN, { sub: "1", big: BIG })
      const chunks = Object.entries(chunkCookies(PLAIN, token))
      expect(chunks.length).toBeGreaterThanOrEqual(3)
      const shuffled = Object.fromEntries([...chunks].reverse())
      expect(await getToken({ req: new Headers({ cookie: cookieHeader(shuffled) }), secret: SECRET })).toMatchObject({ big: BIG })
    })

    it("a gap in the chunks makes the token invalid", async () => {
      const token = await tokenFor(PLAIN, { sub: "1", big: BIG })
      const chunks = chunkCookies(PLAIN, token)
      delete chunks[`${PLAIN}.1`]
      const { messages, logger } = recordingLogger()
      expect(await getToken({ req: new Headers({ cookie: cookieHeader(chunks) }), secret: SECRET, logger })).toBeNull()
      expect(messages).toEqual([{ message: "getToken: session cookie rejected", metadata: { code: "ERR_INVALID_TOKEN", reason: "invalid_chunks", source: PLAIN } }])
    })

    it("ignores cookies that merely share the prefix", async () => {
      const token = await tokenFor(PLAIN)
      const cookie = cookieHeader({ [PLAIN]: token, [`${PLAIN}.x`]: "junk", [`${PLAIN}-legacy`]: "junk", [`${PLAIN}.01`]: "junk" })
      expect(await getToken({ req: new Headers({ cookie }), secret: SECRET })).toMatchObject({ sub: "1" })
      const onlyLookalikes = cookieHeader({ [`${PLAIN}x`]: token, [`${PLAIN}.0x`]: token })
      expect(await getToken({ req: new Headers({ cookie: onlyLookalikes }), secret: SECRET })).toBeNull()
    })
  })

  describe("Bearer fallback", () => {
    it("uses Authorization: Bearer when there is no cookie, scheme case-insensitive and URL-decoded", async () => {
      const token = await tokenFor(PLAIN, { sub: "bearer" })
      for (const scheme of ["Bearer", "bearer", "BEARER"]) {
        const req = new Headers({ authorization: `${scheme} ${encodeURIComponent(token)}` })
        expect(await getToken({ req, secret: SECRET })).toMatchObject({ sub: "bearer" })
      }
    })

    it("prefers the cookie over the Bearer token", async () => {
      const cookieToken = await tokenFor(PLAIN, { sub: "cookie" })
      const bearerToken = await tokenFor(PLAIN, { sub: "bearer" })
      const req = new Headers({ cookie: `${PLAIN}=${cookieToken}`, authorization: `Bearer ${bearerToken}` })
      expect(await getToken({ req, secret: SECRET })).toMatchObject({ sub: "cookie" })
    })

    it.each(["Bearer %E0%A4%A", "Bearer", "Basic dXNlcjpwYXNz", "Bearer a b"])("answers null for %j", async (authorization) => {
      expect(await getToken({ req: new Headers({ authorization }), secret: SECRET })).toBeNull()
    })
  })

  describe("raw", () => {
    it("returns the raw token, joined from chunks, and needs no secret", async () => {
      const token = await tokenFor(PLAIN, { big: BIG })
      const req = new Headers({ cookie: cookieHeader(chunkCookies(PLAIN, token)) })
      expect(await getToken({ req, raw: true })).toBe(token)
      expect(await getToken({ req: new Headers(), raw: true })).toBeNull()
    })
  })

  describe("secrets from the environment", () => {
    it("reads AUTH_SECRET and the rotation variables", async () => {
      vi.stubEnv("AUTH_SECRET", OTHER_SECRET)
      vi.stubEnv("AUTH_SECRET_2", SECRET)
      const req = new Headers({ cookie: `${PLAIN}=${await tokenFor(PLAIN)}` })
      expect(await getToken({ req })).toMatchObject({ sub: "1" })
    })

    it("throws MissingSecretError with no secret anywhere, unless raw", async () => {
      for (const name of ["AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3"]) vi.stubEnv(name, "")
      const req = new Headers({ cookie: `${PLAIN}=${await tokenFor(PLAIN)}` })
      await expect(getToken({ req })).rejects.toBeInstanceOf(MissingSecretError)
      await expect(getToken({ req: new Headers() })).rejects.toBeInstanceOf(MissingSecretError)
      expect(await getToken({ req, raw: true })).toMatch(/^eyJ/)
    })
  })

  describe("custom decode", () => {
    it("is called with the token, the secrets and the cookie's salt", async () => {
      const token = await tokenFor(SECURE)
      const decode = vi.fn(async () => ({ custom: true }))
      const req = new Headers({ cookie: `${SECURE}=${token}` })
      expect(await getToken({ req, secret: [SECRET, OTHER_SECRET], decode })).toEqual({ custom: true })
      expect(decode).toHaveBeenCalledWith({ token, secret: [SECRET, OTHER_SECRET], salt: SECURE })
    })

    it("a throwing decode gives null and a debug code", async () => {
      const { messages, logger } = recordingLogger()
      const req = new Headers({ cookie: `${PLAIN}=anything` })
      const decode = () => {
        throw new Error("boom: includes secret material")
      }
      expect(await getToken({ req, secret: SECRET, decode, logger })).toBeNull()
      expect(messages).toEqual([{ message: "getToken: token rejected", metadata: { code: "ERR_DECODE_FAILED", source: PLAIN } }])
    })
  })

  describe("malformed input", () => {
    it.each([
      "=; ; ;;",
      `${PLAIN}=%E0%A4%A`,
      `${PLAIN}="unterminated`,
      `${PLAIN}=a.b.c.d.e`,
      `${PLAIN}`,
      "\u0000\u0001",
    ])("answers null for the cookie header %j", async (cookie) => {
      expect(await getToken({ req: { headers: { cookie } }, secret: SECRET })).toBeNull()
    })

    it("never logs the token or the secret", async () => {
      const { messages, logger } = recordingLogger()
      const token = await tokenFor(PLAIN, { sub: "1" }, OTHER_SECRET)
      await getToken({ req: new Headers({ cookie: `${PLAIN}=${token}` }), secret: SECRET, logger })
      const logged = JSON.stringify(messages)
      expect(logged).not.toContain(token.slice(0, 40))
      expect(logged).not.toContain(SECRET)
    })
  })
})
