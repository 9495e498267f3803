// Tests that only typecheck give the same answer on every Node version: the TypeScript compiler
// and the declarations it reads are the same files whichever Node runs them. So CI runs them once,
// on the run that keeps the heavy suites, and .ci/run's later runs (which set LATCHKEY_SKIP_HEAVY)
// skip them, saying so once. `npm test` alone runs every one of them.
import { it } from "vitest"

const ranElsewhere = Boolean(process.env.LATCHKEY_SKIP_HEAVY)
if (ranElsewhere) console.log("typecheck-only tests: skipped on this run; they ran on the run with the heavy suites (TypeScript answers the same on every Node)")

/** `it` for a test that only typechecks: skipped on the runs that leave the heavy suites out. */
export function itTypechecks(name: string, test: () => void, timeout?: number): void {
  it.skipIf(ranElsewhere)(name, test, timeout)
}
