/// <reference types="vite/client" />
// Every built-in provider, checked from the source tree: the id union is generated from it, each
// OAuth/OIDC record resolves, uses https only, names its docs, and maps a realistic profile
// (a fixture modelled on the provider's documented response) to the right User.
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { providerModules, renderIds, renderProviderDocs } from "../../scripts/provider-catalog.mjs"
import { resolveProvider } from "../../src/providers/core/resolve.js"
import type { OAuthConfig, ProviderConfig, ResolvedOAuthProvider } from "../../src/providers/types.js"

const modules = import.meta.glob<{ default: (options?: unknown) => ProviderConfig }>(["../../src/providers/*.ts", "../../src/providers/email/*.ts"], {
  eager: true,
})

const factories = Object.entries(modules)
  .filter(([, module]) => typeof module.default === "function")
  .map(([path, module]) => ({ file: path.split("/").pop()!.replace(/\.ts$/, ""), factory: module.default }))

const configs = factories.map(({ file, factory }) => ({ file, factory, config: factory({ authorize: () => null }) }))
const oauth = configs.filter((entry): entry is typeof entry & { config: OAuthConfig } => entry.config.type === "oauth" || entry.config.type === "oidc")
const factoryFor = new Map(configs.map(({ config, factory }) => [config.id, factory]))

/** The OAuthProviderId union of src/providers/ids.ts, read from the file. */
const OAUTH_PROVIDER_IDS = [
  ...readFileSync(new URL("../../src/providers/ids.ts", import.meta.url), "utf8")
    .split("export type BuiltInProviderType")[0]!
    .matchAll(/^\s+\| "([^"]+)"$/gm),
].map(([, id]) => id!).sort()

const ENV = { AUTH_SECRET: "unused" }

/** OIDC providers whose documented scope omits `openid`, and why. */
const OIDC_WITHOUT_OPENID_SCOPE: Record<string, string> = {
  apple: "Apple documents scope=name email for the web and returns an id_token regardless",
}
const credentials = { clientId: "client-id", clientSecret: "client-secret" }

function fixture(id: string): {
  options?: Record<string, unknown>
  profile: Record<string, unknown>
  callbackFields?: Record<string, string>
  user: Record<string, unknown>
} {
  return JSON.parse(readFileSync(new URL(`../fixtures/providers/${id}.json`, import.meta.url), "utf8"))
}

function resolveForTest(config: OAuthConfig): ResolvedOAuthProvider {
  // The factory gets the fixture's options, as a user would pass them: instance URLs, tenants.
  const configured = factoryFor.get(config.id)!({ ...credentials, ...fixture(config.id).options }) as OAuthConfig
  return resolveProvider(configured, { baseUrl: "https://app.example.com", env: ENV }) as ResolvedOAuthProvider
}

/** Files named otherwise than their id, and why. */
const FILE_FOR_ID: Record<string, string> = { hydra: "ory-hydra" }

describe("provider catalog", () => {
  it("has the same modules as the build script sees", () => {
    expect(factories.map(({ file }) => file).sort()).toEqual(providerModules().map(({ name }) => name).sort())
  })

  it("has all 116 OAuth/OIDC providers of src/providers/ids.ts, each checked below", () => {
    expect(OAUTH_PROVIDER_IDS).toHaveLength(116)
    expect(oauth.map(({ config }) => config.id).sort()).toEqual(OAUTH_PROVIDER_IDS)
  })

  it("has unique ids", () => {
    const ids = configs.map(({ config }) => config.id)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("src/providers/ids.ts matches the catalog (regenerate with scripts/generate-provider-ids.mjs)", () => {
    const oauthIds = oauth.map(({ config }) => config.id).sort()
    const otherIds = configs.filter(({ config }) => !oauthIds.includes(config.id)).map(({ config }) => config.id).sort()
    const committed = readFileSync(new URL("../../src/providers/ids.ts", import.meta.url), "utf8")
    expect(committed).toBe(renderIds({ oauth: oauthIds, other: otherIds }))
  })

  it("docs/providers.md matches the records (regenerate with scripts/generate-provider-docs.mjs)", () => {
    const committed = readFileSync(new URL("../../docs/providers.md", import.meta.url), "utf8")
    expect(committed).toBe(renderProviderDocs(configs.map(({ config }) => config)))
  })

  describe.each(oauth.map(({ file, config }) => [config.id, file, config] as const))("%s", (id, file, config) => {
    it("is importable from a file named after its id", () => {
      expect(file).toBe(FILE_FOR_ID[id] ?? id)
    })

    it("names its docs, its brand colour, and its refresh and revocation support", () => {
      expect(config.docs).toMatch(/^https:\/\//)
      expect(config.style?.brandColor).toMatch(/^#[0-9A-Fa-f]{6}$/)
      expect(typeof config.capabilities?.refresh).toBe("boolean")
      expect(["string", "boolean"]).toContain(typeof config.capabilities?.revocation)
    })

    it("uses https for every fixed endpoint", () => {
      const resolved = resolveForTest(config)
      // An instance-based provider (Keycloak, Okta…) has no fixed endpoint: its resolved issuer,
      // the one a user passes (here the fixture's), is checked so the list is never empty.
      const urls = [config.issuer, resolved.issuer, resolved.authorization.url, resolved.token.url, resolved.userinfo.url, resolved.jwks_endpoint, resolved.wellKnown]
      if (typeof resolved.capabilities.revocation === "string") urls.push(resolved.capabilities.revocation)
      expect(urls.filter((value) => value !== undefined).length).toBeGreaterThan(0)
      for (const url of urls.filter((value): value is string => value !== undefined)) expect(new URL(url).protocol).toBe("https:")
    })

    it("asks for the openid scope exactly when it is OpenID Connect", () => {
      const scopes = (resolveForTest(config).authorization.params.scope ?? "").split(" ")
      const expected = config.type === "oidc" && !(id in OIDC_WITHOUT_OPENID_SCOPE)
      expect(scopes.includes("openid")).toBe(expected)
    })

    it("maps a documented profile to the right User", async () => {
      const { profile, callbackFields, user } = fixture(id)
      const resolved = resolveForTest(config)
      // Apple's first-sign-in `user` arrives as a callback form field; the flow adds it to the
      // profile (the contract suite drives that for real), so the mapping sees it there.
      const firstSignIn = resolved.quirks.firstSignInUserField && callbackFields?.user ? { user: JSON.parse(callbackFields.user) as unknown } : {}
      expect(await resolved.profile({ ...profile, ...firstSignIn } as never, { access_token: "token" })).toEqual(user)
    })

    it("resolves to the expected configuration", () => {
      expect(resolveForTest(config)).toMatchSnapshot()
    })
  })
})
