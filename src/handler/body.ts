/**
 * Request bodies, read once and bounded. Every POST the handler answers (forms, JSON session
 * updates, `form_post` callbacks) is small, so a body over the limit is refused before the CSRF
 * check or anything else buffers it: a declared `Content-Length` over the limit is refused unread,
 * and a streamed body is cancelled as soon as it passes the limit.
 */

/**
 * The most bytes of a request body the handler reads: 64 KiB, far above any sign-in form,
 * session update or `form_post` callback. A larger body is answered with 413.
 *
 * Exported from `latchkey`.
 *
 * @example
 * ```ts
 * import { MAX_BODY_BYTES } from "latchkey"
 * // a proxy in front of the app can refuse larger auth requests before they reach it
 * const limit = `${MAX_BODY_BYTES / 1024}k` // "64k"
 * ```
 */
export const MAX_BODY_BYTES = 64 * 1024

/** The body as text, or undefined when it is (or declares itself) larger than `limit` bytes. */
export async function readBoundedBody(request: Request, limit = MAX_BODY_BYTES): Promise<string | undefined> {
  const declared = Number(request.headers.get("content-length"))
  if (declared > limit) {
    await request.body?.cancel().catch(() => {})
    return undefined
  }
  if (request.body === null) return ""
  const reader = request.body.getReader()
  const decoder = new TextDecoder()
  let size = 0
  let text = ""
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    text += decoder.decode(read.value, { stream: true })
  }
  return text + decoder.decode()
}

/**
 * How deep a JSON body (or a JSON field in one, such as a session update's `data`) may nest
 * arrays and objects: far above any form, session update or passkey response. Deeper JSON parses,
 * but whatever walks it afterwards (`JSON.stringify`, an app's callback, the session encoder)
 * recurses once per level and can run out of stack.
 */
export const MAX_JSON_DEPTH = 64

/**
 * Whether JSON text nests at most `limit` levels: one linear pass over the text, brackets inside
 * strings skipped. Malformed text may pass; `JSON.parse` refuses it next.
 */
export function nestsWithin(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index)
    if (inString) {
      if (char === 0x5c) index++ // a backslash escapes the next character
      else if (char === 0x22) inString = false
    } else if (char === 0x22) inString = true
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return false
    } else if (char === 0x5d || char === 0x7d) depth--
  }
  return true
}

/**
 * Whether a request's body is JSON: its media type is `application/json` (not a type that merely
 * mentions it, as `text/plain; x=application/json`, which a cross-site `no-cors` fetch may send).
 */
export function hasJsonBody(request: Request): boolean {
  return (request.headers.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase() === "application/json"
}
