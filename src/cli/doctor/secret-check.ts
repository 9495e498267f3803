/**
 * The secret's strength: present, long enough, and not guessable. The guess estimate is the
 * string's own character entropy times its length, a floor that a random secret clears by far
 * (about 200 bits for `latchkey secret`'s 43 characters) and a word, a repeated pattern or a
 * 3-character value does not.
 */
import type { DoctorContext } from "./context.js"
import type { DoctorReport } from "./report.js"

/** The shortest secret accepted: 32 characters, as Auth.js documents. */
const MIN_LENGTH = 32
/** The least estimated entropy accepted, in bits. */
const MIN_BITS = 100

const FIX = "run `npx latchkey secret --write` for a fresh 32-byte secret in .env.local (and set the same one in production)."

/** The Shannon entropy of the string's characters, times its length: an upper bound on what a guesser faces. */
export function estimatedBits(secret: string): number {
  const counts = new Map<string, number>()
  for (const character of secret) counts.set(character, (counts.get(character) ?? 0) + 1)
  let perCharacter = 0
  for (const count of counts.values()) {
    const share = count / secret.length
    perCharacter -= share * Math.log2(share)
  }
  return Math.round(perCharacter * secret.length)
}

/** Checks `AUTH_SECRET` (and `AUTH_SECRET_1`..`_3`) or the config's `secret`. */
export function checkSecret(context: DoctorContext, report: DoctorReport): void {
  const configured = context.config?.secret
  const secrets: Array<[string, string]> = []
  if (typeof configured === "string") secrets.push(["the config's secret", configured])
  else if (Array.isArray(configured)) configured.forEach((value, index) => secrets.push([`the config's secret[${index}]`, String(value)]))
  for (const name of ["AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3", "NEXTAUTH_SECRET"]) {
    const value = context.env[name]
    // A config that passes process.env.AUTH_SECRET along is the same secret: checked once.
    if (value !== undefined && value !== "" && !secrets.some(([, seen]) => seen === value)) secrets.push([`${name} (from ${context.sources[name]})`, value])
  }
  if (secrets.length === 0) return report.problem("No secret: AUTH_SECRET is not set in the environment, .env or .env.local.", FIX)
  for (const [label, value] of secrets) {
    const bits = estimatedBits(value)
    if (value.length < MIN_LENGTH) report.problem(`${label} is ${value.length} characters long: anyone can guess it and forge sessions.`, FIX)
    else if (bits < MIN_BITS) report.problem(`${label} looks guessable (about ${bits} bits of entropy, under ${MIN_BITS}).`, FIX)
    else report.pass(`${label}: ${value.length} characters, about ${bits} bits of entropy.`)
  }
}
