// `getAccessToken` is typed only where it works: on what createAuth (and latchkey/next's and
// latchkey/sveltekit's Latchkey) returns when its `providerTokens` plug-in refreshes. Without the
// plug-in, or with one that only signs out at the provider, calling it does not compile, and the
// provider-token options createAuth once had do not compile either. This file is type-checked by
// `tsc -p tsconfig.json`, and its first test compiles it again with the TypeScript API so that
// `vitest run` alone also catches a regression.
import { describe, expect, expectTypeOf, it } from "vitest"
import { itTypechecks } from "../setup/typechecks.js"
import { strictDiagnostics } from "./strict.js"
import { createAuth, type AccessTokenApi, type Auth, type AuthConfig } from "../../src/handler/index.js"
import { Latchkey as NextLatchkey } from "../../src/integrations/next/index.js"
import { Latchkey as KitLatchkey } from "../../src/integrations/sveltekit/index.js"
import { providerTokens, type ProviderTokensEngine } from "../../src/provider-tokens/index.js"
import GitHub from "../../src/providers/github.js"

const base = { providers: [GitHub({ clientId: "id", clientSecret: "secret" })], secret: "latchkey-test-secret-0123456789abcdef", env: {} }
const request = new Request("http://localhost/dashboard")

describe("getAccessToken follows the providerTokens plug-in", () => {
  itTypechecks("this file compiles under strict TypeScript", () => {
    expect(strictDiagnostics(import.meta.url)).toEqual([])
  }, 60_000)

  it("without the plug-in there is no getAccessToken, in the types and at run time", () => {
    const plain = createAuth(base)
    // @ts-expect-error: no providerTokens, no getAccessToken
    void plain.getAccessToken
    expectTypeOf(plain).toEqualTypeOf<Auth>()
    expect("getAccessToken" in plain).toBe(false)
  })

  it("a plug-in that only signs out at the provider has none either", () => {
    const signOutOnly = createAuth({ ...base, providerTokens: providerTokens({ signOut: { federated: true } }) })
    // @ts-expect-error: providerTokens without refresh, no getAccessToken
    void signOutOnly.getAccessToken
    expectTypeOf(providerTokens({ refresh: false, signOut: {} })).toEqualTypeOf<ProviderTokensEngine<false>>()
    expect("getAccessToken" in signOutOnly).toBe(false)
  })

  it("a plug-in that refreshes adds it, whatever the refresh options", async () => {
    for (const tokens of [providerTokens({ refresh: true }), providerTokens({ refresh: { skew: 120 }, signOut: { federated: true } })]) {
      expectTypeOf(tokens).toEqualTypeOf<ProviderTokensEngine<true>>()
      const { getAccessToken } = createAuth({ ...base, providerTokens: tokens })
      expectTypeOf(getAccessToken).toEqualTypeOf<AccessTokenApi["getAccessToken"]>()
      expect(await getAccessToken(request, "github")).toBeNull()
    }
  })

  it("a config written with satisfies AuthConfig keeps it; one typed as a whole AuthConfig cannot know", () => {
    const config = { ...base, providerTokens: providerTokens({ refresh: true }) } satisfies AuthConfig
    expectTypeOf(createAuth(config).getAccessToken).toEqualTypeOf<AccessTokenApi["getAccessToken"]>()
    const widened: AuthConfig = config
    // @ts-expect-error: AuthConfig says only "some plug-in, or none"
    void createAuth(widened).getAccessToken
  })

  it("latchkey/next and latchkey/sveltekit follow the same rule", () => {
    // @ts-expect-error: no providerTokens, no getAccessToken
    void NextLatchkey(base).getAccessToken
    // @ts-expect-error: no providerTokens, no getAccessToken
    void KitLatchkey(base).getAccessToken
    const next = NextLatchkey({ ...base, providerTokens: providerTokens({ refresh: true }) })
    const kit = KitLatchkey({ ...base, providerTokens: providerTokens({ refresh: true }) })
    expectTypeOf(next.getAccessToken).toEqualTypeOf<AccessTokenApi["getAccessToken"]>()
    expectTypeOf(kit.getAccessToken).toEqualTypeOf<AccessTokenApi["getAccessToken"]>()
    expect(typeof next.getAccessToken).toBe("function")
    expect("getAccessToken" in NextLatchkey(base)).toBe(false)
  })

  it("the provider-token options createAuth once had, and a plug-in that keeps nothing, do not compile", () => {
    // @ts-expect-error: refresh is an option of providerTokens({ refresh })
    expect(() => createAuth({ ...base, session: { refreshProviderTokens: true } })).toThrow()
    // @ts-expect-error: signOut is an option of providerTokens({ signOut })
    expect(() => createAuth({ ...base, signOut: { federated: true } })).toThrow()
    // @ts-expect-error: the plug-in is made with its options
    expect(() => createAuth({ ...base, providerTokens })).toThrow()
    // @ts-expect-error: a plug-in that keeps nothing
    expect(() => providerTokens({})).toThrow()
    // @ts-expect-error: a plug-in that keeps nothing
    expect(() => providerTokens({ refresh: false })).toThrow()
  })
})
