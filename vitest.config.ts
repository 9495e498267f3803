import { availableParallelism } from "node:os"
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
const [e2e, e2eNode22] = ["test/e2e/**", "test/e2e-node22/**"]
const heavySuites = [e2e, e2eNode22]
const skippedHeavy = process.env.LATCHKEY_SKIP_HEAVY ? [e2e, ...(process.env.LATCHKEY_HEAVY_NODE22 ? [] : [e2eNode22])] : []

// Most suites wait on a database, Redis or a child process more than they compute, so they run
// one worker per core. Vitest's default is one fewer, which on CI's two cores is one: every file
// in turn (measured on 2 cores: 887 s in turn against 709 s on two workers). The heavy suites
// share the example apps' folders and each keeps both cores busy building one, so they run after
// the rest, one file at a time.
const workers = Math.max(availableParallelism(), 2)
const light = { maxWorkers: workers, sequence: { groupOrder: 0 } }
/** The imports of one crypto backend (the runtime's token crypto and password hashing), and the development hints. */
const onBackend = (name: "node" | "webcrypto") => ({ alias: { "#crypto-backend": backend(name), "#password-kdf": passwordKdf(name), "#development": development } })

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
        resolve: onBackend("node"),
        test: { name: "node-crypto", include: ["test/**/*.test.ts"], exclude: [...configDefaults.exclude, ...heavySuites], ...light },
      },
      {
        extends: true,
        resolve: onBackend("node"),
        test: { name: "heavy", include: heavySuites.map((glob) => `${glob}/*.test.ts`), exclude: [...configDefaults.exclude, ...skippedHeavy], maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        resolve: onBackend("webcrypto"),
        // The JWT codec, and the rate limiter's keyed hash, whose WebCrypto path answers promises.
        test: { name: "webcrypto", include: ["test/jwt/**/*.test.ts", "test/rate-limits/identifier.test.ts"], ...light },
      },
    ],
  },
})
