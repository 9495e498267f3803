// Review 5 #4: a `jwt` callback that writes an adapter's numeric id into `sub` (`token.sub = user.id`
// on SERIAL ids, as with @auth/pg-adapter) must not make a JWT session unrevocable. The version is
// looked up under the id's decimal string, at read and at issue; the token keeps the number the
// app wrote. A subject of any other type cannot be named by a revocation, so it is refused.
import { describe, expect, it } from "vitest"
import { isRevokedToken, memorySessionVersions, revocationKeyOf, SESSION_VERSION_CLAIM } from "../../src/adapters/session-versions.js"
import type { AuthConfig } from "../../src/handler/index.js"
import Credentials from "../../src/providers/credentials.js"
import type { JWT } from "../../src/types.js"
import { csrfOf, jarOf, ORIGIN, post, secureApp, sessionOf } from "../security/support.js"

const ada = () => Credentials({ credentials: { email: {} }, authorize: () => ({ id: "42", name: "Ada", email: "ada@example.com" }) })

/** A JWT app whose jwt callback writes `subject` as the token's `sub` at sign-in, and what its session callback saw. */
function siteWithSubject(subject: unknown, config: Partial<AuthConfig> = {}) {
  const seen: unknown[] = []
  const site = secureApp({
    providers: [ada()],
    session: { strategy: "jwt" },
    callbacks: {
      jwt: ({ token, user }) => (user ? { ...token, sub: subject as string } : token),
      session: ({ session, token }) => (seen.push(token.sub), session),
    },
    ...config,
  })
  return { site, seen }
}

async function signIn(site: ReturnType<typeof secureApp>) {
  const browser = site.browser()
  await post(browser, "/auth/callback/credentials", { csrfToken: await csrfOf(browser), email: "ada@example.com" })
  return browser
}

const authOf = (site: ReturnType<typeof secureApp>, browser: ReturnType<ReturnType<typeof secureApp>["browser"]>) => {
  const cookie = Object.entries(jarOf(browser)).map(([name, value]) => `${name}=${value}`).join("; ")
  return site.auth(new Request(`${ORIGIN}/home`, { headers: { cookie } }))
}

describe("a JWT session whose jwt callback wrote a numeric sub", () => {
  it("keeps the number in the token the app's callbacks see", async () => {
    const { site, seen } = siteWithSubject(42)
    const browser = await signIn(site)
    expect((await sessionOf(browser))?.user?.email).toBe("ada@example.com")
    expect(seen).toContain(42)
  })

  it("is signed out by revokeSessions with the id as a string", async () => {
    const { site } = siteWithSubject(42)
    const browser = await signIn(site)
    await site.revokeSessions("42")
    expect(await authOf(site, browser)).toBeNull()
    expect(await sessionOf(browser)).toBeNull()
  })

  it("is signed out by revokeSessions with the id as the number a SERIAL adapter hands back", async () => {
    const { site } = siteWithSubject(42)
    const browser = await signIn(site)
    await site.revokeSessions(42 as unknown as string)
    expect(await authOf(site, browser)).toBeNull()
  })

  it("confirms its user for a change that lasts, as it would with the id as a string", async () => {
    // "Sign out everywhere" from the user's own request reads the session against its source of truth.
    const { site } = siteWithSubject(42)
    const browser = await signIn(site)
    const cookie = Object.entries(jarOf(browser)).map(([name, value]) => `${name}=${value}`).join("; ")
    await site.revokeSessions(new Request(`${ORIGIN}/settings`, { headers: { cookie } }))
    expect(await authOf(site, browser)).toBeNull()
  })

  it("leaves a session signed in after the revocation alive: the new token carries the user's current version", async () => {
    const { site } = siteWithSubject(42)
    await site.revokeSessions("42")
    const browser = await signIn(site)
    expect((await authOf(site, browser))?.user?.email).toBe("ada@example.com")
    expect((await sessionOf(browser))?.user?.email).toBe("ada@example.com")
  })
})

describe.each([
  ["an object", { id: 42 }],
  ["a boolean", true],
  ["null", null],
])("a JWT session whose jwt callback wrote %s as sub", (_, subject) => {
  it("is refused with a revocation store, since no revocation could name it", async () => {
    const { site } = siteWithSubject(subject)
    const browser = await signIn(site)
    expect(await authOf(site, browser)).toBeNull()
    expect(await sessionOf(browser)).toBeNull()
  })

  it("is honoured without one, where nothing is revoked", async () => {
    const { site } = siteWithSubject(subject, { session: { strategy: "jwt", revocationStore: false } })
    const browser = await signIn(site)
    expect((await authOf(site, browser))?.user?.email).toBe("ada@example.com")
  })
})

describe("revocationKeyOf and isRevokedToken", () => {
  it("key a finite number as its decimal string, and refuse other types", () => {
    expect(revocationKeyOf({ sub: "u-1" })).toBe("u-1")
    expect(revocationKeyOf({ sub: 42 } as unknown as JWT)).toBe("42")
    expect(revocationKeyOf({})).toBeUndefined()
    for (const sub of [null, true, { id: 42 }, [42], Number.NaN]) expect(revocationKeyOf({ sub } as unknown as JWT)).toBeNull()
  })

  it("reads a numeric sub as revoked once its user's sessions are, and an unnameable one as revoked always", async () => {
    const store = memorySessionVersions()
    const numeric = { sub: 42, [SESSION_VERSION_CLAIM]: 0 } as unknown as JWT
    expect(await isRevokedToken(store, numeric)).toBe(false)
    await store.bump("42", 60)
    expect(await isRevokedToken(store, numeric)).toBe(true)
    expect(await isRevokedToken(store, { sub: { id: 42 } } as unknown as JWT)).toBe(true)
    expect(await isRevokedToken(store, {})).toBe(false)
  })
})
