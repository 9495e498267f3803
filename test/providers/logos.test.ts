// Provider marks: one generated module per simple-icons mark in src/providers/logos/, the
// multi-colour marks of providers with button guidelines in src/providers/marks/, and each built-in
// provider's `style.mark` importing its own, so only a configured provider's mark ships with an app.
import { readdirSync, readFileSync } from "node:fs"
import * as icons from "simple-icons"
import { describe, expect, it } from "vitest"
import { BRAND_MARKS, logoIds, markLoaders, renderLogo } from "../../scripts/provider-logos.mjs"
import { logoMarkup } from "../../src/handler/pages/logos.js"
import { resolveProviders } from "../../src/providers/core/resolve.js"
import GitHub from "../../src/providers/github.js"
import Google from "../../src/providers/google.js"

const dir = new URL("../../src/providers/logos/", import.meta.url)

describe("provider logos", () => {
  it("has exactly one module per mapped provider without a multi-colour mark", () => {
    expect(readdirSync(dir).map((file) => file.replace(/\.ts$/, "")).sort()).toEqual(logoIds().sort())
    expect(logoIds().length).toBeGreaterThan(0)
    expect(logoIds()).not.toContain("google")
  })

  it.each(logoIds())("logos/%s.ts matches simple-icons (regenerate with scripts/generate-provider-logos.mjs)", async (id) => {
    const committed = readFileSync(new URL(`${id}.ts`, dir), "utf8")
    expect(committed).toBe(renderLogo(id, icons as unknown as Record<string, unknown>))
    const { default: svg } = (await import(`../../src/providers/logos/${id}.ts`)) as { default: string }
    expect(svg).toMatch(/^<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="[Mm][\d.\s,\-A-Za-z]+"\/><\/svg>$/)
  })

  it.each(Object.values(BRAND_MARKS))("marks/%s.ts is a multi-colour inline SVG", async (mark) => {
    const { default: svg } = (await import(`../../src/providers/marks/${mark}.ts`)) as { default: string }
    expect(svg).toMatch(/^<svg [^>]*viewBox="[^"]+"[^>]*>.*<\/svg>$/s)
    expect(svg).not.toContain("currentColor")
  })

  // The wiring: every provider with a mark imports exactly its own, and nothing else does.
  it.each(markLoaders().map(({ id, file, loader }) => [id, file, loader] as const))("%s (%s) loads its own mark", (_, file, loader) => {
    const source = readFileSync(new URL(`../../src/providers/${file}`, import.meta.url), "utf8")
    expect(source).toContain(loader)
    expect(source.match(/import\("\.\/(logos|marks)\//g)).toHaveLength(1)
  })

  it("no module outside a provider's own file imports a mark", () => {
    const wired = new Set(markLoaders().map(({ file }) => file))
    const offenders = readdirSync(new URL("../../src/providers/", import.meta.url))
      .filter((file) => file.endsWith(".ts") && !wired.has(file))
      .filter((file) => /(logos|marks)\//.test(readFileSync(new URL(`../../src/providers/${file}`, import.meta.url), "utf8")))
    expect(wired.size).toBeGreaterThan(Object.keys(BRAND_MARKS).length)
    expect(offenders).toEqual([])
  })

  it("the sign-in page gets a configured provider's mark through its style.mark, and none for a provider without one", async () => {
    const [github, google, custom] = resolveProviders(
      [GitHub({ clientId: "id", clientSecret: "secret" }), Google({ clientId: "id", clientSecret: "secret" }), { id: "acme", name: "Acme", type: "oauth", clientId: "id", clientSecret: "secret", authorization: "https://acme.test/authorize", token: "https://acme.test/token", userinfo: "https://acme.test/userinfo" }],
      { baseUrl: "https://app.example.com/auth", env: {} }
    )
    expect(await logoMarkup(github!)).toBe((await import("../../src/providers/logos/github.js")).default)
    expect(await logoMarkup(google!)).toBe((await import("../../src/providers/marks/google.js")).default)
    expect(await logoMarkup(custom!)).toBeUndefined()
  })
})
