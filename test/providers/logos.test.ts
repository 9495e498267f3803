import { readFileSync } from "node:fs"
import * as icons from "simple-icons"
import { describe, expect, it } from "vitest"
import { renderLogos, SIMPLE_ICONS } from "../../scripts/provider-logos.mjs"
import { providerLogoPaths } from "../../src/providers/logos.js"

describe("provider logos", () => {
  it("src/providers/logos.ts matches simple-icons (regenerate with scripts/generate-provider-logos.mjs)", () => {
    const committed = readFileSync(new URL("../../src/providers/logos.ts", import.meta.url), "utf8")
    expect(committed).toBe(renderLogos(icons as unknown as Record<string, { path: string }>))
  })

  it("has a mark for every mapped provider, as SVG path data", () => {
    expect(Object.keys(providerLogoPaths).sort()).toEqual(Object.keys(SIMPLE_ICONS).sort())
    for (const path of Object.values(providerLogoPaths)) expect(path).toMatch(/^[Mm][\d.\s,\-A-Za-z]+$/)
  })
})
