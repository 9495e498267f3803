// Every public export carries TSDoc with an @example: typedoc's model of the public entries is read
// and any top-level export without one fails the check. Run by .ci/run after the API reference.
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const dir = mkdtempSync(join(tmpdir(), "latchkey-api-"))
try {
  const json = join(dir, "api.json")
  execFileSync(process.execPath, ["node_modules/typedoc/bin/typedoc", "--json", json, "--treatWarningsAsErrors", "false", "--logLevel", "Error"], { stdio: "inherit" })
  const model = JSON.parse(readFileSync(json, "utf8"))
  const missing = []
  let total = 0
  for (const module of model.children ?? []) {
    for (const child of module.children ?? []) {
      total++
      const comment = child.comment ?? child.signatures?.[0]?.comment
      if (!comment?.blockTags?.some((tag) => tag.tag === "@example")) missing.push(`${module.name}.${child.name}`)
    }
  }
  console.log(`${total - missing.length} of ${total} public exports have an @example`)
  if (missing.length > 0) {
    console.error(`missing @example: ${missing.join(", ")}`)
    process.exit(1)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
