// Regenerates src/providers/logos/<id>.ts, one module per provider mark, from simple-icons, and
// wires each provider to its own mark: the provider's `style` gets `mark: () => import(...)` (its
// logo module, or its hand-drawn multi-colour one in src/providers/marks/). Only the provider's
// import reaches its mark, so an app's bundle (and its sign-in page) carries only its providers'
// marks. Idempotent; test/providers/logos.test.ts checks the result.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as icons from "simple-icons"
import { logoIds, markLoaders, renderLogo } from "./provider-logos.mjs"

const dir = new URL("../src/providers/logos/", import.meta.url)
const ids = logoIds()
mkdirSync(dir, { recursive: true })
for (const file of readdirSync(dir)) if (!ids.includes(file.replace(/\.ts$/, ""))) rmSync(new URL(file, dir))
for (const id of ids) writeFileSync(new URL(`${id}.ts`, dir), renderLogo(id, icons))

let wired = 0
for (const { file, loader } of markLoaders()) {
  const url = new URL(`../src/providers/${file}`, import.meta.url)
  const source = readFileSync(url, "utf8")
  if (source.includes(loader)) continue
  const styles = source.match(/style: \{[^}]*\}/g) ?? []
  if (styles.length !== 1) throw new Error(`src/providers/${file}: expected one \`style: { … }\` to add the mark to, found ${styles.length}`)
  const style = styles[0].replace(/, mark: \(\) => import\("[^"]*"\)/, "")
  writeFileSync(url, source.replace(styles[0], `${style.slice(0, -2)}, ${loader} }`))
  wired++
}
console.log(`${ids.length} logo modules written; ${wired} providers wired to their mark`)
