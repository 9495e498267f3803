/**
 * `signIn` and `signOut` for Next.js server actions, and the password calls (sign-up, reset,
 * change), over the handler's own routes (see `../run-action.ts`), with the cookies written
 * through Next's cookie store.
 *
 * The outcome is a value, never a thrown `NEXT_REDIRECT`: a redirect thrown from inside a library
 * call is swallowed by any try/catch around it (next-auth#12663, next.js#55586), so the app calls
 * `redirect(result.url)` itself, after its try/catch. Even when it never does, the cookies are
 * already written, and Next re-renders the page with them.
 */
import type { Auth } from "../../handler/index.js"
import type { PasswordAnswer } from "../../lib/password-answer.js"
import { passwordFields, refererPath, refuseCallbackUrl, runAction, runPasswordAction, signInFields, type ActionRequest, type ActionResult, type ErrorPages } from "../run-action.js"
import { cookieToSet, type CookieToSet } from "../set-cookie.js"
import { actionRequest, type CookieReader } from "./incoming.js"

/**
 * Options of the server-action `signIn`: `redirectTo` (where to land afterwards, on the app's
 * origin; default: the page the action was called from) and the form fields a provider reads,
 * such as `email` for email sign-in or `username`/`password` for credentials.
 *
 * Exported from `latchkey/next`.
 *
 * @example
 * ```ts
 * import type { SignInOptions } from "latchkey/next"
 * const options: SignInOptions = { redirectTo: "/dashboard", email: "ada@example.com" }
 * ```
 */
export type SignInOptions = {
  redirectTo?: string
  /** Named `redirectTo`, as in Auth.js v5: a `callbackUrl` option is refused with `InvalidOptionError`. */
  callbackUrl?: never
} & Record<string, string | undefined>

/**
 * Options of the server-action `signOut`: `redirectTo`, where to land (default: the app's root).
 *
 * Exported from `latchkey/next`.
 *
 * @example
 * ```ts
 * import type { SignOutOptions } from "latchkey/next"
 * const options: SignOutOptions = { redirectTo: "/goodbye" }
 * ```
 */
export interface SignOutOptions {
  redirectTo?: string
  /** Named `redirectTo`, as in Auth.js v5: a `callbackUrl` option is refused with `InvalidOptionError`. */
  callbackUrl?: never
}

/**
 * What a server action's password call answers (`signUp`, `requestPasswordReset`, `resetPassword`,
 * `changePassword`, `changeEmail`): `ok` with the `url` the handler would send the browser to next
 * (a "check your email" page, or where to land once signed in), or the route's stable `error`
 * code, with `reason` beside `PasswordPolicy` and `retryAfter` beside `RateLimited`. The cookies
 * (a new session) are already written.
 *
 * Exported from `latchkey/next`.
 *
 * @example
 * ```ts
 * import type { PasswordActionResult } from "latchkey/next"
 * const message = (result: PasswordActionResult) => (result.ok ? "" : result.error === "PasswordPolicy" ? `Choose another password (${result.reason}).` : result.error)
 * ```
 */
export type PasswordActionResult = PasswordAnswer

/**
 * The fields of a password action as a record: strings (a `true` is sent as "true"), as the page's
 * form would post them. A `FormData` may be passed instead.
 *
 * Exported from `latchkey/next`.
 *
 * @example
 * ```ts
 * import type { PasswordActionFields } from "latchkey/next"
 * const fields: PasswordActionFields = { currentPassword: "correct horse battery staple", newPassword: "purple elephants dance at noon", revokeOtherSessions: true }
 * ```
 */
export type PasswordActionFields = Record<string, string | boolean | undefined> & { callbackUrl?: never }

/** What the actions read and write: Next's `headers()` and `cookies()`, or anything shaped like them. */
export interface ActionIO {
  headers(): Promise<Headers>
  cookies(): Promise<CookieReader & { set(cookie: CookieToSet): unknown }>
}

/** The server-action `signIn` and `signOut`, and the password calls, over one handler. */
export function serverActions(auth: Pick<Auth, "handler">, pages: ErrorPages, io: ActionIO) {
  /** Runs `post` for the request Next is handling, and writes the cookies it set. */
  async function withCookies<R>(post: (request: ActionRequest, incoming: Headers) => Promise<{ result: R; setCookies: string[] }>): Promise<R> {
    const incoming = await io.headers()
    const store = await io.cookies()
    const { result, setCookies } = await post(actionRequest(incoming, store), incoming)
    for (const header of setCookies) store.set(cookieToSet(header))
    return result
  }

  const run = (path: string, fields: (incoming: Headers) => Record<string, string>) => withCookies((request, incoming) => runAction(auth, pages, request, path, fields(incoming)))

  /** A password call: the route, its fields from a record or a form, and `redirectTo` for where it ends. */
  const password = (route: string, source: PasswordActionFields | FormData, redirectTo?: string) =>
    withCookies((request) => runPasswordAction(auth, pages.basePath, request, route, passwordFields(source, redirectTo)))

  async function signIn(providerId: string, options: SignInOptions | FormData = {}): Promise<ActionResult> {
    return run(`${pages.basePath}/signin/${encodeURIComponent(providerId)}`, (incoming) => signInFields(options, refererPath(incoming)))
  }

  async function signOut(options: SignOutOptions = {}): Promise<ActionResult> {
    refuseCallbackUrl(options)
    const fields: Record<string, string> = options.redirectTo === undefined ? {} : { callbackUrl: options.redirectTo }
    return run(`${pages.basePath}/signout`, () => fields)
  }

  return {
    signIn,
    signOut,
    signUp: (fields: PasswordActionFields | FormData, options: PasswordActionOptions = {}) => password("password/sign-up", fields, destination(options)),
    requestPasswordReset: (email: string | FormData, options: PasswordActionOptions = {}) => password("password/forgot", typeof email === "string" ? { email } : email, destination(options)),
    resetPassword: (fields: PasswordActionFields | FormData, options: PasswordActionOptions = {}) => password("password/reset", fields, destination(options)),
    changePassword: (fields: PasswordActionFields | FormData) => password("password/change", fields),
    changeEmail: (fields: PasswordActionFields | FormData) => password("password/change-email", fields),
  }
}

/**
 * Options of the password actions that end on a page: `redirectTo`, where to land once signed in
 * (after sign-up, or after a reset; for a reset request, after the mailed link).
 *
 * Exported from `latchkey/next`.
 *
 * @example
 * ```ts
 * import type { PasswordActionOptions } from "latchkey/next"
 * const options: PasswordActionOptions = { redirectTo: "/welcome" }
 * ```
 */
export interface PasswordActionOptions {
  redirectTo?: string
  /** Named `redirectTo`, as in Auth.js v5: a `callbackUrl` option is refused with `InvalidOptionError`. */
  callbackUrl?: never
}

function destination(options: PasswordActionOptions): string | undefined {
  refuseCallbackUrl(options)
  return options.redirectTo
}
