/**
 * What the handler logs for a failure that escaped a route. Its own errors are logged as they are.
 * A database driver's error that reached this far (an adapter method called without a wrapper)
 * would print the driver's message, which may quote the values it was handed, such as an email
 * in MySQL's duplicate entry: it is logged as an `AdapterError` with the driver's code and what
 * that code means instead. Anything else is the app's own error (a callback threw), logged as it is.
 */
import { AdapterError, LatchkeyError } from "../errors.js"

/** The error to hand the logger for `failure`. The driver codes' table loads only for an error with a code. */
export async function loggableError(failure: unknown): Promise<Error> {
  if (failure instanceof LatchkeyError) return failure
  if (typeof (failure as { code?: unknown } | null)?.code === "string") {
    const hint = (await import("../lib/driver-errors.js")).driverErrorHint(failure)
    if (hint !== undefined) return new AdapterError("call", failure, hint)
  }
  return failure instanceof Error ? failure : new LatchkeyError("a value that is not an error was thrown.", { cause: failure })
}
