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
const OPEN_BRACE = 123
const PROTO = "__proto__"
/** What {@link countKeys} answers when a key is written with an escape. */
const ESCAPED_KEY = -2

function isJsonSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9
}

/**
 * How many object keys `text` writes (a key is a string followed by `:`), -1 as soon as one of them
 * is `__proto__`, or {@link ESCAPED_KEY} as soon as one is written with an escape (those go to the
 * exact scanner). Only meaningful for text JSON.parse accepts.
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
      if (escaped) return ESCAPED_KEY
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
 * That holds only while JSON.parse decodes keys right, and Node 24's does not always: after some
 * warm-up it read `{"q\"":1,"q\"":[]}` as the two keys `q"` and `q\`. So text with any escaped
 * key (which no token latchkey or Auth.js writes has) is checked by the exact scanner instead.
 */
export function parseStrictJson(text: string): unknown {
  const written = countKeys(text)
  if (written === -1) return AMBIGUOUS
  if (written === ESCAPED_KEY) return hasAmbiguousKeys(text) ? AMBIGUOUS : JSON.parse(text)
  const value: unknown = JSON.parse(text)
  return written === 0 || parsedKeyCount(value, text) === written ? value : AMBIGUOUS
}

/**
 * {@link countParsedKeys} of `value`, parsed from `text`. When the text's only `{` is its first
 * character (none even inside a string), `value` is one object and nothing in it is another (an
 * array holds keys only through objects in it), so its own keys are all there are: counted
 * without reading a value, which (the keys differing from token to token) would be a megamorphic
 * lookup per key.
 */
function parsedKeyCount(value: unknown, text: string): number {
  if (text.charCodeAt(0) === OPEN_BRACE && text.indexOf("{", 1) === -1) return Object.keys(value as object).length
  return countParsedKeys(value)
}

/**
 * The exact check, for text with escaped keys: one walk keeping a set of keys per object, each key
 * decoded on its own. Whether `text` has a duplicate key in any object, or a `__proto__` key anywhere.
 */
function hasAmbiguousKeys(text: string): boolean {
  const stack: (Set<string> | null)[] = []
  let expectKey = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char === '"') {
      let end = i + 1
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1
      const keys = stack[stack.length - 1]
      if (expectKey && keys) {
        let key: string
        try {
          key = JSON.parse(text.slice(i, end + 1)) as string
        } catch {
          return true
        }
        if (key === PROTO || keys.has(key)) return true
        keys.add(key)
        expectKey = false
      }
      i = end
    } else if (char === "{") {
      stack.push(new Set())
      expectKey = true
    } else if (char === "[") {
      stack.push(null)
    } else if (char === "}" || char === "]") {
      stack.pop()
    } else if (char === ",") {
      expectKey = stack[stack.length - 1] != null
    }
  }
  return false
}
