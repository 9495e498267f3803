/**
 * Trailing-slash trimming for URLs and paths, shared by providers and the flow. A regex such as
 * `/\/+$/` is retried from every slash of a long run that does not reach the end, which is
 * quadratic in the run's length; instance URLs, discovery issuers and Host-derived origins can be
 * attacker-controlled, so this walks back from the end once instead.
 *
 * @module
 */

/** `value` without its trailing `/` characters, in time linear in its length. */
export function trimTrailingSlashes(value: string): string {
  let end = value.length
  // 47 is "/": comparing char codes keeps the loop free of per-character string allocations.
  while (end > 0 && value.charCodeAt(end - 1) === 47) end--
  return end === value.length ? value : value.slice(0, end)
}
