/**
 * The password routes' entry, called by the handler for a request it recognised as a password
 * request: every POST is CSRF-checked first, GETs are the mailed links and the pages, and anything
 * that goes wrong unexpectedly is logged as the handler logs it (never with a password, a hash, a
 * token or a row a database driver quoted) and answered in JSON to a script, or left to the handler's
 * error page for a browser.
 */
import { changeEmail, changePassword, confirmEmail } from "./account.js"
import { refuse, routeUrl, type PolicyReason } from "./answers.js"
import { routeContext, type RouteContext } from "./context.js"
import { passwordPage } from "./pages.js"
import type { PasswordHasher } from "./hasher.js"
import type { PasswordHost, PasswordPageInput, PasswordRequest } from "./host.js"
import { confirmAddress, forgotPassword, resetPassword, verifyEmail } from "./recovery.js"
import { passwordSignIn } from "./sign-in.js"
import { passwordSignUp } from "./sign-up.js"

const POSTS = {
  "sign-in": passwordSignIn,
  "sign-up": passwordSignUp,
  forgot: forgotPassword,
  reset: resetPassword,
  "verify-email": confirmAddress,
  change: changePassword,
  "change-email": changeEmail,
} as const satisfies Partial<Record<PasswordRequest["route"], (route: RouteContext, form: URLSearchParams) => Promise<Response>>>

async function page(route: RouteContext, name: "sign-up" | "forgot" | "reset" | "verify-email"): Promise<Response> {
  const { host, provider } = route
  const query = host.url.searchParams
  const { token, cookies } = await host.csrfToken()
  const callbackUrl = query.get("callbackUrl") ?? undefined
  const back = callbackUrl ? { callbackUrl } : {}
  const { minLength, maxLength } = route.hasher.policy
  const common = {
    action: routeUrl(host, `password/${name}`),
    csrfToken: token,
    callbackUrl,
    error: query.get("error") ?? undefined,
    // The policy refusal's reason and bounds, so the page says what to fix (and the length up front).
    // Whatever the query says: the page words only the reasons it knows (pages.ts).
    reason: (query.get("reason") ?? undefined) as PolicyReason | undefined,
    minLength,
    maxLength,
    signInUrl: host.signInUrl,
    forgotUrl: routeUrl(host, "password/forgot", back),
    signUpUrl: provider.allowSignUp ? routeUrl(host, "password/sign-up", back) : undefined,
  }
  const props =
    name === "sign-up"
      ? { ...common, fields: provider.signUpFields }
      : name === "forgot"
        ? { ...common, email: query.get("email") ?? undefined }
        : { ...common, token: query.get("token") ?? undefined, email: query.get("email") ?? undefined }
  return host.page(...passwordPage(name, props, host.errorMessage), cookies)
}

/** "Check your email" after a route mailed a link (`verify-request?provider=<id>&kind=`): no form, nothing to sign. */
function checkEmail({ host }: RouteContext): Response {
  // An unknown kind reads as "verify-email": the page words only the kinds it knows (pages.ts).
  const kind = (host.url.searchParams.get("kind") ?? undefined) as PasswordPageInput["kind"]
  const props = { action: "", csrfToken: "", signInUrl: host.signInUrl, kind }
  return host.page(...passwordPage("check-email", props, host.errorMessage))
}

async function get(route: RouteContext, name: PasswordRequest["route"]): Promise<Response> {
  if (name === "verify-email") return verifyEmail(route, () => page(route, "verify-email"))
  if (name === "confirm-email") return confirmEmail(route)
  if (name === "check-email") return checkEmail(route)
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
    // Through the host, as the handler logs a browser's failure: a driver's message may quote the row.
    await host.logFailure(error)
    return host.json({ error: "Configuration" }, [], 500)
  }
}
