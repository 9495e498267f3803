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
/** One token of JSON text: a string, a number or literal, or one of `{}[],:`. */
const JSON_TOKEN = /"(?:\\.|[^"\\])*"|[^\s"{}[\],:]+|\S/g
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
 * duplicate key in any object or a `__proto__` key anywhere (however it is escaped), and throws
 * JSON.parse's SyntaxError for text that is not JSON.
 *
 * Every key JSON.parse keeps is an own key of exactly one object in its result, and a duplicate
 * drops at least one key (the earlier one, with whatever its value held). So the text is free of
 * duplicates exactly when it writes as many keys as the result holds: no set of keys is built.
 * That holds only while JSON.parse decodes keys right, and V8's does not always (Node 24 and
 * later): once any object has had the key `q\`, it reads the key `"q\""` in a like object as `q\`,
 * so `{"q\"":1,"q\"":[]}` looks like two keys and `{"q\"":1}` gives the wrong one. So text with any
 * escaped key (which no token latchkey or Auth.js writes has) is read by {@link parseEscapedKeys},
 * which never lets JSON.parse decode a key in place.
 */
export function parseStrictJson(text: string): unknown {
  const written = countKeys(text)
  if (written === -1) return AMBIGUOUS
  if (written === ESCAPED_KEY) return parseEscapedKeys(text)
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
 * The exact reading, for text with escaped keys: one walk that builds the value itself, keeping
 * each object's keys as it goes, and decodes every string on its own. A string decoded alone is a
 * value, never a key, so it does not meet the V8 fault above (nodejs/node#63785: an escaped key is
 * resolved through an earlier object's hidden-class transition whose key matches the raw text's
 * prefix). JSON.parse still judges the syntax first, so bad text throws its SyntaxError and the
 * walk may trust the grammar. The walk keeps its own stack: deep nesting cannot overflow the call stack.
 */
function parseEscapedKeys(text: string): unknown {
  JSON.parse(text)
  const open: (Record<string, unknown> | unknown[])[] = []
  let root: unknown
  let key = ""
  let expectKey = false
  for (const [token] of text.matchAll(JSON_TOKEN)) {
    const parent = open.at(-1)
    if (token === ",") expectKey = !Array.isArray(parent)
    else if (token === "}" || token === "]") open.pop()
    else if (token !== ":") {
      const value: unknown = token === "{" ? {} : token === "[" ? [] : JSON.parse(token)
      if (expectKey) {
        key = value as string
        if (key === PROTO || Object.hasOwn(parent!, key)) return AMBIGUOUS
        expectKey = false
        continue
      }
      if (parent === undefined) root = value
      else if (Array.isArray(parent)) parent.push(value)
      else parent[key] = value
      if (token === "{" || token === "[") {
        open.push(value as Record<string, unknown>)
        expectKey = token === "{"
      }
    }
  }
  return root
}
