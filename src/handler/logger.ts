/**
 * The logger in force for a handler: the app's methods level by level, else the console, each line
 * prefixed `[latchkey]` with its level and the error's code, as Auth.js logs.
 */
import type { LoggerInstance } from "../types.js"

/** The code of an error for a log line: a latchkey code, else the error's name. */
function codeOf(error: Error): string {
  const code = (error as { code?: unknown }).code
  return typeof code === "string" ? code : error.name
}

/**
 * A warning's metadata as the rest of its line: the `message` as it is, any other fields as
 * compact JSON, so each warning is one greppable line (`[latchkey][warn] CODE: message`) and not
 * a multi-line object dump.
 */
function warningText(metadata: unknown): string {
  if (metadata === undefined) return ""
  if (typeof metadata !== "object" || metadata === null) return `: ${String(metadata)}`
  const { message, ...rest } = metadata as { message?: unknown }
  const extra = Object.keys(rest).length > 0 ? ` ${compactJson(rest)}` : ""
  return typeof message === "string" ? `: ${message}${extra}` : `:${extra}`
}

/** Metadata on the same line; a value JSON cannot write (a cycle, a bigint) is named, not thrown. */
function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return "(metadata that is not JSON)"
  }
}

/**
 * The logger in force. Nothing is silent by default: a missing client id or a bad issuer must show
 * up in the server's log, not only as "Sign-in is not available right now" in the browser.
 */
export function settleLogger(custom: LoggerInstance = {}, debug = false): Required<LoggerInstance> {
  const quiet = () => {}
  return {
    error: custom.error ?? ((error) => console.error(`[latchkey][error] ${codeOf(error)}: ${error.message}`)),
    warn: custom.warn ?? ((code, metadata) => console.warn(`[latchkey][warn] ${code}${warningText(metadata)}`)),
    debug: debug ? (custom.debug ?? ((message, metadata) => console.debug(`[latchkey][debug] ${message}${metadata === undefined ? "" : ` ${compactJson(metadata)}`}`))) : quiet,
  }
}
