/**
 * JSON.parse keeps the last of duplicate keys and turns `"__proto__"` into an own property; either
 * in a token means two readers may see different claims, so both are refused. The check counts
 * keys instead of collecting them, which is what a per-request claims read can afford; the test
 * suite holds a set-per-object scanner as the reference it must agree with.
 */

/** What {@link parseStrictJson} answers for text with a duplicate or `__proto__` key. */
export const AMBIGUOUS: unique symbol = Symbol("latchkey.ambiguousJson")

const QUOTE = 34
const BACKSLASH = 92
const COLON = 58
const PROTO = "__proto__"
/** The longest a `__proto__` key can be written: every character as a `\uXXXX` escape. */
const MAX_PROTO_SPELLING = PROTO.length * 6

function isJsonSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9
}

/**
 * How many object keys `text` writes (a key is a string followed by `:`), or -1 as soon as one of
 * them is `__proto__` however it is spelled. Only meaningful for text JSON.parse accepts.
 */
function countKeys(text: string): number {
  let count = 0
  // The next backslash at or after the current string, so a string's escapes are known without
  // scanning it twice; it only moves forward, so the whole text is searched once.
  let backslash = text.indexOf("\\")
  let start = text.indexOf('"')
  while (start !== -1) {
    let end = text.indexOf('"', start + 1)
    if (end === -1) return count
    if (backslash !== -1 && backslash < start) backslash = text.indexOf("\\", start)
    const escaped = backslash !== -1 && backslash < end
    if (escaped) {
      // A quote preceded by an odd run of backslashes is part of the string.
      for (;;) {
        let slashes = 0
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++
        if (slashes % 2 === 0) break
        end = text.indexOf('"', end + 1)
        if (end === -1) return count
      }
    }
    let next = end + 1
    while (isJsonSpace(text.charCodeAt(next))) next++
    if (text.charCodeAt(next) === COLON) {
      count++
      const length = end - start - 1
      if (length === PROTO.length && text.startsWith(PROTO, start + 1)) return -1
      if (escaped && length > PROTO.length && length <= MAX_PROTO_SPELLING) {
        try {
          if (JSON.parse(text.slice(start, end + 1)) === PROTO) return -1
        } catch {
          return -1
        }
      }
    }
    start = text.indexOf('"', next)
  }
  return count
}

/** How many own keys the objects in a parsed JSON value have, all depths together. */
function countParsedKeys(value: unknown): number {
  let count = 0
  let pending: unknown[] | undefined
  let current: unknown = value
  for (;;) {
    if (typeof current === "object" && current !== null) {
      if (Array.isArray(current)) {
        for (const item of current) if (typeof item === "object" && item !== null) (pending ??= []).push(item)
      } else {
        const record = current as Record<string, unknown>
        for (const key of Object.keys(record)) {
          count++
          const item = record[key]
          if (typeof item === "object" && item !== null) (pending ??= []).push(item)
        }
      }
    }
    if (pending === undefined || pending.length === 0) return count
    current = pending.pop()
  }
}

/**
 * JSON.parse, refusing what two readers could read differently: answers {@link AMBIGUOUS} for a
 * duplicate key in any object or a `__proto__` key anywhere (however it is escaped), and throws JSON.parse's SyntaxError for text that is not JSON.
 *
 * Every key JSON.parse keeps is an own key of exactly one object in its result, and a duplicate
 * drops at least one key (the earlier one, with whatever its value held). So the text is free of
 * duplicates exactly when it writes as many keys as the result holds: no set of keys is built.
 */
export function parseStrictJson(text: string): unknown {
  const written = countKeys(text)
  if (written === -1) return AMBIGUOUS
  const value: unknown = JSON.parse(text)
  return written === 0 || countParsedKeys(value) === written ? value : AMBIGUOUS
}
