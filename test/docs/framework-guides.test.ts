// What the Next.js and SvelteKit guides tell a newcomer before any code: the install step is the
// README's (latchkey is not on npm yet, so `npm install latchkey` alone is a 404), and the SvelteKit
// origin setting has its SvelteKit 2 form beside the SvelteKit 3 one.
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { describe, expect, it } from "vitest"

const read = (path: string) => readFileSync(resolve(import.meta.dirname, "../..", path), "utf8")
const README_INSTALL = /```sh\n(npm install \.\.\/latchkey\/latchkey-[\d.]+\.tgz)\n```/.exec(read("README.md"))?.[1]

/** Setup's first step, on one line. */
function installStep(guide: string): string {
  return /## Setup\n\n1\. ([\s\S]*?)\n2\. /.exec(read(guide))![1]!.replace(/\s+/g, " ")
}

describe("the framework guides' Setup", () => {
  for (const guide of ["docs/frameworks/nextjs.md", "docs/frameworks/sveltekit.md"]) {
    it(`${guide} installs latchkey as the README does`, () => {
      expect(README_INSTALL).toBeDefined()
      const step = installStep(guide)
      expect(step).toContain(`\`${README_INSTALL}\``)
      expect(step).toContain("(../../README.md#install)")
    })
  }

  it("sveltekit.md gives the origin for SvelteKit 2 too, where paths.origin is refused", () => {
    const page = read("docs/frameworks/sveltekit.md").replace(/\s+/g, " ")
    expect(page).toContain("set `paths: { origin }` in the `sveltekit()` plugin options")
    expect(page).toMatch(/SvelteKit 2 .*`ORIGIN` environment variable/)
  })
})
