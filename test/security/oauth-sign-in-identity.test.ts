// The third outside review, the OAuth flow: who a sign-in is, as the app's callbacks and the
// session see it. Against a real oidc-provider, through createAuth's handler with a cookie jar:
// a banned user the `signIn` callback must stop (it is shown the stored user, as in Auth.js);
// two people with the same account id at two providers, with no adapter, who must not share a
// user id; and an address in another case, which must meet the existing user's account rules.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/adapter.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import type { OIDCConfig } from "../../src/providers/types.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { csrfOf, ORIGIN, post, secureApp, sessionOf } from "./support.js"

const MALLORY = { sub: "1001", email: "mallory@example.com", name: "Mallory" }
const SHOUTING_ADA = { sub: "ada-upper", email: "ADA@Example.com", name: "Ada" }

let idp: OidcServer
beforeAll(async () => {
  idp = await startOidcServer({
    accounts: [MALLORY, SHOUTING_ADA],
    clients: ["corp", "alpha", "beta"].map((id) => ({ client_id: id, client_secret: `${id}-secret`, redirect_uris: [`${ORIGIN}/auth/callback/${id}`], grant_types: ["authorization_code"] })),
  })
})
afterAll(() => idp.close())

/** A provider at the shared test server, as `id` (its own client). */
const provider = (id: string, more: Partial<OIDCConfig> = {}): OIDCConfig => ({ id, name: id, type: "oidc", issuer: idp.issuer, clientId: id, clientSecret: `${id}-secret`, ...more })

async function signIn(site: ReturnType<typeof secureApp>, providerId: string, sub: string) {
  const browser = site.browser()
  idp.signInAs(sub)
  const { url } = await post(browser, `/auth/signin/${providerId}`, { csrfToken: await csrfOf(browser) })
  return { browser, url, session: await sessionOf(browser) }
}

describe("the signIn callback is shown the stored user of a returning account, as in Auth.js", () => {
  it("a banned user is stopped by the app's rule on a stored field", async () => {
    const adapter = memoryAdapter()
    const stored = await adapter.createUser!({ id: "user-7", name: "Mallory", email: MALLORY.email, emailVerified: null, banned: true } as AdapterUser)
    await adapter.linkAccount!({ userId: stored.id, provider: "corp", providerAccountId: MALLORY.sub, type: "oidc" })
    const seen: unknown[] = []
    const site = secureApp({ providers: [provider("corp")], adapter, callbacks: { signIn: ({ user }) => (seen.push(user), (user as { banned?: boolean }).banned !== true) } })
    const { url, session } = await signIn(site, "corp", MALLORY.sub)
    expect(seen).toEqual([expect.objectContaining({ id: "user-7", banned: true })])
    expect(url.searchParams.get("error")).toBe("AccessDenied")
    expect(session).toBeNull()
  })

  it("a new user is shown as the provider describes them, and signs in", async () => {
    const seen: { id?: string; email?: string | null }[] = []
    const site = secureApp({ providers: [provider("corp")], adapter: memoryAdapter(), callbacks: { signIn: ({ user }) => (seen.push(user), true) } })
    const { session } = await signIn(site, "corp", MALLORY.sub)
    expect(seen).toHaveLength(1)
    expect(seen[0]!.email).toBe(MALLORY.email)
    expect(session).toMatchObject({ user: { email: MALLORY.email } })
  })
})

describe("without an adapter, a user id names one account at one provider", () => {
  it("two people with the same account id at two providers get different user ids, stable across sign-ins", async () => {
    const site = secureApp({ providers: [provider("alpha"), provider("beta")] })
    const first = await signIn(site, "alpha", MALLORY.sub)
    const other = await signIn(site, "beta", MALLORY.sub)
    const again = await signIn(site, "alpha", MALLORY.sub)
    expect(first.session?.user.id).toBeTruthy()
    expect(other.session?.user.id).not.toBe(first.session?.user.id)
    expect(again.session?.user.id).toBe(first.session?.user.id)
    // Revoking one person's sessions leaves the other's.
    await site.revokeSessions(other.session!.user.id)
    expect(await sessionOf(other.browser)).toBeNull()
    expect(await sessionOf(first.browser)).toMatchObject({ user: { id: first.session!.user.id } })
  })
})

describe("an OAuth address is compared in lower case, as Auth.js compares it", () => {
  /** An adapter that finds an address exactly as written, as every SQL adapter of Auth.js does. */
  function exactAdapter(): Adapter & { users: () => AdapterUser[] } {
    const base = memoryAdapter()
    const users = new Map<string, AdapterUser>()
    return {
      ...base,
      async createUser(user) {
        const created = await base.createUser!(user)
        users.set(created.id, created)
        return created
      },
      getUserByEmail: async (email) => [...users.values()].find((user) => user.email === email) ?? null,
      users: () => [...users.values()],
    }
  }

  it("ADA@Example.com at a provider meets ada@example.com's refusal instead of becoming a second user", async () => {
    const adapter = exactAdapter()
    await adapter.createUser!({ id: "ada", name: "Ada", email: "ada@example.com", emailVerified: null })
    const site = secureApp({ providers: [provider("corp")], adapter })
    const { url, session } = await signIn(site, "corp", SHOUTING_ADA.sub)
    expect(url.searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect(session).toBeNull()
    expect(adapter.users().map((user) => user.email)).toEqual(["ada@example.com"])
  })

  it("with allowDangerousEmailAccountLinking it joins the existing user", async () => {
    const adapter = exactAdapter()
    await adapter.createUser!({ id: "ada", name: "Ada", email: "ada@example.com", emailVerified: null })
    const site = secureApp({ providers: [provider("corp", { allowDangerousEmailAccountLinking: true })], adapter })
    const { session } = await signIn(site, "corp", SHOUTING_ADA.sub)
    expect(session).toMatchObject({ user: { id: "ada", email: "ada@example.com" } })
    expect(adapter.users()).toHaveLength(1)
  })
})
