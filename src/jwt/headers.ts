/**
 * Reading headers from whatever request shape a framework hands over: a Web `Request`, a
 * `Headers`, or `{ headers }` holding a `Headers` or a plain record (Node's `IncomingMessage`,
 * where a repeated header arrives as an array).
 */
import { InvalidOptionError } from "../errors.js"

/**
 * A plain header record, as Node's `IncomingMessage.headers`.
 *
 * @example
 * ```ts
 * import { getToken, type HeaderRecord } from "latchkey/jwt"
 * // The shape of Node's req.headers: a repeated header arrives as an array.
 * const headers: HeaderRecord = { cookie: ["theme=dark", "authjs.session-token=…"], host: "app.example.com" }
 * const token = await getToken({ req: { headers } })
 * ```
 */
export type HeaderRecord = Record<string, string | string[] | undefined>

/**
 * Anything latchkey can read request headers from.
 *
 * @example
 * ```ts
 * import { getToken, type RequestLike } from "latchkey/jwt"
 * const userId = async (req: RequestLike) => (await getToken({ req }))?.sub ?? null
 * await userId(request) // a Request
 * await userId(request.headers) // a Headers
 * await userId({ headers: { authorization: `Bearer ${token}` } }) // { headers } with a plain record
 * ```
 */
export type RequestLike = Request | Headers | { headers: Headers | HeaderRecord }

interface HeaderGetter {
  get(name: string): string | null
}

function isHeaderGetter(value: unknown): value is HeaderGetter {
  return typeof value === "object" && value !== null && typeof (value as HeaderGetter).get === "function"
}

/** A header value from a record, matching the name case-insensitively. */
function fromRecord(record: HeaderRecord, name: string, separator: string): string | null {
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() !== name) continue
    const value = record[key]
    if (typeof value === "string") return value
    if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value.join(separator)
  }
  return null
}

/**
 * A reader for one request's headers. `get` joins repeated values with `separator` for records,
 * as `Headers` does with ", " (and as HTTP/2 does for `cookie`, with "; ").
 */
export function headerReader(req: RequestLike): (name: string, separator: string) => string | null {
  if (isHeaderGetter(req)) return (name) => req.get(name)
  const headers = typeof req === "object" && req !== null ? (req as { headers?: unknown }).headers : undefined
  if (isHeaderGetter(headers)) return (name) => headers.get(name)
  if (typeof headers === "object" && headers !== null) {
    return (name, separator) => fromRecord(headers as HeaderRecord, name, separator)
  }
  throw new InvalidOptionError("req", "req must be a Request, a Headers, or an object with a headers property.")
}
