/**
 * `signIn` and `signOut` as SvelteKit form actions, and the password form actions (sign-up, reset,
 * change), over the handler's own routes (see
 * `../run-action.ts`). The cookies are written through `event.cookies`, and the browser is sent on
 * with SvelteKit's own `redirect(303, …)`, loaded from the app's `@sveltejs/kit` when an action
 * runs (so this module loads where SvelteKit is not installed). A form action is exported as it
 * is (`export const actions = { default: signIn }`), so no app code stands between the redirect
 * and SvelteKit to swallow it.
 */
import type { Auth } from "../../handler/index.js"
import type { PasswordAnswer, PasswordRefusalReason } from "../../lib/password-answer.js"
import { passwordFields, refererPath, runAction, runPasswordAction, signInFields, type ActionRequest, type ActionResult, type ErrorPages } from "../run-action.js"
import { cookieToSet } from "../set-cookie.js"

/**
 * SvelteKit's `event.cookies`, structurally: the part the form actions use.
 *
 * Exported from `latchkey/sveltekit`.
 *
 * @example
 * ```ts
 * import type { KitCookies } from "latchkey/sveltekit"
 * const names = (cookies: KitCookies) => cookies.getAll().map(({ name }) => name)
 * ```
 */
export interface KitCookies {
  getAll(): { name: string; value: string }[]
  set(name: string, value: string, options: { path: string } & Record<string, unknown>): void
}

/**
 * A form action's event, structurally: SvelteKit's `RequestEvent` as the actions read it.
 *
 * Exported from `latchkey/sveltekit`.
 *
 * @example
 * ```ts
 * import type { KitActionEvent } from "latchkey/sveltekit"
 * const origin = (event: KitActionEvent) => event.url.origin
 * ```
 */
export interface KitActionEvent {
  request: Request
  url: URL
  cookies: KitCookies
}

type Redirect = (status: 303, location: string, options?: { external: string[] }) => never
type Fail = <T>(status: number, data: T) => KitActionFailure<T>

/**
 * What a password form action returns when the route refuses: SvelteKit's `fail(status, data)`,
 * so the page's `form` prop holds `{ error, reason?, retryAfter? }` and the page shows it.
 *
 * Exported from `latchkey/sveltekit`.
 *
 * @example
 * ```ts
 * import type { KitActionFailure, PasswordFormError } from "latchkey/sveltekit"
 * const message = (failure: KitActionFailure<PasswordFormError>) => (failure.data.error === "RateLimited" ? `Try again in ${failure.data.retryAfter} s.` : failure.data.error)
 * ```
 */
export interface KitActionFailure<T> {
  status: number
  data: T
}

/**
 * The `form` data of a refused password form action: the route's stable code, with `reason` beside
 * `PasswordPolicy` and `retryAfter` beside `RateLimited`.
 *
 * Exported from `latchkey/sveltekit`.
 *
 * @example
 * ```ts
 * import type { PasswordFormError } from "latchkey/sveltekit"
 * const tooShort = (form: PasswordFormError | undefined) => form?.error === "PasswordPolicy" && form.reason === "too_short"
 * ```
 */
export interface PasswordFormError {
  error: string
  reason?: PasswordRefusalReason
  retryAfter?: number
}

/**
 * Sends the browser to `location` with SvelteKit's `redirect`. SvelteKit 3 refuses external URLs
 * unless their origin is allowed, so the one origin of this destination is allowed: it came from
 * the handler (a provider's authorization URL, or a URL its redirect rules kept on the app).
 */
function go(redirect: Redirect, location: string): never {
  return redirect(303, location, { external: [new URL(location).origin] })
}

/**
 * SvelteKit's `redirect`, from the app's own copy: SvelteKit recognises a thrown redirect by its
 * class (`instanceof Redirect`), so it must be the very copy the app runs. The specifier stays a
 * literal so the app's bundler resolves it to that copy (SvelteKit bundles packages that peer on
 * it, as latchkey does); `as string` only keeps the type checker from needing SvelteKit's types.
 */
async function kitRedirect(): Promise<Redirect> {
  return (await kit()).redirect
}

async function kit(): Promise<{ redirect: Redirect; fail: Fail }> {
  return (await import("@sveltejs/kit" as string)) as { redirect: Redirect; fail: Fail }
}

/** Runs the handler for an event and writes its cookies; answers the outcome. */
export async function runForEvent(auth: Pick<Auth, "handler">, pages: ErrorPages, event: KitActionEvent, path: string, fields: Record<string, string>): Promise<ActionResult> {
  const { result, setCookies } = await runAction(auth, pages, actionRequestOf(event), path, fields)
  writeCookies(event, setCookies)
  return result
}

/** The request an action runs for, from the event: its origin, headers, and cookies as a `cookie` header. */
function actionRequestOf(event: KitActionEvent): ActionRequest {
  const cookie = event.cookies.getAll().map(({ name, value }) => `${name}=${encodeURIComponent(value)}`).join("; ")
  return { url: new URL(event.url.origin), headers: event.request.headers, cookie }
}

/** Writes the handler's `Set-Cookie` values through `event.cookies`. */
function writeCookies(event: KitActionEvent, setCookies: string[]): void {
  for (const header of setCookies) {
    const { name, value, path: cookiePath, ...options } = cookieToSet(header)
    event.cookies.set(name, value, { ...options, path: cookiePath ?? "/" })
  }
}

/**
 * Runs a password form's POST for an event (the form's fields, `redirectTo` where it ends) and
 * writes its cookies: the route's answer, and the page a success goes to next (the handler's, else
 * `redirectTo`, else the page the form was on).
 */
export async function runPasswordForm(auth: Pick<Auth, "handler">, pages: ErrorPages, event: KitActionEvent, route: string): Promise<{ result: PasswordAnswer; next: string }> {
  const form = await event.request.formData()
  const { result, setCookies } = await runPasswordAction(auth, pages.basePath, actionRequestOf(event), route, passwordFields(form, undefined))
  writeCookies(event, setCookies)
  if (result.url) return { result, next: result.url }
  // The handler answers every success with its URL; without one, the form's own fields decide, so only a page on the app.
  const fallback = form.get("redirectTo")
  const next = new URL(typeof fallback === "string" ? fallback : (refererPath(event.request.headers) ?? "/"), event.url)
  return { result, next: next.origin === event.url.origin ? next.href : new URL("/", event.url).href }
}

/**
 * One password form action: the browser is redirected (303) where {@link runPasswordForm} says,
 * or, refused, the page gets `fail(status, { error, reason?, retryAfter? })`.
 */
function passwordFormAction(auth: Pick<Auth, "handler">, pages: ErrorPages, route: string) {
  return async (event: KitActionEvent): Promise<KitActionFailure<PasswordFormError>> => {
    const { result, next } = await runPasswordForm(auth, pages, event, route)
    const { redirect, fail } = await kit()
    if (result.ok) return go(redirect, next)
    return fail(result.status >= 400 && result.status < 500 ? result.status : 400, formError(result))
  }
}

/** A refusal as the page's `form` data: the code, and `reason` or `retryAfter` when the route gave one. */
export function formError({ error, reason, retryAfter }: { error: string; reason?: PasswordRefusalReason; retryAfter?: number }): PasswordFormError {
  return { error, ...(reason ? { reason } : {}), ...(retryAfter !== undefined ? { retryAfter } : {}) }
}

/** The `signIn` and `signOut` form actions, and the password form actions, over one handler. */
export function eventActions(auth: Pick<Auth, "handler">, pages: ErrorPages) {
  async function signIn(event: KitActionEvent): Promise<never> {
    const form = await event.request.formData()
    const providerId = form.get("providerId")
    const redirect = await kitRedirect()
    // No provider named: the sign-in page lists them all.
    if (typeof providerId !== "string" || providerId === "") {
      const target = new URL(pages.signIn ?? `${pages.basePath}/signin`, event.url)
      const redirectTo = form.get("redirectTo")
      if (typeof redirectTo === "string") target.searchParams.set("callbackUrl", redirectTo)
      go(redirect, target.href)
    }
    const fields = signInFields(form, refererPath(event.request.headers))
    const result = await runForEvent(auth, pages, event, `${pages.basePath}/signin/${encodeURIComponent(providerId as string)}`, fields)
    return go(redirect, result.url ?? new URL(`${pages.error ?? `${pages.basePath}/error`}?error=${encodeURIComponent(result.error ?? "Configuration")}`, event.url).href)
  }

  async function signOut(event: KitActionEvent): Promise<never> {
    const form = await event.request.formData()
    const redirectTo = form.get("redirectTo")
    const redirect = await kitRedirect()
    const result = await runForEvent(auth, pages, event, `${pages.basePath}/signout`, typeof redirectTo === "string" ? { callbackUrl: redirectTo } : {})
    return go(redirect, result.url ?? new URL("/", event.url).href)
  }

  return {
    signIn,
    signOut,
    signUp: passwordFormAction(auth, pages, "password/sign-up"),
    requestPasswordReset: passwordFormAction(auth, pages, "password/forgot"),
    resetPassword: passwordFormAction(auth, pages, "password/reset"),
    changePassword: passwordFormAction(auth, pages, "password/change"),
    changeEmail: passwordFormAction(auth, pages, "password/change-email"),
  }
}
