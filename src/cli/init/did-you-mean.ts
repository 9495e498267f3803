/**
 * "Did you mean …?" for a mistyped name: the closest known name by edit distance (insertions,
 * deletions, substitutions and swapped neighbours), offered only when it is close enough to be the
 * likely intent, so `githb` suggests `github` while `zzz` suggests nothing.
 */

/** The optimal-string-alignment distance between `a` and `b` (Damerau-Levenshtein without re-edits). */
export function editDistance(a: string, b: string): number {
  // rows[i][j]: the distance between the first i characters of a and the first j of b.
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const substitution = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + substitution)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = best
    }
  }
  return rows[a.length]![b.length]!
}

/**
 * The known name closest to `input`, when it is within a third of the input's length (at least one
 * edit), or a known name that starts with the input; otherwise `undefined`.
 */
export function didYouMean(input: string, known: readonly string[]): string | undefined {
  const wanted = input.toLowerCase()
  const allowed = Math.max(1, Math.floor(wanted.length / 3))
  let best: { name: string; distance: number } | undefined
  for (const name of known) {
    const distance = editDistance(wanted, name)
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { name, distance }
  }
  if (best !== undefined) return best.name
  return wanted.length >= 3 ? known.find((name) => name.startsWith(wanted)) : undefined
}
