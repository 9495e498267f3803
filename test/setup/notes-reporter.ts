// The end of `npm test`: what the suites printed on purpose, in one block just before vitest's
// summary. The run is silent for passing tests (vitest.config.ts, `silent: "passed-only"`), which
// drops the hundreds of lines that are only noise there: oidc-provider's notices and the
// `[latchkey]` log lines that tests provoke on purpose. What the suites print for the reader, the
// adversarial counts ("… tried, … rejected, 0 accepted") and the reasons a suite skipped, is kept
// here, once each. A failing test still shows its whole console output beside its failure.
import type { UserConsoleLog } from "vitest"
import type { Reporter } from "vitest/node"

/** Lines that are noise in a passing run: the embedded provider's notices, and logs a test provoked. */
const NOISE = [/^oidc-provider (NOTICE|WARNING): /, /^\[latchkey\]\[(error|warn|debug)\]/]

export default class NotesReporter implements Reporter {
  readonly #notes = new Set<string>()

  onUserConsoleLog(log: UserConsoleLog): void {
    // One console call is one entry, its metadata object on the lines after the first.
    if (NOISE.some((pattern) => pattern.test(log.content.trimStart()))) return
    for (const line of log.content.split("\n")) if (line.trim() !== "") this.#notes.add(line.trimEnd())
  }

  onTestRunEnd(): void {
    if (this.#notes.size === 0) return
    const lines = [...this.#notes].map((note) => `  ${note}`)
    process.stdout.write(`\n Notes from the suites (each once; a failing test's output is shown with its failure):\n${lines.join("\n")}\n`)
  }
}
