/**
 * Environment lookups, in one guarded place. Web runtimes may have no `process` at all, so every
 * read goes through {@link readEnv}, which answers `undefined` there instead of throwing.
 *
 * @module
 */

/** The variables latchkey reads, as a plain record. */
export type EnvRecord = Record<string, string | undefined>

/** The process environment where one exists, else an empty record. */
export function processEnv(): EnvRecord {
  const env = (globalThis as { process?: { env?: EnvRecord } }).process?.env
  return env ?? {}
}

/** Reads one variable, treating an empty string as unset. */
export function readEnv(name: string, env: EnvRecord = processEnv()): string | undefined {
  const value = env[name]
  return value === undefined || value === "" ? undefined : value
}

/**
 * The session secrets from the environment, newest first. Rotation follows Auth.js v5, so the same
 * variables keep working after a migration: `AUTH_SECRET_3`, `AUTH_SECRET_2`, `AUTH_SECRET_1`,
 * then `AUTH_SECRET`. To rotate, add the new secret under the next free number; tokens are then
 * written with it, and the older ones are still read.
 */
export function secretsFromEnv(env: EnvRecord = processEnv()): string[] {
  const secrets: string[] = []
  for (const name of ["AUTH_SECRET_3", "AUTH_SECRET_2", "AUTH_SECRET_1", "AUTH_SECRET"]) {
    const value = readEnv(name, env)
    if (value !== undefined) secrets.push(value)
  }
  return secrets
}
