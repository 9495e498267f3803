// Regenerates src/providers/ids.ts from the built provider modules (run `npm run build` first).
import { writeFileSync } from "node:fs"
import { providerModules, renderIds } from "./provider-catalog.mjs"

const oauth = []
const other = []
for (const { name } of providerModules()) {
  const { default: factory } = await import(new URL(`../dist/providers/${name}.js`, import.meta.url))
  const config = factory({ authorize: () => null })
  ;(config.type === "oauth" || config.type === "oidc" ? oauth : other).push(config.id)
}
writeFileSync(new URL("../src/providers/ids.ts", import.meta.url), renderIds({ oauth: oauth.sort(), other: other.sort() }))
console.log(`ids.ts: ${oauth.length} OAuth/OIDC providers, ${other.length} others`)
