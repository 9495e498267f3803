/**
 * The URL of the request `auth()` and the handler were given, or a typed error when it is not a
 * Web `Request`. Express's and Node's `req` have a `url` that is only a path (`/dashboard`), and
 * `new URL("/dashboard")` throws a bare "Invalid URL" that says nothing of the fix, which is the
 * `latchkey/node` bridge.
 */
import { NotAWebRequestError } from "../errors.js"

/** Whether `value` has the shape of Node's `IncomingMessage`: a path for a URL, headers as a plain object. */
function looksLikeNodeRequest(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false
  const { url, headers } = value as { url?: unknown; headers?: unknown }
  const plainHeaders = typeof headers === "object" && headers !== null && typeof (headers as { get?: unknown }).get !== "function"
  return plainHeaders || (typeof url === "string" && url.startsWith("/"))
}

/**
 * The request's URL, parsed. Throws {@link index!NotAWebRequestError} naming `method` for a Node or
 * Express request; any other unparsable URL throws as `new URL` does.
 */
export function webRequestUrl(request: Request, method: string): URL {
  // A Web Request's URL is always absolute, so the check costs nothing until parsing fails.
  try {
    return new URL(request.url)
  } catch (error) {
    throw looksLikeNodeRequest(request) ? new NotAWebRequestError(method) : error
  }
}
