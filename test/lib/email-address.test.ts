// normalizeEmailAddress answers ASCII addresses without Unicode's tables, and checks the shape with
// one pattern (issue 27: the limiter reads the address on every attempt). Neither may change one
// answer, so every answer here is compared with the rules written out in full: refuse invisible
// characters, NFKC-fold, refuse a folded "@", trim, lower-case, fold again, then check the shape
// by splitting on "@" and ".".
import { describe, expect, it } from "vitest"
import { normalizeEmailAddress } from "../../src/lib/email-address.js"

const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u
const FORBIDDEN = /[\s\x00-\x1f\x7f,;<>"()[\]\\:]/
const ats = (value: string) => value.split("@").length - 1

/** The plain-address shape by splitting: one "@", a local part of 1–64, two or more labels of 1–63, no forbidden character. */
function isPlainBySplitting(value: string): boolean {
  if (value.length > 320 || FORBIDDEN.test(value) || ats(value) !== 1) return false
  const [local, domain] = value.split("@") as [string, string]
  const labels = domain.split(".")
  return local.length >= 1 && local.length <= 64 && labels.length >= 2 && labels.every((label) => label.length >= 1 && label.length <= 63)
}

/** The long way, through every table, for any input. */
function longWay(raw: string, normalizeIdentifier?: (identifier: string) => string): string | undefined {
  if (raw === "" || raw.length > 320 || INVISIBLE.test(raw)) return undefined
  const folded = raw.normalize("NFKC")
  if (ats(folded) !== ats(raw)) return undefined
  const value = normalizeIdentifier ? normalizeIdentifier(folded) : folded.trim().toLowerCase().normalize("NFKC")
  return isPlainBySplitting(value) ? value : undefined
}

/** Every ASCII character in each place an address has: the local part, beside "@", in the domain, at the ends. */
function asciiSpellings(): string[] {
  const spellings: string[] = []
  for (let code = 0; code < 128; code++) {
    const c = String.fromCharCode(code)
    spellings.push(`${c}ada@example.com`, `ad${c}a@example.com`, `ada${c}@example.com`, `ada@${c}example.com`, `ada@exam${c}ple.com`, `ada@example.com${c}`, `ada@example${c}com`, `ADA@${c}`)
  }
  const lengths = [`${"a".repeat(64)}@example.com`, `${"a".repeat(65)}@example.com`, `ada@${"b".repeat(63)}.com`, `ada@${"b".repeat(64)}.com`, `ada@example.${"c".repeat(63)}`, `ada@example.${"c".repeat(64)}`]
  const labels = ["ada@b.c.d.e", "ada@.example.com", "ada@example..com", "ada@example.com.", `ada@${"b.".repeat(150)}c`, `ada@${"b.".repeat(150)}`, `a@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.${"e".repeat(63)}.${"f".repeat(50)}`]
  return [...spellings, ...lengths, ...labels, "  Ada@Example.COM  ", "ada@example", "@example.com", "ada@@example.com", "a".repeat(321), "ａｄａ＠example.com", "ada@exämple.com"]
}

describe("normalizeEmailAddress on ASCII", () => {
  it("answers exactly as the full rules do, for every ASCII character in every place and every length bound", () => {
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
