// Interop with the real Auth.js v5 (@auth/core 0.41): its tokens and cookies read with ours, ours
// read with its code, including rotation and chunked cookies written by its real handler.
import { Auth, type AuthConfig } from "@auth/core"
import * as authJwt from "@auth/core/jwt"
import Credentials from "@auth/core/providers/credentials"
import { afterEach, describe, expect, it, vi } from "vitest"
import { getToken } from "../../src/jwt/get-token.js"
import { setCookieHeaders } from "../../src/jwt/cookies.js"
import { backend, codec, OTHER_SECRET, PLAIN, SECRET, SECURE } from "./support.js"

const BIG = "x".repeat(6000)

function authConfig(secret: string | string[]): AuthConfig {
  return {
    secret,
    trustHost: true,
    basePath: "/auth",
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Credentials({
        credentials: { username: {} },
        authorize: (credentials) => ({ id: "u1", name: String(credentials.username), email: "ada@example.com" }),
      }),
    ],
    callbacks: {
      jwt: ({ token }) => ({ ...token, big: BIG }),
    },
  }
}

/** Cookie header built from a response's Set-Cookie lines (live cookies only). */
function cookiesFrom(response: Response, into: Map<string, string> = new Map()): Map<string, string> {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";")
    const at = pair!.indexOf("=")
    const name = pair!.slice(0, at)
    const value = pair!.slice(at + 1)
    if (/max-age=0/i.test(line) || value === "") into.delete(name)
    else into.set(name, value)
  }
  return into
}

const header = (jar: Map<string, string>) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ")

/** Signs in through Auth.js's real handler with credentials and returns the cookie jar. */
async function signInWithAuthJs(origin: string, secret: string | string[]) {
  const config = authConfig(secret)
  const csrfResponse = await Auth(new Request(`${origin}/auth/csrf`), config)
  const jar = cookiesFrom(csrfResponse)
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string }
  const response = await Auth(
    new Request(`${origin}/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: header(jar) },
      body: new URLSearchParams({ csrfToken, username: "Ada" }),
    }),
    config
  )
  expect(response.status).toBe(302)
  return cookiesFrom(response, jar)
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe(`interop with @auth/core (${backend.name})`, () => {
  it("decodes tokens written by @auth/core encode, and @auth/core decodes ours", async () => {
    const theirs = await authJwt.encode({ token: { sub: "from-authjs" }, secret: SECRET, salt: PLAIN })
    expect(await codec.decode({ token: theirs, secret: SECRET, salt: PLAIN })).toMatchObject({ sub: "from-authjs" })
    const ours = await codec.encode({ token: { sub: "from-latchkey", name: "Ada" }, secret: SECRET, salt: SECURE })
    expect(await authJwt.decode({ token: ours, secret: SECRET, salt: SECURE })).toMatchObject({ sub: "from-latchkey", name: "Ada" })
  })

  it("agrees on rotation: the first secret writes, any listed secret reads", async () => {
    const theirs = await authJwt.encode({ token: { sub: "r" }, secret: [SECRET, OTHER_SECRET], salt: PLAIN })
    expect(await codec.decode({ token: theirs, secret: [OTHER_SECRET, SECRET], salt: PLAIN })).toMatchObject({ sub: "r" })
    const ours = await codec.encode({ token: { sub: "r" }, secret: [OTHER_SECRET, SECRET], salt: PLAIN })
    expect(await authJwt.decode({ token: ours, secret: [SECRET, OTHER_SECRET], salt: PLAIN })).toMatchObject({ sub: "r" })
  })

  it("reads the chunked session cookies Auth.js's handler sets over HTTP", async () => {
    const jar = await signInWithAuthJs("http://localhost", SECRET)
    expect([...jar.keys()]).toEqual(expect.arrayContaining([`${PLAIN}.0`, `${PLAIN}.1`]))
    const token = await getToken({ req: new Headers({ cookie: header(jar) }), secret: SECRET })
    expect(token).toMatchObject({ name: "Ada", email: "ada@example.com", big: BIG })
  })

  it("finds the __Secure- cookie Auth.js sets behind HTTPS with no options (the Auth.js getToken failure)", async () => {
    const jar = await signInWithAuthJs("https://localhost", SECRET)
    expect([...jar.keys()].some((name) => name.startsWith(SECURE))).toBe(true)
    const cookie = header(jar)
    expect(await authJwt.getToken({ req: { headers: { cookie } }, secret: SECRET })).toBeNull()
    expect(await getToken({ req: { headers: { cookie } }, secret: SECRET })).toMatchObject({ name: "Ada" })
  })

  it("uses the Auth.js environment rotation order: AUTH_SECRET_1 is newer than AUTH_SECRET", async () => {
    vi.stubEnv("AUTH_SECRET", OTHER_SECRET)
    vi.stubEnv("AUTH_SECRET_1", SECRET)
    const jar = await signInWithAuthJs("http://localhost", [SECRET, OTHER_SECRET])
    expect(await getToken({ req: new Headers({ cookie: header(jar) }) })).toMatchObject({ name: "Ada" })
  })

  it("Auth.js's handler reads the chunked cookies latchkey writes", async () => {
    const token = await codec.encode({ token: { sub: "u2", name: "Grace", email: "grace@example.com", big: BIG }, secret: SECRET, salt: SECURE })
    const setCookies = setCookieHeaders({ name: SECURE, value: token, options: { maxAge: 3600 } })
    expect(setCookies.length).toBeGreaterThan(1)
    const jar = cookiesFrom(new Response(null, { headers: setCookies.map((line) => ["set-cookie", line] as [string, string]) }))
    const response = await Auth(new Request("https://localhost/auth/session", { headers: { cookie: header(jar) } }), authConfig(SECRET))
    const session = (await response.json()) as { user?: { name?: string; email?: string } }
    expect(session.user).toMatchObject({ name: "Grace", email: "grace@example.com" })
  })
})
