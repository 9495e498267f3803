/**
 * CSRF protection by double submit: a random token lives in a cookie, together with a hash that
 * binds it to the secret, and every state-changing POST must echo the token in its body. A cookie
 * the attacker planted without the secret fails the hash; a cross-site form cannot read the cookie
 * to echo it. The cookie itself, and the browser binding its token gives sessions, live below the
 * handler (adapters/browser-binding.ts); this is the check the routes make.
 */
import { cookieToken, type BindingContext } from "../adapters/browser-binding.js"
import { constantTimeEqual } from "../lib/digest.js"

/** Whether a POST's `csrfToken` matches its valid CSRF cookie. */
export async function verifyCsrf(context: BindingContext, submitted: string | null): Promise<boolean> {
  if (!submitted) return false
  const token = await cookieToken(context)
  return token !== undefined && constantTimeEqual(token, submitted)
}
