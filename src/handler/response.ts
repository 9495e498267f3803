/** Response builders that carry Set-Cookie values. */

function withCookies(response: Response, cookies: string[]): Response {
  for (const cookie of cookies) response.headers.append("set-cookie", cookie)
  return response
}

/** Sent on every answer: nothing is cached, and no browser second-guesses a content type. */
const BASE_HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff" }

/** A 302 to `location`. */
export function redirect(location: string, cookies: string[] = []): Response {
  return withCookies(new Response(null, { status: 302, headers: { location, ...BASE_HEADERS } }), cookies)
}

/** A JSON response. */
export function json(value: unknown, cookies: string[] = [], status = 200, headers: Record<string, string> = {}): Response {
  return withCookies(Response.json(value, { status, headers: { ...BASE_HEADERS, ...headers } }), cookies)
}

/**
 * The pages' policy: no scripts, no framing, inline styles only. Browsers apply `form-action` to
 * the redirects after a form post too, so it admits what provider endpoints may be: https
 * anywhere, plain http on loopback only (the rule provider resolution enforces).
 */
const PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: https:; frame-ancestors 'none'; " +
  "form-action 'self' https: http://localhost:* http://127.0.0.1:* http://[::1]:*"

/** An HTML page. */
export function html(body: string, cookies: string[] = [], status = 200): Response {
  const headers = { "content-type": "text/html; charset=utf-8", "x-frame-options": "DENY", "content-security-policy": PAGE_POLICY, ...BASE_HEADERS }
  return withCookies(new Response(body, { status, headers }), cookies)
}

/** A plain-text answer, for refusals that happen before a request is understood (bad host, oversized body). */
export function text(body: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", ...BASE_HEADERS, ...headers } })
}
