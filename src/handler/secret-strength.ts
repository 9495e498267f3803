/**
 * The session secret's strength, checked once at `createAuth`. A secret is a string of unknown
 * origin, so its entropy cannot be measured; its length is the honest proxy: a random 32-byte
 * secret is at least 32 characters in any text encoding, and `AUTH_SECRET=dev` is refused.
 *
 * Only the newest secret is refused. It seals every new cookie; the older ones only open cookies
 * sealed before a rotation, and refusing a short one of those would block the very rotation that
 * retires it, so it is warned about instead.
 */
import { MIN_SECRET_LENGTH, WeakSecretError } from "../errors.js"
import { readEnv, type EnvRecord } from "../env.js"
import type { SecretInput } from "../jwt/secrets.js"
import type { LoggerInstance } from "../types.js"

/** The variables secrets are read from, newest first, as `secretsFromEnv` and `envSecrets` read them. */
const SECRET_VARIABLES = ["AUTH_SECRET_3", "AUTH_SECRET_2", "AUTH_SECRET_1", "AUTH_SECRET", "NEXTAUTH_SECRET"]

/** The name each secret in `secrets` came from: `secret` (or `secret[i]`) when passed, else its variable. */
function sourcesOf(given: SecretInput | undefined, secrets: readonly string[], env: EnvRecord): string[] {
  if (given !== undefined) return secrets.map((_, index) => (typeof given === "string" ? "secret" : `secret[${index}]`))
  const names = SECRET_VARIABLES.filter((name) => readEnv(name, env) !== undefined)
  return secrets.map((_, index) => names[index] ?? "AUTH_SECRET")
}

/**
 * Refuses a newest secret shorter than {@link MIN_SECRET_LENGTH} with {@link WeakSecretError},
 * naming where it was set, and warns about an older one that short.
 */
export function checkSecretStrength(given: SecretInput | undefined, secrets: readonly string[], env: EnvRecord, logger: Required<LoggerInstance>): void {
  const sources = sourcesOf(given, secrets, env)
  secrets.forEach((secret, index) => {
    if (secret.length >= MIN_SECRET_LENGTH) return
    if (index === 0) throw new WeakSecretError(sources[0]!, secret.length)
    logger.warn("WEAK_SECRET", { message: `${sources[index]} is ${secret.length} characters long; it still opens older cookies, but remove it once they have expired` })
  })
}
