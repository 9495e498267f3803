import { readdirSync, readFileSync } from "node:fs"
import * as icons from "simple-icons"
import { describe, expect, it } from "vitest"
import { renderLogo, SIMPLE_ICONS } from "../../scripts/provider-logos.mjs"

const dir = new URL("../../src/providers/logos/", import.meta.url)

describe("provider logos", () => {
  it("has exactly one module per mapped provider", () => {
    expect(readdirSync(dir).map((file) => file.replace(/\.ts$/, "")).sort()).toEqual(Object.keys(SIMPLE_ICONS).sort())
  })

  it("maps at least one provider to a simple-icons logo", () => {
    expect(Object.keys(SIMPLE_ICONS).length).toBeGreaterThan(0)
  })

  it.each(Object.keys(SIMPLE_ICONS))("logos/%s.ts matches simple-icons (regenerate with scripts/generate-provider-logos.mjs)", (id) => {
    const committed = readFileSync(new URL(`${id}.ts`, dir), "utf8")
    expect(committed).toBe(renderLogo(id, icons as unknown as Record<string, unknown>))
    expect(committed).toMatch(/export default "[Mm][\d.\s,\-A-Za-z]+"/)
  })
})
