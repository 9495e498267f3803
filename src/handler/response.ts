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

/** An HTML page. */
export function html(body: string, cookies: string[] = [], status = 200): Response {
  const headers = { "content-type": "text/html; charset=utf-8", "x-frame-options": "DENY", "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self' https:; frame-ancestors 'none'", ...NO_STORE }
  return withCookies(new Response(body, { status, headers }), cookies)
}
