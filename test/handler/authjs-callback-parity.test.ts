// What an Auth.js app's callbacks and session options count on, found by an outside review that
// moved one over: the `signIn` callback sees a credentials sign-in's fields; what the `jwt` callback
// changes on a read is kept (Auth.js seals its answer on every read); a short `session.maxAge` is an
// idle timeout, not a fixed one; a custom `jwt.encode`/`decode` gets the secret as the app wrote it;
// `events.signOut` carries `session` or `token`, never both.
// Each failed before its fix. The last block is Auth.js's documented recipes, which must compile.
import { afterEach, describe, expect, it, vi } from "vitest"
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import { decode, encode } from "../../src/jwt/index.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import { app, csrf, postForm, SECRET, session } from "./support.js"

const credentials = () => Credentials({ credentials: { email: {}, terms: {} }, authorize: ({ email }) => ({ id: "u1", email: String(email) }) })

async function signIn(browser: ReturnType<typeof app>["browser"], fields: Record<string, string> = {}) {
  const token = await csrf(browser)
  await postForm(browser, "/auth/callback/credentials", { csrfToken: token, email: "ada@example.com", terms: "yes", ...fields })
}

afterEach(() => {
  vi.useRealTimers()
})

describe("callbacks and session options as an Auth.js app uses them", () => {
  it("shows the signIn callback a credentials sign-in's submitted fields", async () => {
    const seen: unknown[] = []
    const { browser } = app({
      providers: [credentials()],
      callbacks: {
        signIn: ({ credentials }) => {
          seen.push(credentials)
          return credentials?.terms === "yes"
        },
      },
    })
    await signIn(browser)
    expect(seen).toEqual([{ email: "ada@example.com", terms: "yes" }])
    expect((await session(browser))?.user?.email).toBe("ada@example.com")
    await signIn(browser, { terms: "no" })
    expect(seen).toHaveLength(2)
  })

  it("keeps what the jwt callback changes on a read, as Auth.js seals it on every read", async () => {
    const { browser } = app({
      providers: [credentials()],
      callbacks: {
        // An app's own API token, rotated on each read: the next read must see the rotated one.
        jwt: ({ token, trigger }) => (trigger === "session" ? { ...token, apiToken: `rt-${Number(String(token.apiToken ?? "rt-0").slice(3)) + 1}` } : token),
        session: ({ session, token }) => ({ ...session, apiToken: token.apiToken }),
      },
    })
    await signIn(browser)
    const reads = []
    for (let i = 0; i < 3; i++) reads.push((await session(browser))?.apiToken)
    expect(reads).toEqual(["rt-1", "rt-2", "rt-3"])
  })

  it("re-issues nothing on a read whose jwt callback changes nothing", async () => {
    const { browser, dispatch } = app({ providers: [credentials()], callbacks: { jwt: ({ token }) => token } })
    await signIn(browser)
    const cookie = [...browser.cookies("http://localhost:3000")].map(([name, value]) => `${name}=${value}`).join("; ")
    const read = await dispatch("http://localhost:3000/auth/session", { headers: { cookie } })
    expect(read.headers.getSetCookie().filter((line) => line.startsWith("authjs.session-token="))).toEqual([])
  })

  it("keeps an active user signed in past a short session.maxAge, and signs an idle one out", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-01-01T00:00:00Z") })
    const { browser } = app({ providers: [credentials()], session: { maxAge: 60 } })
    await signIn(browser)
    for (let step = 0; step < 8; step++) {
      vi.advanceTimersByTime(20_000)
      expect((await session(browser))?.user?.email).toBe("ada@example.com")
    }
    vi.advanceTimersByTime(61_000)
    expect(await session(browser)).toBeNull()
  })

  it("sends events.signOut { session } for a database session and { token } for a JWT one, as Auth.js does", async () => {
    const messages: object[] = []
    const events: AuthConfig["events"] = { signOut: (message) => void messages.push(message) }
    for (const strategy of ["database", "jwt"] as const) {
      const { browser } = app({ providers: [credentials()], adapter: memoryAdapter(), session: { strategy }, events })
      await signIn(browser)
      await postForm(browser, "/auth/signout", { csrfToken: await csrf(browser) })
    }
    expect(messages.map((message) => Object.keys(message))).toEqual([["session"], ["token"]])
    expect(messages[0]).toMatchObject({ session: { userId: "u1" } })
    expect(messages[1]).toMatchObject({ token: { email: "ada@example.com" } })
  })

  it("hands a custom jwt.encode and decode the secret in the form the app wrote it", async () => {
    const seen: string[] = []
    const codec: AuthConfig["jwt"] = {
      encode: (params) => {
        seen.push(typeof params.secret)
        return encode(params)
      },
      decode: (params) => {
        seen.push(typeof params.secret)
        return decode(params)
      },
    }
    const single = app({ providers: [credentials()], secret: SECRET, jwt: codec })
    await signIn(single.browser)
    expect((await session(single.browser))?.user?.email).toBe("ada@example.com")
    expect(new Set(seen)).toEqual(new Set(["string"]))
    seen.length = 0
    const rotated = app({ providers: [credentials()], secret: [SECRET, `${SECRET}-old`], jwt: codec })
    await signIn(rotated.browser)
    expect((await session(rotated.browser))?.user?.email).toBe("ada@example.com")
    expect(new Set(seen)).toEqual(new Set(["object"]))
  })
})

// Auth.js's documented callback recipes, with only the imports renamed as the migration guide says:
// `tsc -p .` compiles this file, so a recipe that stops compiling fails the typecheck.
export const recipes = createAuth({
  providers: [credentials()],
  secret: SECRET,
  callbacks: {
    jwt({ token, trigger, session }) {
      if (trigger === "update" && session?.name) {
        token.name = session.name
      }
      return token
    },
    signIn({ user, credentials }) {
      return Boolean(user) && credentials?.terms !== "no"
    },
  },
})
