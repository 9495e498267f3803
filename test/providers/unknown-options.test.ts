/// <reference types="vite/client" />
// No factory drops an option it does not understand: every built-in OAuth/OIDC factory, given an
// unknown option, is refused with InvalidProviderError naming it; given a `baseUrl` (Auth.js's
// spelling of "my own instance"), each either points at that host or refuses it.
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { InvalidProviderError } from "../../src/errors.js"
import { resolveProvider } from "../../src/providers/core/resolve.js"
import type { OAuthConfig, ProviderConfig, ResolvedOAuthProvider } from "../../src/providers/types.js"

const modules = import.meta.glob<{ default: (options?: unknown) => ProviderConfig }>("../../src/providers/*.ts", { eager: true })

const factories = Object.values(modules)
  .map((module) => module.default)
  .filter((factory) => typeof factory === "function")
  .map((factory) => ({ factory, config: factory({ authorize: () => null }) }))
  .filter(({ config }) => config.type === "oauth" || config.type === "oidc")
  .map(({ factory, config }) => [config.id, factory as (options?: unknown) => OAuthConfig] as const)
  .sort(([a], [b]) => a.localeCompare(b))

const APP = { baseUrl: "https://app.example.com", env: {} }
const CREDENTIALS = { clientId: "client-id", clientSecret: "client-secret" }
const OWN_HOST = "https://idp.example.org"

/** The fixture's options: what a user must pass for the provider to resolve at all (tenants, instances). */
function fixtureOptions(id: string): Record<string, unknown> {
  const fixture = JSON.parse(readFileSync(new URL(`../fixtures/providers/${id}.json`, import.meta.url), "utf8")) as { options?: Record<string, unknown> }
  return fixture.options ?? {}
}

function outcome(run: () => unknown): { resolved?: ResolvedOAuthProvider; error?: unknown } {
  try {
    return { resolved: run() as ResolvedOAuthProvider }
  } catch (error) {
    return { error }
  }
}

describe("unknown factory options", () => {
  it("walks all 116 OAuth/OIDC factories", () => {
    expect(factories).toHaveLength(116)
  })

  describe.each(factories)("%s", (id, factory) => {
    it("resolves with its fixture options (the baseline the refusals below are measured against)", () => {
      expect(resolveProvider(factory({ ...CREDENTIALS, ...fixtureOptions(id) }), APP).id).toBe(id)
    })

    it("refuses an option it does not understand, naming it", () => {
      const { error } = outcome(() => resolveProvider(factory({ ...CREDENTIALS, ...fixtureOptions(id), frobnicate: true }), APP))
      expect(error).toBeInstanceOf(InvalidProviderError)
      expect(error).toMatchObject({ code: "ERR_INVALID_PROVIDER", provider: id, field: "frobnicate" })
    })

    it("honours a baseUrl (points at that host) or refuses it", () => {
      const { resolved, error } = outcome(() => resolveProvider(factory({ ...CREDENTIALS, ...fixtureOptions(id), baseUrl: OWN_HOST }), APP))
      if (error !== undefined) {
        expect(error).toBeInstanceOf(InvalidProviderError)
        expect(error).toMatchObject({ code: "ERR_INVALID_PROVIDER", provider: id, field: "baseUrl" })
        return
      }
      const urls = [resolved!.issuer, resolved!.authorization.url, resolved!.token.url, resolved!.userinfo.url].filter((url) => url !== undefined)
      expect(urls.length).toBeGreaterThan(0)
      for (const url of urls) expect(new URL(url).origin).toBe(OWN_HOST)
    })
  })

  it("honours GitLab's baseUrl, the self-managed instance Auth.js's docs show (regression: it signed in at gitlab.com)", () => {
    const gitlab = factories.find(([id]) => id === "gitlab")![1]
    const resolved = resolveProvider(gitlab({ ...CREDENTIALS, baseUrl: "https://gitlab.acme.dev/" }), APP) as ResolvedOAuthProvider
    expect(resolved.issuer).toBe("https://gitlab.acme.dev")
  })
})
