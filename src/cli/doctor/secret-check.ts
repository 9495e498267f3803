/**
 * The secret's strength: present, long enough, and not guessable. The guess estimate is the
 * string's own character entropy (or that of its steps from character to character, when lower)
 * times its length, a floor that a random secret clears by far (about 200 bits for `latchkey
 * secret`'s 43 characters) and a word, a repeated pattern, a walk along the alphabet or a
 * 3-character value does not.
 */
import type { DoctorContext } from "./context.js"
import type { DoctorReport } from "./report.js"

/** The shortest secret accepted: 32 characters, as Auth.js documents. */
const MIN_LENGTH = 32
/** The least estimated entropy accepted, in bits. */
const MIN_BITS = 100

const FIX = "run `npx latchkey secret --write` for a fresh 32-byte secret in .env.local (and set the same one in production)."

/** The Shannon entropy, in bits, of one draw from `symbols`' own distribution. */
function bitsPerSymbol(symbols: ReadonlyArray<string | number>): number {
  const counts = new Map<string | number, number>()
  for (const symbol of symbols) counts.set(symbol, (counts.get(symbol) ?? 0) + 1)
  let bits = 0
  for (const count of counts.values()) {
    const share = count / symbols.length
    bits -= share * Math.log2(share)
  }
  return bits
}

/**
 * An upper bound on what a guesser faces: the entropy of the string's characters, and of the steps
 * from each character to the next, whichever is lower, times its length. The steps catch a walk
 * (`abcdef…`, `0123…`) whose characters are all different, so that they alone look random.
 */
export function estimatedBits(secret: string): number {
  const characters = [...secret]
  const steps = characters.slice(1).map((character, index) => character.codePointAt(0)! - characters[index]!.codePointAt(0)!)
  const perCharacter = steps.length === 0 ? bitsPerSymbol(characters) : Math.min(bitsPerSymbol(characters), bitsPerSymbol(steps))
  return Math.round(perCharacter * characters.length)
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
