// Regenerates docs/providers.md from the built provider modules (run `npm run build` first).
import { mkdirSync, writeFileSync } from "node:fs"
import { providerModules, renderProviderDocs } from "./provider-catalog.mjs"

const configs = []
for (const { name } of providerModules()) {
  const { default: factory } = await import(new URL(`../dist/providers/${name}.js`, import.meta.url))
  configs.push(factory({ authorize: () => null }))
}
mkdirSync(new URL("../docs/", import.meta.url), { recursive: true })
writeFileSync(new URL("../docs/providers.md", import.meta.url), renderProviderDocs(configs))
console.log(`docs/providers.md: ${configs.length} providers`)
