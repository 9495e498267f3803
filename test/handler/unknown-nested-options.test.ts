// An Auth.js config moved to createAuth as it is: a key inside `pages`, `session`, `callbacks`,
// `events`, `jwt` or `theme` that latchkey does not read is warned about at start-up, as a misspelt top-level
// option is, and Auth.js's `callbacks.authorized` is told where it went (the proxy of latchkey/next).
// Regression: these were accepted in silence, so `pages.signin` left the default sign-in page up and
// an `authorized` callback that guarded the app was simply never called. Warnings only: the app starts.
import { describe, expect, it } from "vitest"
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import Credentials from "../../src/providers/credentials.js"
import { APP, SECRET } from "./support.js"

const credentials = () => Credentials({ credentials: { username: {} }, authorize: () => ({ id: "u1", name: "Ada" }) })

/** createAuth with a logger that keeps each warning as `code: message`. */
function warningsOf(config: Record<string, unknown>): string[] {
  const warnings: string[] = []
  const logger = { warn: (code: string, metadata?: unknown) => void warnings.push(`${code}: ${(metadata as { message?: string } | undefined)?.message ?? ""}`) }
  createAuth({ providers: [credentials()], secret: SECRET, trustHost: true, env: { AUTH_URL: `${APP}/auth` }, logger, ...(config as Partial<AuthConfig>) })
  return warnings
}

describe("a key inside a createAuth option that latchkey does not read", () => {
  it("is warned about with the full path and the key it was meant to be", () => {
    const noop = () => undefined
    const warnings = warningsOf({
      pages: { signin: "/login" },
      session: { stratgy: "jwt" },
      callbacks: { sesion: noop },
      events: { signout: noop },
      jwt: { maxage: 60 },
      theme: { brandcolour: "#0f766e" },
    })
    expect(warnings).toEqual([
      'UNKNOWN_OPTION: createAuth has no option "pages.signin", so it is ignored; did you mean "pages.signIn"?',
      'UNKNOWN_OPTION: createAuth has no option "session.stratgy", so it is ignored; did you mean "session.strategy"?',
      'UNKNOWN_OPTION: createAuth has no option "callbacks.sesion", so it is ignored; did you mean "callbacks.session"?',
      'UNKNOWN_OPTION: createAuth has no option "events.signout", so it is ignored; did you mean "events.signOut"?',
      'UNKNOWN_OPTION: createAuth has no option "jwt.maxage", so it is ignored; did you mean "jwt.maxAge"?',
      'UNKNOWN_OPTION: createAuth has no option "theme.brandcolour", so it is ignored; did you mean "theme.brandColor"?',
    ])
  })

  it("suggests nothing when no key is close, and bounds a long key in the message", () => {
    const warnings = warningsOf({ pages: { dashboard: "/home" }, session: { generateSessionToken: () => "id", ["x".repeat(500)]: 1 } })
    expect(warnings).toEqual([
      'UNKNOWN_OPTION: createAuth has no option "pages.dashboard", so it is ignored',
      // Auth.js's own key, which latchkey does not read.
      'UNKNOWN_OPTION: createAuth has no option "session.generateSessionToken", so it is ignored',
      `UNKNOWN_OPTION: createAuth has no option "session.${"x".repeat(64)}", so it is ignored`,
    ])
  })

  it("says where Auth.js's callbacks.authorized moved, and the app still starts", () => {
    const warnings = warningsOf({ callbacks: { authorized: ({ auth }: { auth: unknown }) => auth !== null } })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^MOVED_OPTION: /)
    expect(warnings[0]).toContain("callbacks.authorized")
    expect(warnings[0]).toContain("proxy({ authorized })")
    expect(warnings[0]).toContain("latchkey/next")
  })

  it("warns about nothing in a config that uses every key latchkey reads", () => {
    const noop = () => undefined
    const warnings = warningsOf({
      pages: { signIn: "/login", signOut: "/logout", error: "/oops", verifyRequest: "/check", newUser: "/welcome" },
      session: { strategy: "jwt", maxAge: 3600, updateAge: 600, sharedAcrossSubdomains: false },
      callbacks: { signIn: () => true, redirect: ({ url }: { url: string }) => url, jwt: ({ token }: { token: unknown }) => token, session: ({ session }: { session: unknown }) => session },
      events: { signIn: noop, signOut: noop, createUser: noop, updateUser: noop, linkAccount: noop, session: noop, rateLimited: noop },
      jwt: { maxAge: 3600 },
      theme: { brandColor: "#0f766e", logo: "https://app.example.com/logo.svg", colorScheme: "auto", buttonText: "#ffffff" },
    })
    expect(warnings).toEqual([])
  })

  it("leaves an option that is not a record of keys to the option's own checks", () => {
    expect(warningsOf({ pages: undefined, callbacks: null, events: [] })).toEqual([])
  })
})
