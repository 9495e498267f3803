/**
 * What every check of `latchkey doctor` reads: the app's environment (process environment over
 * `.env.local` over `.env`), its configuration when one loads (and why not, when it does not), its
 * package.json dependencies, `AUTH_URL` parsed, and the clock and network, passed in so a test can
 * seed a skewed clock.
 */
import type { AuthConfig } from "../../handler/options.js"

/** The flags of `doctor`. */
export interface DoctorOptions {
  config?: string
  /** The URL the developer opens in the browser, compared with `AUTH_URL`. */
  url?: string
  databaseUrl?: string
  adapter?: string
  /** What the app uses, as `schema --with` takes it: added to the configuration's for the table check. */
  with?: string
  /** Skip the checks that reach providers over the network. */
  offline: boolean
}

/** The inputs of the checks. */
export interface DoctorContext {
  env: Record<string, string>
  /** Where each variable came from: a file name or "the environment". */
  sources: Record<string, string>
  config: AuthConfig<any, any> | undefined
  /** Why the configuration did not load (its error code), when it exists but failed. */
  configFailure: string | undefined
  /** The packages the app's package.json depends on, for what the configuration cannot tell. */
  dependencies: ReadonlySet<string>
  options: DoctorOptions
  now(): number
  fetch: typeof fetch
}

/** `AUTH_URL` (or next-auth's `NEXTAUTH_URL`) as written, and its name. */
export function authUrlSetting(context: DoctorContext): { name: string; value: string } | undefined {
  for (const name of ["AUTH_URL", "NEXTAUTH_URL"]) {
    const value = context.env[name]
    if (value !== undefined && value !== "") return { name, value }
  }
  return undefined
}

/** Whether a host name is this machine. */
export function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === "[::1]"
}
