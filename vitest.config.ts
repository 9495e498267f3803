import { fileURLToPath } from "node:url"
import { configDefaults, defineConfig } from "vitest/config"

const backend = (name: string) => fileURLToPath(new URL(`./src/jwt/backend/${name}.ts`, import.meta.url))

// The heavy suites (a real browser, spawned demo apps) run once per CI run, on one Node version:
// .ci/run sets LATCHKEY_SKIP_HEAVY for the other versions and prints that it did.
const exclude = process.env.LATCHKEY_SKIP_HEAVY ? [...configDefaults.exclude, "test/e2e/**"] : configDefaults.exclude

// The token suites run twice, once per crypto backend, because each runtime ships exactly one of
// them: Node gets node:crypto, every other runtime gets WebCrypto.
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        resolve: { alias: { "#crypto-backend": backend("node") } },
        test: { name: "node-crypto", include: ["test/**/*.test.ts"], exclude },
      },
      {
        extends: true,
        resolve: { alias: { "#crypto-backend": backend("webcrypto") } },
        test: { name: "webcrypto", include: ["test/jwt/**/*.test.ts"] },
      },
    ],
  },
})
