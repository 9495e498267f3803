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
 * anywhere, plain http on loopback only (the rule provider resolution enforces). The IPv6
 * loopback `[::1]` cannot be named: CSP's grammar has no IPv6 literal (a host is letters, digits
 * and hyphens), and Chromium logs an error on every page for such a source, then ignores it. A
 * development provider on plain http is reached as `localhost` or `127.0.0.1`.
 */
const PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: https:; frame-ancestors 'none'; " +
  "form-action 'self' https: http://localhost:* http://127.0.0.1:*"

/**
 * An HTML page. `script` is the one script URL a page with passkeys loads: the policy then admits
 * that exact URL (a CSP path source matches the path exactly) and fetches to the page's origin.
 */
export function html(body: string, cookies: string[] = [], status = 200, script?: string): Response {
  const policy = script === undefined ? PAGE_POLICY : `${PAGE_POLICY}; script-src ${scriptSource(script)}; connect-src 'self'`
  const headers = { "content-type": "text/html; charset=utf-8", "x-frame-options": "DENY", "content-security-policy": policy, ...BASE_HEADERS }
  return withCookies(new Response(body, { status, headers }), cookies)
}

/** A URL as a CSP source expression: origin and path, with the characters CSP reserves escaped. */
function scriptSource(script: string): string {
  const url = new URL(script)
  return `${url.origin}${url.pathname.replaceAll(";", "%3B").replaceAll(",", "%2C")}`
}

/** A plain-text answer, for refusals that happen before a request is understood (bad host, oversized body). */
export function text(body: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", ...BASE_HEADERS, ...headers } })
}
