// docs/troubleshooting.md must keep one section per code the library can surface, so that a log
// line or an error page can link `troubleshooting.md#<code>` and land on its fix. The codes are
// read from the source itself (error classes, warnings, debug codes, the browser's `?error=`
// codes and the client's own), so a new code without a section fails here, and so does a
// section whose code no longer exists.
import { readdirSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { ERROR_MESSAGES } from "../../src/handler/errors.js"

const ROOT = resolve(import.meta.dirname, "../..")
const PAGE = readFileSync(join(ROOT, "docs/troubleshooting.md"), "utf8")

/** Every .ts file under src/, with its text. */
function sources(dir = join(ROOT, "src")): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith(".ts") ? [{ path, text: readFileSync(path, "utf8") }] : []
  })
}

/** The patterns a code is written with in src/: an error class's code, a warning, a debug line's code. */
const CODE_PATTERNS = [
  /readonly code(?:: string)? = "([A-Z][A-Z_]+)"/g,
  /logger\.warn\("([A-Z][A-Z_]+)"/g,
  /\bcode: "(ERR_[A-Z_]+)"/g,
  // A warning whose code is chosen at the call: `logger.warn(cond ? "A" : "B", ...)`.
  /logger\.warn\([^,]*?\? "([A-Z][A-Z_]+)" : "[A-Z][A-Z_]+"/g,
  /logger\.warn\([^,]*?\? "[A-Z][A-Z_]+" : "([A-Z][A-Z_]+)"/g,
  // A once-only warning: `diagnostics.warnOnce(key, "CODE", message)`.
  /warnOnce\(\s*[^,]+,\s*"([A-Z][A-Z_]+)"/g,
]

function codesInSource(): Set<string> {
  const codes = new Set<string>()
  for (const { text } of sources()) for (const pattern of CODE_PATTERNS) for (const match of text.matchAll(pattern)) codes.add(match[1]!)
  return codes
}

/** The client's own codes, the ones beyond the handler's: `AuthClientError = ClientErrorCode | "A" | "B"`. */
function clientOnlyCodes(): string[] {
  const text = readFileSync(join(ROOT, "src/client/types.ts"), "utf8")
  const union = /export type AuthClientError = ClientErrorCode((?:\s*\|\s*"\w+")+)/.exec(text)
  if (!union) throw new Error("src/client/types.ts: AuthClientError is no longer `ClientErrorCode | \"…\"`; update this test's reader")
  return [...union[1]!.matchAll(/"(\w+)"/g)].map((match) => match[1]!)
}

const browserCodes = Object.keys(ERROR_MESSAGES).filter((code) => code !== "Default")
const expected = new Set([...codesInSource(), ...browserCodes, ...clientOnlyCodes()])

/** Each section: its anchor, and the text up to the next anchor. */
const sections = new Map([...PAGE.matchAll(/<a id="([^"]+)"><\/a>\n([\s\S]*?)(?=\n<a id="|$)/g)].map((match) => [match[1]!, match[2]!]))

describe("docs/troubleshooting.md", () => {
  it("reads the codes it checks from the source", () => {
    // A floor, so a reader that silently stopped matching cannot pass by finding nothing.
    expect(codesInSource()).toContain("ERR_INVALID_CHECK")
    expect(codesInSource()).toContain("ERR_RATE_LIMITED")
    expect(codesInSource()).toContain("SESSION_SECRET_MISMATCH")
    expect(codesInSource()).toContain("ERR_SESSION_NOT_BOUND")
    expect(browserCodes).toContain("MissingCSRF")
    expect(clientOnlyCodes()).toContain("NetworkError")
  })

  it("has a section, anchored by the code, for every code the library can surface", () => {
    const missing = [...expected].filter((code) => !sections.has(code)).sort()
    expect(missing, "add a section with <a id=\"CODE\"></a> and a ### CODE heading").toEqual([])
  })

  it("has no section for a code the source no longer has", () => {
    const stale = [...sections.keys()].filter((code) => !expected.has(code)).sort()
    expect(stale).toEqual([])
  })

  it("gives every section its code as the heading, what it means, and the fix", () => {
    const incomplete = [...sections].filter(([code, text]) => !text.startsWith(`### ${code}\n`) || !text.includes("**What it means.**") || !text.includes("**Fix.**"))
    expect(incomplete.map(([code]) => code)).toEqual([])
  })

  it("links only to anchors the page has", () => {
    const headings = [...PAGE.matchAll(/^## (.+)$/gm)].map((match) => match[1]!.toLowerCase().replace(/[^\w\s-]/g, "").replace(/\s+/g, "-"))
    const targets = [...PAGE.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1]!)
    expect(targets.filter((target) => !sections.has(target) && !headings.includes(target))).toEqual([])
  })
})
