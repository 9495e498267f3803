/** Response builders that carry Set-Cookie values. */

function withCookies(response: Response, cookies: string[]): Response {
  for (const cookie of cookies) response.headers.append("set-cookie", cookie)
  return response
}

const NO_STORE = { "cache-control": "no-store" }

/** A 302 to `location`. */
export function redirect(location: string, cookies: string[] = []): Response {
  return withCookies(new Response(null, { status: 302, headers: { location, ...NO_STORE } }), cookies)
}

/** A JSON response. */
export function json(value: unknown, cookies: string[] = [], status = 200): Response {
  return withCookies(Response.json(value, { status, headers: NO_STORE }), cookies)
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
  const headers = { "content-type": "text/html; charset=utf-8", "x-frame-options": "DENY", "content-security-policy": PAGE_POLICY, ...NO_STORE }
  return withCookies(new Response(body, { status, headers }), cookies)
}
