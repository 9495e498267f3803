import { defineConfig } from "tsup"
import { providerModules } from "./scripts/provider-catalog.mjs"

// One entry per provider module, so `latchkey/providers/<id>` loads that provider alone.
const providerEntries = Object.fromEntries(providerModules().map(({ name, path }) => [`providers/${name}`, path]))

export default defineConfig({
  entry: {
    index: "src/index.ts",
    jwt: "src/jwt/index.ts",
    types: "src/types.ts",
    providers: "src/providers/index.ts",
    ...providerEntries,
    oauth: "src/oauth/index.ts",
    node: "src/handler/node.ts",
    "backend/node": "src/jwt/backend/node.ts",
    "backend/webcrypto": "src/jwt/backend/webcrypto.ts",
    cli: "src/cli/node.ts",
  },
  format: ["esm"],
  dts: {
    entry: { index: "src/index.ts", jwt: "src/jwt/index.ts", types: "src/types.ts", providers: "src/providers/index.ts", ...providerEntries, oauth: "src/oauth/index.ts", node: "src/handler/node.ts" },
  },
  platform: "neutral",
  target: "es2022",
  splitting: true,
  treeshake: true,
  clean: true,
  // Resolved by the consumer's runtime or bundler through package.json "imports", so each
  // environment picks its own crypto backend.
  external: ["#crypto-backend", /^node:/],
  removeNodeProtocol: false,
})
