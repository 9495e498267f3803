/**
 * How user options merge over a provider's defaults. The rules are the ones a reader expects:
 * plain objects merge key by key, arrays and functions replace, and `undefined` never overrides
 * anything (so it can never reach a URL as the string "undefined").
 */

/** Whether a value is a plain object (not an array, a function, a Date, a URL…). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** Merges `override` over `base` by the rules above. Neither input is modified. */
export function mergeDeep<T>(base: T, override: unknown): T {
  if (override === undefined) return base
  if (!isPlainObject(base) || !isPlainObject(override)) return override as T
  const merged: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue
    merged[key] = mergeDeep(merged[key], value)
  }
  return merged as T
}

/** Drops keys whose value is `undefined`, and stringifies the rest (URL parameters are strings). */
export function definedParams(params: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null) out[key] = String(value)
  }
  return out
}
