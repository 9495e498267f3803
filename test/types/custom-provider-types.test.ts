// Issue #29 item 3: a custom provider kept in its own `const`, as the custom-provider guide writes
// one, type-checks with no annotation and no `as const`, and `name` may be left out (it defaults
// to the id at run time, as the docs say). Compiled strict with the TypeScript API, so `vitest run`
// alone catches a regression; the run-time half signs nothing in, it resolves the same consts.
import { describe, expect, expectTypeOf, it } from "vitest"
import { itTypechecks } from "../setup/typechecks.js"
import { strictDiagnostics } from "./strict.js"
import { createAuth } from "../../src/handler/index.js"
import { resolveProviders } from "../../src/providers/core/resolve.js"
import type { AppProviders, OAuth2Config, OIDCConfig } from "../../src/providers/types.js"

const SECRET = "latchkey-test-secret-0123456789abcdef"

/** An OpenID Connect provider in its own const: TypeScript widens `type` to string. */
const corp = {
  id: "corp",
  type: "oidc",
  issuer: "https://login.corp.example",
  clientId: "corp-app",
  clientSecret: "corp-secret",
  checks: ["pkce", "nonce"],
}

/** An OAuth 2.0 provider by its endpoints, in its own const, without a name. */
const acme = {
  id: "acme",
  type: "oauth",
  authorization: { url: "https://acme.example/oauth/authorize", params: { scope: "read:user" } },
  token: "https://acme.example/oauth/token",
  userinfo: "https://api.acme.example/me",
  clientId: "acme-app",
  client: { token_endpoint_auth_method: "none" },
  profile: (profile: { id: number; login: string }) => ({ id: String(profile.id), name: profile.login }),
}

/** Typed configs may leave `name` out too. */
const typedOidc: OIDCConfig = { id: "typed", type: "oidc", issuer: "https://typed.example", clientId: "t", clientSecret: "s" }
const typedOAuth: OAuth2Config = { id: "typed-oauth", type: "oauth", issuer: "https://typed.example", clientId: "t", clientSecret: "s" }

describe("custom providers in TypeScript", () => {
  itTypechecks("this file compiles under strict TypeScript", () => {
    expect(strictDiagnostics(import.meta.url)).toEqual([])
  }, 60_000)

  it("a provider in its own const is a provider, and createAuth takes it", () => {
    const providers: AppProviders = [corp, acme, typedOidc, typedOAuth]
    expectTypeOf(providers).toEqualTypeOf<AppProviders>()
    expect(() => createAuth({ providers: [corp, acme], secret: SECRET, env: {}, logger: { warn: () => {} } })).not.toThrow()
  })

  it("name defaults to the id at run time", () => {
    const resolved = resolveProviders([corp, acme], { baseUrl: "https://app.example.com" })
    expect(resolved.map(({ id, name, type }) => ({ id, name, type }))).toEqual([
      { id: "corp", name: "corp", type: "oidc" },
      { id: "acme", name: "acme", type: "oauth" },
    ])
  })

  it("a widened type is still checked at run time, with a suggestion", () => {
    const typo = { id: "typo", type: "odic", issuer: "https://login.corp.example", clientId: "x", clientSecret: "y" }
    expect(() => resolveProviders([typo], { baseUrl: "https://app.example.com" })).toThrow(/unknown provider type "odic"; did you mean "oidc"\?/)
    const method = { ...acme, client: { token_endpoint_auth_method: "client_secret_bsic" } }
    expect(() => resolveProviders([method], { baseUrl: "https://app.example.com" })).toThrow(/"client_secret_bsic"; did you mean "client_secret_basic"\?/)
    const check = { ...corp, checks: ["pcke"] }
    expect(() => resolveProviders([check], { baseUrl: "https://app.example.com" })).toThrow(/unknown check "pcke"; did you mean "pkce"\?/)
    const field = { ...corp, clientID: "x" }
    expect(() => resolveProviders([field], { baseUrl: "https://app.example.com" })).toThrow(/unknown option "clientID"; did you mean "clientId"\?/)
  })
})
