/**
 * The password routes' entry, called by the handler for a request it recognised as a password
 * request: every POST is CSRF-checked first, GETs are the mailed links and the pages, and anything
 * that goes wrong unexpectedly is logged (never with a password, a hash or a token) and answered in
 * JSON to a script, or left to the handler's error page for a browser.
 */
import { changeEmail, changePassword, confirmEmail } from "./account.js"
import { refuse, routeUrl } from "./answers.js"
import { routeContext, type RouteContext } from "./context.js"
import type { PasswordHasher } from "./hasher.js"
import type { PasswordHost, PasswordRequest } from "./host.js"
import { forgotPassword, resetPassword, verifyEmail } from "./recovery.js"
import { passwordSignIn } from "./sign-in.js"
import { passwordSignUp } from "./sign-up.js"

const POSTS = {
  "sign-in": passwordSignIn,
  "sign-up": passwordSignUp,
  forgot: forgotPassword,
  reset: resetPassword,
  change: changePassword,
  "change-email": changeEmail,
} as const satisfies Partial<Record<PasswordRequest["route"], (route: RouteContext, form: URLSearchParams) => Promise<Response>>>

async function page(route: RouteContext, name: "sign-up" | "forgot" | "reset"): Promise<Response> {
  const { host, provider } = route
  const query = host.url.searchParams
  const { token, cookies } = await host.csrfToken()
  const callbackUrl = query.get("callbackUrl") ?? undefined
  const common = { action: routeUrl(host, `password/${name}`), csrfToken: token, callbackUrl, error: query.get("error") ?? undefined, signInUrl: host.signInUrl }
  if (name === "sign-up") return host.page("sign-up", { ...common, fields: provider.signUpFields }, cookies)
  if (name === "forgot") return host.page("forgot", { ...common, email: query.get("email") ?? undefined }, cookies)
  return host.page("reset", { ...common, token: query.get("token") ?? undefined, email: query.get("email") ?? undefined }, cookies)
}

async function get(route: RouteContext, name: PasswordRequest["route"]): Promise<Response> {
  if (name === "verify-email") return verifyEmail(route)
  if (name === "confirm-email") return confirmEmail(route)
  if (name === "sign-up" && !route.provider.allowSignUp) return refuse(route.host, "SignUpDisabled", route.host.signInUrl)
  if (name === "sign-up" || name === "forgot" || name === "reset") return page(route, name)
  return route.host.json({ error: "NotFound" }, [], 404)
}

/** Answers one password request with `hasher`. */
export async function handlePasswordRequest(hasher: PasswordHasher, host: PasswordHost, request: PasswordRequest): Promise<Response> {
  try {
    const route = routeContext(host, request.provider, hasher)
    if (request.form === undefined) return await get(route, request.route)
    if (!(await host.verifyCsrf(request.form.get("csrfToken")))) return refuse(host, "MissingCSRF", host.signInUrl)
    const answer = POSTS[request.route as keyof typeof POSTS]
    if (answer === undefined) return host.json({ error: "NotFound" }, [], 404)
    return await answer(route, request.form)
  } catch (error) {
    if (!host.wantsJson) throw error
    host.logger.error(error as Error)
    return host.json({ error: "Configuration" }, [], 500)
  }
}
