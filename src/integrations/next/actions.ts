/**
 * `signIn` and `signOut` for Next.js server actions, over the handler's own routes (see
 * `../run-action.ts`), with the cookies written through Next's cookie store.
 *
 * The outcome is a value, never a thrown `NEXT_REDIRECT`: a redirect thrown from inside a library
 * call is swallowed by any try/catch around it (next-auth#12663, next.js#55586), so the app calls
 * `redirect(result.url)` itself, after its try/catch. Even when it never does, the cookies are
 * already written, and Next re-renders the page with them.
 */
import type { Auth } from "../../handler/index.js"
import { refererPath, refuseCallbackUrl, runAction, signInFields, type ActionResult, type ErrorPages } from "../run-action.js"
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

/** What the actions read and write: Next's `headers()` and `cookies()`, or anything shaped like them. */
export interface ActionIO {
  headers(): Promise<Headers>
  cookies(): Promise<CookieReader & { set(cookie: CookieToSet): unknown }>
}

/** The server-action `signIn` and `signOut` over one handler. */
export function serverActions(auth: Pick<Auth, "handler">, pages: ErrorPages, io: ActionIO) {
  async function run(path: string, fields: (incoming: Headers) => Record<string, string>): Promise<ActionResult> {
    const incoming = await io.headers()
    const store = await io.cookies()
    const { result, setCookies } = await runAction(auth, pages, actionRequest(incoming, store), path, fields(incoming))
    for (const header of setCookies) store.set(cookieToSet(header))
    return result
  }

  async function signIn(providerId: string, options: SignInOptions | FormData = {}): Promise<ActionResult> {
    return run(`${pages.basePath}/signin/${encodeURIComponent(providerId)}`, (incoming) => signInFields(options, refererPath(incoming)))
  }

  async function signOut(options: SignOutOptions = {}): Promise<ActionResult> {
    refuseCallbackUrl(options)
    const fields: Record<string, string> = options.redirectTo === undefined ? {} : { callbackUrl: options.redirectTo }
    return run(`${pages.basePath}/signout`, () => fields)
  }

  return { signIn, signOut }
}
