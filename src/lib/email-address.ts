/**
 * The email-address rules, once for every way an address enters latchkey: email sign-in (the form
 * and the link) and passkey sign-up. Two spellings that a reader, a mail system or a database
 * collation could take for one address must come out as one address, or be refused, so no one can
 * sign up as a second user who reads exactly like an existing one.
 *
 * @module
 */

/** RFC 5321's limits: 64 octets of local part, 255 of domain, 320 in all (checked before anything else runs). */
const MAX_EMAIL_LENGTH = 320
const MAX_LOCAL_LENGTH = 64
const MAX_LABEL_LENGTH = 63

/**
 * Characters no plain address contains: white space and controls, and the separators that would
 * let one field carry a display name, a comment, a route or a second recipient. The inside of a
 * character class, for {@link PLAIN_ADDRESS}.
 */
const FORBIDDEN = String.raw`\s\x00-\x1f\x7f,;<>"()[\]\\:`

/**
 * Characters that show as nothing: format controls (zero-width space and joiners, bidirectional
 * overrides, the soft hyphen) and the rest of Unicode's default-ignorable code points. NFKC keeps
 * most of them, so `ada\u200b@example.com` would stay a second address that reads as the first.
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u

/** Only ASCII: NFKC's fixed points, and no character of {@link INVISIBLE} (the fast path of every normalising rule). */
export const ASCII = /^[\x00-\x7f]*$/

function countAt(value: string): number {
  let count = 0
  for (let index = value.indexOf("@"); index !== -1; index = value.indexOf("@", index + 1)) count++
  return count
}

/**
 * One plain address: a local part of 1 to 64 characters, one `@`, and a domain of two or more
 * labels of 1 to 63 characters; none of it holding a {@link FORBIDDEN} character. Every class
 * excludes the character that ends its run (`@` for the local part, `.` for a label), so a run
 * has one way to match and a failed test costs at most the 63 shorter lengths of one label:
 * linear in the (already bounded) length, with no backtracking blow-up.
 */
const PLAIN_ADDRESS = new RegExp(`^[^${FORBIDDEN}@]{1,${MAX_LOCAL_LENGTH}}@(?:[^${FORBIDDEN}@.]{1,${MAX_LABEL_LENGTH}}\\.)+[^${FORBIDDEN}@.]{1,${MAX_LABEL_LENGTH}}$`)

/** Whether `value` is exactly one plain address ({@link PLAIN_ADDRESS}), and no longer than an address may be. */
function isPlainAddress(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_EMAIL_LENGTH && PLAIN_ADDRESS.test(value)
}

/**
 * The address in its one normalised form, or undefined when it is not exactly one plain address.
 *
 * The length is checked first, so neither a pattern nor `normalizeIdentifier` ever sees an
 * oversized field. An address holding an invisible character is refused. Then the address is
 * NFKC-folded, so fullwidth or mathematical letters become the letters they stand for; a
 * character that folds to `@` (U+FF20, U+FE6B) is refused before any callback reads it. Only the
 * folded form reaches the app's `normalizeIdentifier` (an email provider's option), or, without
 * one, is trimmed and lower-cased; whichever answers is checked to be one plain address.
 */
export function normalizeEmailAddress(raw: string | null | undefined, normalizeIdentifier?: (identifier: string) => string): string | undefined {
  if (typeof raw !== "string" || raw === "" || raw.length > MAX_EMAIL_LENGTH) return undefined
  // Nearly every address is ASCII, which NFKC leaves as it is and which holds no invisible
  // character: one scan skips three passes over Unicode's tables (a rate-limited sign-in reads
  // the address on every attempt). The answer is the same either way (test/lib/email-address.test.ts).
  if (ASCII.test(raw)) {
    const value = normalizeIdentifier ? normalizeIdentifier(raw) : raw.trim().toLowerCase()
    return isPlainAddress(value) ? value : undefined
  }
  if (INVISIBLE.test(raw)) return undefined
  const folded = raw.normalize("NFKC")
  // A character that folds to "@" is refused, not folded: which "@" the typist meant is a guess.
  if (countAt(folded) !== countAt(raw)) return undefined
  // Lower-casing can leave a letter NFKC would write otherwise, so the default folds once more after it.
  const value = normalizeIdentifier ? normalizeIdentifier(folded) : folded.trim().toLowerCase().normalize("NFKC")
  return isPlainAddress(value) ? value : undefined
}
