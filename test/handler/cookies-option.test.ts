// The `cookies` option, checked down to each attribute. Auth.js's documented example (name, and
// httpOnly, sameSite, path and secure in `options`) moves over as it is. What latchkey would not do as
// written is refused at start-up with the option's path: a misspelt key (`nmae`, `samesite`) was
// ignored in silence, `httpOnly: false` was spread into the session cookie (a script could then read
// the session), and `sameSite: "None"` on plain http slipped past the SameSite=None-needs-Secure check.
import { describe, expect, it } from "vitest"
import { InvalidOptionError } from "../../src/errors.js"
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import Credentials from "../../src/providers/credentials.js"
import { APP, SECRET } from "./support.js"

const providers = [Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: String(username), name: "Ada" }) })]

function start(cookies: unknown, url = APP) {
  return createAuth({ providers, secret: SECRET, trustHost: true, env: { AUTH_URL: `${url}/auth` }, cookies: cookies as AuthConfig["cookies"] })
}

function refusal(cookies: unknown): InvalidOptionError {
  try {
    start(cookies)
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionError)
    return error as InvalidOptionError
  }
  throw new Error("expected createAuth to refuse the cookies option")
}

/** The Set-Cookie line a credentials sign-in writes for `name`. */
async function sessionCookieLine(auth: ReturnType<typeof start>, origin: string, name: string): Promise<string | undefined> {
  const csrf = await auth.handler(new Request(`${origin}/auth/csrf`))
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const jar = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")
  const signIn = await auth.handler(
    new Request(`${origin}/auth/callback/credentials`, {
      method: "POST",
      headers: { cookie: jar, "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams({ csrfToken, username: "ada" }).toString(),
    })
  )
  return signIn.headers.getSetCookie().find((line) => line.startsWith(`${name}=`))
}

describe("the cookies option, attribute by attribute", () => {
  it("takes Auth.js's documented example as it is, and writes what it says", async () => {
    const https = "https://app.example.com"
    const auth = start(
      { sessionToken: { name: "__Secure-next-auth.session-token", options: { httpOnly: true, sameSite: "lax", path: "/", secure: true } } },
      https
    )
    const line = await sessionCookieLine(auth, https, "__Secure-next-auth.session-token")
    expect(line).toBeDefined()
    expect(line).toMatch(/; HttpOnly/i)
    expect(line).toMatch(/; Secure/i)
    expect(line).toMatch(/; SameSite=Lax/i)
  })

  it("refuses httpOnly: false, which would hand the session to any script on the page", () => {
    const error = refusal({ sessionToken: { options: { httpOnly: false } } })
    expect(error.option).toBe("cookies.sessionToken.options.httpOnly")
    expect(error.message).toMatch(/HttpOnly/)
  })

  it("refuses a misspelt key in a cookie or its options, naming the one meant", () => {
    expect(refusal({ sessionToken: { nmae: "app.session" } })).toMatchObject({ option: "cookies.sessionToken.nmae", message: expect.stringContaining('"name"') })
    expect(refusal({ csrfToken: { options: { samesite: "strict" } } })).toMatchObject({ option: "cookies.csrfToken.options.samesite", message: expect.stringContaining('"sameSite"') })
    expect(refusal({ state: { name: "my.state", nmae: "x" } })).toMatchObject({ option: "cookies.state.nmae" })
  })

  it("refuses a lifetime: each cookie's is latchkey's (the session cookie's is session.maxAge)", () => {
    expect(refusal({ sessionToken: { options: { maxAge: 60 } } })).toMatchObject({ option: "cookies.sessionToken.options.maxAge", message: expect.stringContaining("session.maxAge") })
    expect(refusal({ callbackUrl: { options: { expires: new Date(0) } } })).toMatchObject({ option: "cookies.callbackUrl.options.expires" })
  })

  it("refuses values a browser or the cookie writer would not take as meant", () => {
    expect(refusal({ sessionToken: { options: { sameSite: "None" } } })).toMatchObject({ option: "cookies.sessionToken.options.sameSite", message: expect.stringContaining('"none"') })
    expect(refusal({ sessionToken: { options: { sameSite: true } } })).toMatchObject({ option: "cookies.sessionToken.options.sameSite" })
    expect(refusal({ sessionToken: { options: { secure: "yes" } } })).toMatchObject({ option: "cookies.sessionToken.options.secure" })
    expect(refusal({ sessionToken: { options: { path: "auth" } } })).toMatchObject({ option: "cookies.sessionToken.options.path" })
    expect(refusal({ sessionToken: { options: { domain: 42 } } })).toMatchObject({ option: "cookies.sessionToken.options.domain" })
    expect(refusal({ sessionToken: { options: "lax" } })).toMatchObject({ option: "cookies.sessionToken.options" })
    expect(refusal({ sessionToken: "app.session" })).toMatchObject({ option: "cookies.sessionToken" })
  })

  it("still refuses SameSite=None without Secure, whatever else is set", () => {
    expect(() => start({ sessionToken: { name: "app.session", options: { sameSite: "none", secure: false } } })).toThrow(InvalidOptionError)
  })
})
