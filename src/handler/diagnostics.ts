/**
 * Hints for the developer, on top of the errors themselves: whether the app runs in development
 * (where a hint may go to the browser too), a warning that is logged once however often its cause
 * recurs, and where the troubleshooting page for an error code lives. Everything here only adds
 * log lines and page text; no request is answered differently because of it.
 */
import { processEnv, readEnv, type EnvRecord } from "../env.js"
import type { LoggerInstance } from "../types.js"

/** The troubleshooting page, with one section per error code (its anchor is the code, lower-cased). */
export const TROUBLESHOOTING_PAGE = "docs/troubleshooting.md"

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

/** Where the troubleshooting page explains `code` (a latchkey `ERR_` code or a page's `?error=` code). */
export function troubleshootingLink(code: string): string {
  return `${TROUBLESHOOTING_PAGE}#${code.toLowerCase()}`
}

/**
 * The development hint under an error page's message: where the cause is logged, and the
 * troubleshooting section for the page's code (only a known code is named: `?error=` is
 * anyone's text).
 */
export function errorPageHint(code: string | null, knownCodes: readonly string[]): string {
  const section = code !== null && knownCodes.includes(code) ? code : "Default"
  return `Development: the cause is in the server's log, on the line that starts with [latchkey][error] and its code (such as ERR_OAUTH_CALLBACK). See ${troubleshootingLink(section)} for this page, and the section named by that code.`
}
