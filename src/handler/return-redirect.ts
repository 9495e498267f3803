/**
 * Redirects as JSON, for scripts. A browser's `fetch` cannot read where a cross-origin redirect
 * goes (the provider's authorization URL), and following a same-origin one would fetch the page
 * instead of moving the user there. So a request that sends `X-Auth-Return-Redirect: 1` (as
 * Auth.js's client does, and latchkey's) gets `200 { url }` instead of the 302, with the same
 * cookies. When the redirect goes to the error page or the sign-in page with `?error=`, the answer
 * also names the `error` (and the `CredentialsSignin` `code`) in fields of their own, so a client
 * never has to guess them from a destination whose own query may say `error`.
 */
import type { RequestContext } from "./context.js"
import { errorUrl } from "./complete-sign-in.js"

/** The header a script sends to get redirects as JSON. */
const RETURN_REDIRECT = "x-auth-return-redirect"

/** Whether the request asked for redirects as JSON. */
export function wantsReturnedRedirect(request: Request): boolean {
  return request.headers.get(RETURN_REDIRECT) === "1"
}

/** The pages a refusal redirects to: the error page, and the sign-in page (which shows the error). */
function refusalPages(context: RequestContext): string[] {
  const signIn = new URL(context.pages.signIn ?? `${context.baseUrl}/signin`, context.origin)
  const error = new URL(errorUrl(context, "Configuration"))
  return [signIn, error].map((page) => `${page.origin}${page.pathname}`)
}

/** The `error` and `code` of a redirect to a refusal page; none for any other destination. */
function refusalOf(context: RequestContext, location: string): { error?: string; code?: string } {
  let target: URL
  try {
    target = new URL(location, context.origin)
  } catch {
    return {}
  }
  const error = target.searchParams.get("error")
  if (error === null || !refusalPages(context).includes(`${target.origin}${target.pathname}`)) return {}
  const code = target.searchParams.get("code")
  return code === null ? { error } : { error, code }
}

/**
 * `response` as `200 { url, error?, code? }` when it is a redirect, keeping every header but
 * `Location` (the cookies among them); any other response as it is.
 */
export function returnedRedirect(context: RequestContext, response: Response): Response {
  const location = response.headers.get("location")
  if (location === null || response.status < 300 || response.status >= 400) return response
  // Set-Cookie copied one by one: a runtime that folds headers when copying would join the cookies into one line.
  const headers = new Headers()
  response.headers.forEach((value, name) => {
    if (name !== "location" && name !== "set-cookie") headers.set(name, value)
  })
  for (const cookie of response.headers.getSetCookie()) headers.append("set-cookie", cookie)
  headers.set("content-type", "application/json")
  return new Response(JSON.stringify({ url: location, ...refusalOf(context, location) }), { status: 200, headers })
}
