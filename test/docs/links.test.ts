// The newcomer pages link into each other and into the repository: every relative link must reach
// a file, and every `#anchor` into a page must reach a heading or an `<a id>` on it, so a guide
// never sends a reader to nothing. Anchors follow GitHub's rule: the heading's text, lower-cased,
// with punctuation dropped and spaces turned into hyphens.
import { existsSync, readFileSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = resolve(import.meta.dirname, "../..")
const PAGES = ["README.md", "CONTRIBUTING.md", "ARCHITECTURE.md", "docs/getting-started.md", "docs/custom-providers.md", "docs/troubleshooting.md", "docs/cli.md", "docs/cli-init.md", "docs/rate-limits.md", "docs/passwords.md", "docs/migrating-from-authjs.md"]

/** The anchors a page offers: its headings' slugs and its explicit ids. */
function anchorsOf(path: string): Set<string> {
  const text = readFileSync(path, "utf8").replace(/```[\s\S]*?```/g, "")
  const headings = [...text.matchAll(/^#+ (.+)$/gm)].map((match) => match[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/ /g, "-"))
  const ids = [...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((match) => match[1]!)
  return new Set([...headings, ...ids])
}

describe("links in the newcomer pages", () => {
  for (const page of PAGES) {
    it(`${page}: every relative link reaches a file, and every anchor a heading`, () => {
      const text = readFileSync(resolve(ROOT, page), "utf8").replace(/```[\s\S]*?```/g, "")
      const broken: string[] = []
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue
        const [file, anchor] = target!.split("#")
        const path = file ? resolve(ROOT, dirname(page), file) : resolve(ROOT, page)
        if (!existsSync(path)) broken.push(`${target}: no such file`)
        else if (anchor && path.endsWith(".md") && !anchorsOf(path).has(anchor)) broken.push(`${target}: no such anchor`)
      }
      expect(broken).toEqual([])
    })
  }
})
