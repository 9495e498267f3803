import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const backend = (name: string) => fileURLToPath(new URL(`./src/jwt/backend/${name}.ts`, import.meta.url))

// The token suites run twice, once per crypto backend, because each runtime ships exactly one of
// them: Node gets node:crypto, every other runtime gets WebCrypto.
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        resolve: { alias: { "#crypto-backend": backend("node") } },
        test: { name: "node-crypto", include: ["test/**/*.test.ts"] },
      },
      {
        extends: true,
        resolve: { alias: { "#crypto-backend": backend("webcrypto") } },
        test: { name: "webcrypto", include: ["test/jwt/**/*.test.ts"] },
      },
    ],
  },
})
