/**
 * "Did you mean" suggestions for a name that matched nothing: a provider id in a URL, an option
 * key in a config. The nearest known name by edit distance is suggested only when it is close
 * enough to be a typo, so a name that is simply wrong gets no misleading hint. Inputs are bounded
 * first: the names come from requests, and edit distance is quadratic in their lengths.
 *
 * @module
 */

/** Longer names are not compared: no typo of a real id or option is this long. */
const MAX_COMPARED_LENGTH = 64

/**
 * Edit distance counting a swap of two neighbours as one edit (`odic` is one edit from `oidc`),
 * case-insensitive (`GitHub` is a typo of `github`). Both names are at most
 * {@link MAX_COMPARED_LENGTH} long, so the table stays small.
 */
function editDistance(a: string, b: string): number {
  const left = a.toLowerCase()
  const right = b.toLowerCase()
  const table = Array.from({ length: left.length + 1 }, (_, i) => Array.from({ length: right.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= left.length; i++) {
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1
      let best = Math.min(table[i - 1]![j]! + 1, table[i]![j - 1]! + 1, table[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) best = Math.min(best, table[i - 2]![j - 2]! + 1)
      table[i]![j] = best
    }
  }
  return table[left.length]![right.length]!
}

/**
 * The known name nearest to `unknown`, when it is within a third of its length (at least one
 * edit, at most three); undefined when nothing is that close.
 */
export function closestName(unknown: string, known: Iterable<string>): string | undefined {
  if (unknown.length === 0 || unknown.length > MAX_COMPARED_LENGTH) return undefined
  const allowed = Math.min(3, Math.max(1, Math.floor(unknown.length / 3)))
  let best: { name: string; distance: number } | undefined
  for (const name of known) {
    if (name.length > MAX_COMPARED_LENGTH) continue
    const distance = editDistance(unknown, name)
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { name, distance }
  }
  return best?.name
}

/** `; did you mean "x"?` for a message, or an empty string when no name is close. */
export function didYouMean(unknown: string, known: Iterable<string>): string {
  const suggestion = closestName(unknown, known)
  return suggestion === undefined ? "" : `; did you mean "${suggestion}"?`
}
