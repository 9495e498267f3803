// The provider table `latchkey init` writes imports from (src/cli/init/provider-catalog.ts) against
// the provider modules themselves: every module under src/providers/ is listed, under the export
// name whose factory is that module's default, so a generated `import X from "latchkey/providers/<file>"`
// names a real subpath; and "did you mean" finds the intended id for common slips.
import { describe, expect, it } from "vitest"
import * as providers from "../../src/providers/index.js"
import { providerCatalog } from "../../src/cli/init/provider-catalog.js"
import { didYouMean } from "../../src/cli/init/did-you-mean.js"
import { providerModules } from "../../scripts/provider-catalog.mjs"

const modules = providerModules() as { name: string; path: string }[]

describe("init's provider catalog", () => {
  it("lists every provider module under src/providers/, and nothing else", () => {
    expect(providerCatalog().map((entry) => entry.file).sort()).toEqual(modules.map((module) => module.name).sort())
  })

  it("names each module's own default export, so the generated import is right", async () => {
    for (const entry of providerCatalog()) {
      const module = modules.find((candidate) => candidate.name === entry.file)!
      const loaded = (await import(`../../${module.path}`)) as { default: unknown }
      expect(loaded.default, entry.file).toBe((providers as Record<string, unknown>)[entry.exportName])
    }
  })

  it("knows which providers need an issuer in the environment", () => {
    const needing = new Set(providerCatalog().filter((entry) => entry.needsIssuer).map((entry) => entry.id))
    for (const id of ["keycloak", "okta", "auth0", "hydra", "mastodon"]) expect(needing.has(id), id).toBe(true)
    for (const id of ["github", "google", "gitlab", "discord", "apple"]) expect(needing.has(id), id).toBe(false)
  })
})

describe("did you mean", () => {
  const files = providerCatalog().map((entry) => entry.file)

  it("finds the intended provider for a typo, a swap, a missing letter and a prefix", () => {
    expect(didYouMean("githb", files)).toBe("github")
    expect(didYouMean("gogle", files)).toBe("google")
    expect(didYouMean("dsicord", files)).toBe("discord")
    expect(didYouMean("GitHub", files)).toBe("github")
    expect(didYouMean("microsoft", files)).toBe("microsoft-entra-id")
  })

  it("offers nothing when no name is close", () => {
    expect(didYouMean("qqqqqqq", files)).toBeUndefined()
    expect(didYouMean("x", files)).toBeUndefined()
  })

  it("counts a swap of neighbours as one edit", () => {
    expect(didYouMean("gihtub", ["github", "gitlab"])).toBe("github")
    expect(didYouMean("GitHub", ["github"])).toBe("github")
  })
})
