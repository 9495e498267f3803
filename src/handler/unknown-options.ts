/**
 * A warning for each `createAuth` option latchkey does not know, with the nearest known name: a
 * typo (`sesion`, `callback`, `pages.signin`) is otherwise ignored in silence, and the app runs on
 * the default it meant to change. The keys inside `pages`, `session`, `callbacks`, `events`, `jwt`
 * and `theme` are checked too, since an Auth.js config brings its own there, and Auth.js's
 * `callbacks.authorized` is told where it moved. The lists are typed against `AuthConfig`, so an
 * option added there without being added here fails the type check instead of being warned about.
 */
import { closestName, didYouMean } from "../lib/did-you-mean.js"
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

/** The options that are records of options themselves, whose keys an Auth.js config may bring. */
type Section = "pages" | "session" | "callbacks" | "events" | "jwt" | "theme"

/** Every key of each {@link Section}, typed like {@link KNOWN_OPTIONS}. */
const KNOWN_KEYS: { [S in Section]: Record<keyof NonNullable<AuthConfig[S]>, true> } = {
  pages: { signIn: true, signOut: true, error: true, verifyRequest: true, newUser: true },
  session: { strategy: true, maxAge: true, updateAge: true, cache: true, revocationStore: true, sharedAcrossSubdomains: true },
  callbacks: { signIn: true, redirect: true, jwt: true, session: true },
  events: { signIn: true, signOut: true, createUser: true, updateUser: true, session: true, linkAccount: true, rateLimited: true },
  jwt: { maxAge: true, encode: true, decode: true },
  theme: { brandColor: true, logo: true, colorScheme: true, buttonText: true },
}

/**
 * Auth.js options that latchkey takes somewhere else, with where: a config moved from Auth.js still
 * carries them, and without a word the app would run as if they guarded it.
 */
const MOVED: Readonly<Record<string, string>> = {
  "callbacks.authorized": "Auth.js's middleware callback moved to proxy({ authorized }), the proxy Latchkey() of latchkey/next returns, exported from proxy.ts (middleware.ts before Next.js 16)",
}

/** Warns about each own key of `config` that is not an option, suggesting the nearest one. */
export function warnOnUnknownOptions(config: object, logger: Required<LoggerInstance>): void {
  const known = Object.keys(KNOWN_OPTIONS)
  for (const key of Object.keys(config)) {
    if (Object.hasOwn(KNOWN_OPTIONS, key)) continue
    logger.warn("UNKNOWN_OPTION", { message: `createAuth has no option "${key.slice(0, 64)}", so it is ignored${didYouMean(key, known)}` })
  }
  for (const section of Object.keys(KNOWN_KEYS) as Section[]) warnOnUnknownKeys(section, (config as AuthConfig)[section], logger)
}

/**
 * Warns about each own key of the `section` option that latchkey does not read, naming where a
 * moved one went. A value that is not a plain record (absent, null, an array) is left to the
 * option's own checks.
 */
function warnOnUnknownKeys(section: Section, value: unknown, logger: Required<LoggerInstance>): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return
  const known = KNOWN_KEYS[section]
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(known, key)) continue
    const path = `${section}.${key.slice(0, 64)}`
    if (Object.hasOwn(MOVED, path)) {
      logger.warn("MOVED_OPTION", { message: `createAuth never reads the option "${path}": ${MOVED[path]}` })
      continue
    }
    // By the key alone: the typo threshold grows with length, so the shared `section.` would loosen it.
    const nearest = closestName(key, Object.keys(known))
    logger.warn("UNKNOWN_OPTION", { message: `createAuth has no option "${path}", so it is ignored${nearest === undefined ? "" : `; did you mean "${section}.${nearest}"?`}` })
  }
}
