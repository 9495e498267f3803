/**
 * JSON.parse keeps the last of duplicate keys and turns `"__proto__"` into an own property; either
 * in a token means two readers may see different claims. This scanner walks the text once and
 * refuses both before JSON.parse sees it. It only tracks keys: JSON.parse still validates syntax.
 */

/** Whether `text` has a duplicate key in any object, or a `__proto__` key anywhere. */
export function hasAmbiguousKeys(text: string): boolean {
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
        if (key === "__proto__" || keys.has(key)) return true
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
