/**
 * What `latchkey doctor` found, one line each: a pass (`✓`), a note (`·`, such as a callback URL to
 * register) or a problem (`✗`) that always ends with the fix. Any problem makes the exit code 1,
 * so CI can run the command.
 */
import type { CliIO } from "../io.js"

/** Collects findings and prints them as they come. */
export interface DoctorReport {
  pass(line: string): void
  note(line: string): void
  /** A problem and the one thing to do about it. */
  problem(line: string, fix: string): void
  /** How many problems were found. */
  readonly problems: number
}

/** A report that prints to `io.out`. */
export function doctorReport(io: CliIO): DoctorReport {
  let problems = 0
  return {
    pass: (line) => io.out(`✓ ${line}`),
    note: (line) => io.out(`· ${line}`),
    problem(line, fix) {
      problems++
      io.out(`✗ ${line} Fix: ${fix}`)
    },
    get problems() {
      return problems
    },
  }
}
