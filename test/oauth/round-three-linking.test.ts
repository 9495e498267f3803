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
let idp: OidcServer

beforeAll(async () => {
  const client = (id: string) => ({ client_id: id, client_secret: `${id}-secret`, redirect_uris: [`${ORIGIN}/auth/callback/${id}`], grant_types: ["authorization_code"] })
  idp = await startOidcServer({ accounts: [ADA], clients: [client("corp"), client("partner")] })
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
async function signInWith(site: ReturnType<typeof secureApp>, providerId: string) {
  const browser = site.browser()
  idp.signInAs(ADA.sub)
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
