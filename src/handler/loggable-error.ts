/**
 * What the handler logs for a failure that escaped a route. Its own errors are logged as they are.
 * A database driver's error that reached this far (an adapter method called without a wrapper)
 * would print the driver's message, which may quote the values it was handed, such as an email
 * in MySQL's duplicate entry: it is logged as an `AdapterError` with the driver's code and what
 * that code means instead. Anything else is the app's own error (a callback threw), logged as it is.
 */
import { AdapterError, LatchkeyError } from "../errors.js"

/** How deep a cause chain is searched for the driver's error: an ORM's wrapper, its driver's, and a little slack. */
const CAUSE_DEPTH = 4

/** The first error in `failure`'s cause chain that carries a string `code`, if any. */
function codedLink(failure: unknown): object | undefined {
  let link = failure
  for (let depth = 0; depth < CAUSE_DEPTH && typeof link === "object" && link !== null; depth++) {
    if (typeof (link as { code?: unknown }).code === "string") return link
    link = (link as { cause?: unknown }).cause
  }
  return undefined
}

/**
 * The error to hand the logger for `failure`. An ORM wraps its driver's error (Drizzle's
 * DrizzleQueryError quotes the query's parameters in its message and keeps the driver's code on its
 * cause), so the chain is searched. The driver codes' table loads only for an error with a code.
 */
export async function loggableError(failure: unknown): Promise<Error> {
  if (failure instanceof LatchkeyError) return failure
  const coded = codedLink(failure)
  if (coded !== undefined) {
    const hint = (await import("../lib/driver-errors.js")).driverErrorHint(coded)
    if (hint !== undefined) return new AdapterError("call", coded, hint)
  }
  return failure instanceof Error ? failure : new LatchkeyError("a value that is not an error was thrown.", { cause: failure })
}
