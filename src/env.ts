/**
 * Environment lookups, in one guarded place. Web runtimes may have no `process` at all, so every
 * read goes through {@link readEnv}, which answers `undefined` there instead of throwing.
 *
 * @module
 */

/**
 * Where latchkey reads its variables: `process.env`, or any object such as a Cloudflare Worker's
 * `Env`. Only its own string-valued members count as variables; anything else on it (a KV, D1 or
 * R2 binding, a number) is ignored, so the object can be passed as it is.
 */
export type EnvRecord = object

/** The process environment where one exists, else an empty record. */
export function processEnv(): EnvRecord {
  const env = (globalThis as { process?: { env?: EnvRecord } }).process?.env
  return env ?? {}
}

/**
 * Reads one variable, treating an empty string as unset. Only an own member that is a string
 * counts: a binding or other value under the same name is not a variable, and neither is anything
 * inherited from the prototype.
 */
export function readEnv(name: string, env: EnvRecord = processEnv()): string | undefined {
  const value: unknown = Object.hasOwn(env, name) ? Reflect.get(env, name) : undefined
  return typeof value === "string" && value !== "" ? value : undefined
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
