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
 * The logger in force. Nothing is silent by default: a missing client id or a bad issuer must show
 * up in the server's log, not only as "Sign-in is not available right now" in the browser.
 */
export function settleLogger(custom: LoggerInstance = {}, debug = false): Required<LoggerInstance> {
  const quiet = () => {}
  return {
    error: custom.error ?? ((error) => console.error(`[latchkey][error] ${codeOf(error)}: ${error.message}`)),
    warn: custom.warn ?? ((code, metadata) => console.warn(`[latchkey][warn] ${code}`, ...(metadata === undefined ? [] : [metadata]))),
    debug: debug ? (custom.debug ?? ((message, metadata) => console.debug(`[latchkey][debug] ${message}`, ...(metadata === undefined ? [] : [metadata])))) : quiet,
  }
}
