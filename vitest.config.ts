import { fileURLToPath } from "node:url"
import { configDefaults, defineConfig } from "vitest/config"

const backend = (name: string) => fileURLToPath(new URL(`./src/jwt/backend/${name}.ts`, import.meta.url))
// The tests run the development build of the hints; test/runtime/production-build.test.ts bundles the production one.
const development = fileURLToPath(new URL("./src/handler/development.ts", import.meta.url))
const passwordKdf = (name: string) => fileURLToPath(new URL(`./src/passwords/kdf/${name}.ts`, import.meta.url))

// The heavy suites (a real browser, spawned and built apps) run once per CI run: test/e2e/ on the
// first Node version, and test/e2e-node22/ (the SvelteKit 3 app, which needs Node 22.17+) on the
// Node 22 run. .ci/run sets LATCHKEY_SKIP_HEAVY for the runs that leave test/e2e/ out, and
// LATCHKEY_HEAVY_NODE22 on the one run that keeps test/e2e-node22/; below Node 22.17 that suite
// skips with its reason.
const heavy = process.env.LATCHKEY_SKIP_HEAVY ? ["test/e2e/**", ...(process.env.LATCHKEY_HEAVY_NODE22 ? [] : ["test/e2e-node22/**"])] : []
const exclude = [...configDefaults.exclude, ...heavy]

// The token suites run twice, once per crypto backend, because each runtime ships exactly one of
// them: Node gets node:crypto, every other runtime gets WebCrypto.
export default defineConfig({
  test: {
    // A calm run: console output only from failing tests, printed beside the failure; what the
    // suites print on purpose (attack counts, skip reasons) comes once, at the end, from the notes
    // reporter. Slow tests are listed only past 10 s (the heavy e2e ones), not every test past 300 ms.
    silent: "passed-only",
    reporters: ["./test/setup/notes-reporter.ts", "default"],
    slowTestThreshold: 10_000,
    projects: [
      {
        extends: true,
        resolve: { alias: { "#crypto-backend": backend("node"), "#password-kdf": passwordKdf("node"), "#development": development } },
        test: { name: "node-crypto", include: ["test/**/*.test.ts"], exclude },
      },
      {
        extends: true,
        resolve: { alias: { "#crypto-backend": backend("webcrypto"), "#password-kdf": passwordKdf("webcrypto"), "#development": development } },
        // The JWT codec, and the rate limiter's keyed hash, whose WebCrypto path answers promises.
        test: { name: "webcrypto", include: ["test/jwt/**/*.test.ts", "test/rate-limits/identifier.test.ts"] },
      },
    ],
  },
})
