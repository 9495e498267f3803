// Round three's mutation survivor on account linking: `allowDangerousEmailAccountLinking` defaults
// to off. Only a catalog snapshot pinned it, so flipping the default passed every flow test. Here
// it is pinned by behaviour through the handler: two providers (two clients of one real OpenID
// provider) assert the same verified address; the second does not link to the first's user
// unless the app opts in on that provider.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import type { OIDCConfig } from "../../src/providers/types.js"
import { csrfOf, ORIGIN, post, secureApp, sessionOf } from "../security/support.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"

const ADA = { sub: "ada-sub", email: "ada@example.com", name: "Ada" }
/** An account at the same provider whose address it has not verified: anyone can type Ada's. */
const UNVERIFIED = { sub: "eve-sub", email: "ada@example.com", name: "Eve", email_verified: false }
let idp: OidcServer

beforeAll(async () => {
  const client = (id: string) => ({ client_id: id, client_secret: `${id}-secret`, redirect_uris: [`${ORIGIN}/auth/callback/${id}`], grant_types: ["authorization_code"] })
  idp = await startOidcServer({ accounts: [ADA, UNVERIFIED], clients: [client("corp"), client("partner")] })
})
afterAll(() => idp.close())

/** A provider as an app configures one: only what it must say, so every default applies. */
const provider = (id: string, extra: Partial<OIDCConfig> = {}): OIDCConfig => ({
  id,
  name: id,
  type: "oidc",
  issuer: idp.issuer,
  clientId: id,
  clientSecret: `${id}-secret`,
  authorization: { params: { scope: "openid email profile" } },
  ...extra,
})

/** Signs in with `providerId` in a fresh browser; answers where the flow ended and the session. */
async function signInWith(site: ReturnType<typeof secureApp>, providerId: string, as = ADA.sub) {
  const browser = site.browser()
  idp.signInAs(as)
  const { url } = await post(browser, `/auth/signin/${providerId}`, { csrfToken: await csrfOf(browser) })
  return { url, session: await sessionOf(browser) }
}

describe("allowDangerousEmailAccountLinking, by default", () => {
  it("a second provider asserting the same verified email does not link to the existing user: OAuthAccountNotLinked", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [provider("corp"), provider("partner")], adapter })
    expect((await signInWith(site, "corp")).session?.user.email).toBe(ADA.email)
    const second = await signInWith(site, "partner")
    expect(second.url.searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect(second.session).toBeNull()
    expect([...adapter.accounts.values()].map((account) => account.provider)).toEqual(["corp"])
    expect(adapter.users.size).toBe(1)
  })

  it("links when the app opts in on that provider, so the test above sees linking when it happens", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [provider("corp"), provider("partner", { allowDangerousEmailAccountLinking: true })], adapter })
    await signInWith(site, "corp")
    const second = await signInWith(site, "partner")
    expect(second.session?.user.email).toBe(ADA.email)
    expect([...adapter.accounts.values()].map((account) => account.provider).sort()).toEqual(["corp", "partner"])
    expect(new Set([...adapter.accounts.values()].map((account) => account.userId)).size).toBe(1)
  })
})

describe("allowDangerousEmailAccountLinking, when the provider says the address is not verified", () => {
  // Linking by address trusts the provider to have proven it; `email_verified: false` says it has not.
  // Linking anyway would hand Ada's account to whoever typed her address at the provider.
  it("does not link: OAuthAccountNotLinked, and no account row joins Ada's user", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [provider("corp"), provider("partner", { allowDangerousEmailAccountLinking: true })], adapter })
    expect((await signInWith(site, "corp")).session?.user.email).toBe(ADA.email)
    const eve = await signInWith(site, "partner", UNVERIFIED.sub)
    expect(eve.url.searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect(eve.session).toBeNull()
    expect([...adapter.accounts.values()].map((account) => account.provider)).toEqual(["corp"])
  })

  it("still signs a new user up with it: only joining an existing user needs the proof", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [provider("partner", { allowDangerousEmailAccountLinking: true })], adapter })
    expect((await signInWith(site, "partner", UNVERIFIED.sub)).session?.user.email).toBe(ADA.email)
  })
})
