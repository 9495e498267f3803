// normalizeEmailAddress answers ASCII addresses without Unicode's tables (issue 27: the limiter
// reads the address on every attempt). The shortcut must not change one answer, so every answer
// here is compared with the rules written out in full: refuse invisible characters, NFKC-fold,
// refuse a folded "@", trim, lower-case, fold again, then check the plain-address shape.
import { describe, expect, it } from "vitest"
import { normalizeEmailAddress } from "../../src/lib/email-address.js"

const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u
const ats = (value: string) => value.split("@").length - 1

/** The long way, through every table, for any input. */
function longWay(raw: string, normalizeIdentifier?: (identifier: string) => string): string | undefined {
  if (raw === "" || raw.length > 320 || INVISIBLE.test(raw)) return undefined
  const folded = raw.normalize("NFKC")
  if (ats(folded) !== ats(raw)) return undefined
  const value = normalizeIdentifier ? normalizeIdentifier(folded) : folded.trim().toLowerCase().normalize("NFKC")
  // Compared through the shortcut's own shape check: only the way there differs.
  return normalizeEmailAddress(value, (identifier) => identifier) === value ? value : undefined
}

/** Every ASCII character in each place an address has: the local part, beside "@", in the domain, at the ends. */
function asciiSpellings(): string[] {
  const spellings: string[] = []
  for (let code = 0; code < 128; code++) {
    const c = String.fromCharCode(code)
    spellings.push(`${c}ada@example.com`, `ad${c}a@example.com`, `ada${c}@example.com`, `ada@${c}example.com`, `ada@exam${c}ple.com`, `ada@example.com${c}`, `ada@example${c}com`, `ADA@${c}`)
  }
  return [...spellings, "  Ada@Example.COM  ", "ada@example", "@example.com", "ada@@example.com", `${"a".repeat(65)}@example.com`, `ada@${"b".repeat(64)}.com`, "a".repeat(321)]
}

describe("normalizeEmailAddress on ASCII", () => {
  it("answers exactly as the full Unicode rules do, for every ASCII character in every place", () => {
    const spellings = asciiSpellings()
    expect(spellings.length).toBeGreaterThan(1000)
    let accepted = 0
    for (const raw of spellings) {
      expect(normalizeEmailAddress(raw), JSON.stringify(raw)).toBe(longWay(raw))
      if (normalizeEmailAddress(raw) !== undefined) accepted++
    }
    // Both kinds of answer are exercised: a shortcut that refused everything would fail above.
    expect(accepted).toBeGreaterThan(100)
    expect(normalizeEmailAddress("  Ada@Example.COM  ")).toBe("ada@example.com")
  })

  it("hands the app's normalizeIdentifier the same text either way", () => {
    const seen: string[] = []
    const keepCase = (identifier: string) => (seen.push(identifier), identifier.trim())
    expect(normalizeEmailAddress(" Ada@Example.com", keepCase)).toBe("Ada@Example.com")
    expect(seen).toEqual([" Ada@Example.com"])
  })

  it("still folds and refuses what only Unicode holds", () => {
    expect(normalizeEmailAddress("Ａｄａ@example.com")).toBe("ada@example.com")
    expect(normalizeEmailAddress("ada\u200b@example.com")).toBeUndefined()
    expect(normalizeEmailAddress("ada\uff20example.com")).toBeUndefined()
    expect(normalizeEmailAddress("ädä@exämple.com")).toBe(longWay("ädä@exämple.com"))
  })
})
