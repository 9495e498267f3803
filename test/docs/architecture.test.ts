// ARCHITECTURE.md is a newcomer's map: it must not drift from the code it maps. Its floor table must
// say what scripts/check-layers.mjs enforces, and every source path it names must exist.
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { FLOORS } from "../../scripts/check-layers.mjs"

const root = join(import.meta.dirname, "..", "..")
const text = readFileSync(join(root, "ARCHITECTURE.md"), "utf8")

/** The floor table's rows: floor number, and the places (backquoted) in its second column. */
function tableFloors(): { floor: number; places: string[] }[] {
  const rows = text.split("\n").filter((line) => /^\|\s*\d+\s*\|/.test(line))
  return rows.map((row) => {
    const [, floor, folders] = row.split("|")
    const places = [...folders!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!)
    return { floor: Number(floor), places }
  })
}

describe("ARCHITECTURE.md", () => {
  it("lists the floors, lowest first, with the places check-layers.mjs puts on each", () => {
    expect(tableFloors()).toEqual(FLOORS.map(({ floor, places }) => ({ floor, places: [...places] })))
  })

  it("names only source files and folders that exist", () => {
    const named = [...text.matchAll(/`((?:adapters|handler|jwt|oauth|provider-tokens|webauthn|lib|redis)\/[\w./-]+\.ts)`/g)].map((match) => match[1]!)
    expect(named.length).toBeGreaterThan(10)
    for (const path of new Set(named)) expect(existsSync(join(root, "src", path)), path).toBe(true)
  })
})
