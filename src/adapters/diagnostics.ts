/**
 * Hints for the developer, on top of the errors themselves: whether the app runs in development
 * (where a hint may go to the browser too), and a warning that is logged once however often its
 * cause recurs. Hints only add log lines and page text; no request is answered differently.
 */
import { processEnv, readEnv, type EnvRecord } from "../env.js"
import type { LoggerInstance } from "../types.js"

/** Keys remembered by {@link Diagnostics.warnOnce}: enough for every distinct cause, bounded against request-made keys. */
const MAX_REMEMBERED = 64

/** The handler's diagnostics, settled once with the configuration. */
export interface Diagnostics {
  /** `NODE_ENV` is not `production`, or `debug` is on: hints may name configuration in pages. */
  readonly development: boolean
  /** Logs `code: message` as a warning the first time `key` is seen, and nothing after. */
  warnOnce(key: string, code: string, message: string): void
}

/**
 * Development is Node's convention (`NODE_ENV` other than `production`, unset included), read from
 * the config's `env` and then the process, or `debug: true`.
 */
function isDevelopment(env: EnvRecord, debug: boolean | undefined): boolean {
  if (debug === true) return true
  return (readEnv("NODE_ENV", env) ?? readEnv("NODE_ENV", processEnv())) !== "production"
}

/** The diagnostics of one `createAuth`. */
export function settleDiagnostics(env: EnvRecord, debug: boolean | undefined, logger: Required<LoggerInstance>): Diagnostics {
  const seen = new Set<string>()
  return {
    development: isDevelopment(env, debug),
    warnOnce(key, code, message) {
      if (seen.has(key) || seen.size >= MAX_REMEMBERED) return
      seen.add(key)
      logger.warn(code, { message })
    },
  }
}
