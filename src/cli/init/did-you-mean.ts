/**
 * "Did you mean …?" for a provider or framework name typed at `latchkey init`: the nearest known
 * name by edit distance (the library's own rule, `lib/did-you-mean.ts`), or else a known name the
 * input begins, so `githb` suggests `github`, `goo` suggests `google`, and `zzz` suggests nothing.
 */
import { closestName } from "../../lib/did-you-mean.js"

/** The known name closest to `input`, or one that starts with it (3 characters or more); otherwise `undefined`. */
export function didYouMean(input: string, known: readonly string[]): string | undefined {
  const wanted = input.toLowerCase()
  return closestName(wanted, known) ?? (wanted.length >= 3 ? known.find((name) => name.startsWith(wanted)) : undefined)
}
