/**
 * A warning for each `createAuth` option latchkey does not know, with the nearest known name: a
 * typo (`sesion`, `callback`) is otherwise ignored in silence, and the app runs on the default it
 * meant to change. The list is typed against `AuthConfig`, so an option added there without being
 * added here fails the type check instead of being warned about.
 */
import { didYouMean } from "../lib/did-you-mean.js"
import type { LoggerInstance } from "../types.js"
import type { AuthConfig } from "./options.js"

/** Every option of {@link AuthConfig}. */
const KNOWN_OPTIONS: Record<keyof AuthConfig, true> = {
  providers: true,
  secret: true,
  basePath: true,
  session: true,
  jwt: true,
  callbacks: true,
  events: true,
  adapter: true,
  pages: true,
  theme: true,
  logger: true,
  debug: true,
  redirectProxyUrl: true,
  redirectProxyOrigins: true,
  trustHost: true,
  trustedProxy: true,
  rateLimits: true,
  useSecureCookies: true,
  cookies: true,
  fetch: true,
  timeout: true,
  env: true,
  webauthn: true,
  passwords: true,
  providerTokens: true,
}

/** Warns about each own key of `config` that is not an option, suggesting the nearest one. */
export function warnOnUnknownOptions(config: object, logger: Required<LoggerInstance>): void {
  const known = Object.keys(KNOWN_OPTIONS)
  for (const key of Object.keys(config)) {
    if (Object.hasOwn(KNOWN_OPTIONS, key)) continue
    logger.warn("UNKNOWN_OPTION", { message: `createAuth has no option "${key.slice(0, 64)}", so it is ignored${didYouMean(key, known)}` })
  }
}
