// The adapter contract of test/adapters/contract.test.ts, run unchanged over tables created from
// the SQL `latchkey schema` writes instead of the hand-written files in test/adapters/sql/: the
// matrix module is swapped for one whose entries (same names but MariaDB's, same adapters, same drivers) set up
// their stores from the generated schema, so every quirk written down there applies here too.
import { vi } from "vitest"

vi.mock("../adapters/matrix.js", async () => ({ adapterMatrix: (await import("./schema-support.js")).generatedMatrix }))

await import("../adapters/contract.test.js")
