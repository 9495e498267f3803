/**
 * What the handler lends the password routes: the few capabilities of `createAuth` they need (the
 * CSRF check and a token for a page, this browser's signed-in user, finishing a sign-in the normal
 * way, ending a user's sessions, the app's events, its pages and answers in the handler's style).
 * The routes live in `latchkey/passwords`, which only password apps import; the handler recognises
 * a password request, builds a {@link PasswordHost} for it and calls `passwords.handle`. This
 * folder never imports the handler, and the handler imports it as types only.
 *
 * @module
 */
import type { Adapter, AdapterUser } from "../adapters/adapter.js"
import type { ResolvedProvider } from "../providers/types.js"
import type { LoggerInstance, User } from "../types.js"
import type { PasswordHasher } from "./hasher.js"

/**
 * A resolved password provider (`Password()`), as the routes get it.
 *
 * @example
 * ```ts
 * import type { PasswordProvider } from "latchkey/passwords"
 * const verifies = (provider: PasswordProvider) => provider.requireEmailVerification
 * ```
 */
export type PasswordProvider = Extract<ResolvedProvider, { type: "password" }>

/**
 * The password routes, as the handler names them: `sign-in` is `POST callback/<id>`, the rest are
 * `password/<route>`.
 *
 * @example
 * ```ts
 * import type { PasswordRoute } from "latchkey/passwords"
 * const mailed: PasswordRoute[] = ["verify-email", "confirm-email"]
 * ```
 */
export type PasswordRoute = "sign-in" | "sign-up" | "verify-email" | "forgot" | "reset" | "change" | "change-email" | "confirm-email" | "check-email"

/**
 * One password request as the handler recognised it: which route, the app's password provider,
 * and the form of a POST (absent for a GET).
 *
 * @example
 * ```ts
 * import type { PasswordRequest } from "latchkey/passwords"
 * declare const provider: PasswordRequest["provider"]
 * const forgot: PasswordRequest = { route: "forgot", provider, form: new URLSearchParams({ email: "ada@example.com", csrfToken: "…" }) }
 * ```
 */
export interface PasswordRequest {
  route: PasswordRoute
  provider: PasswordProvider
  form?: URLSearchParams
}

/**
 * A password sign-in for the handler to finish through its normal path (the `signIn` and `jwt`
 * callbacks, the events, the session cookie).
 *
 * @example
 * ```ts
 * import type { PasswordSignIn } from "latchkey/passwords"
 * const signIn = (user: { id: string; email: string }): PasswordSignIn => ({ user, providerId: "password", isNewUser: false })
 * ```
 */
export interface PasswordSignIn {
  user: User
  providerId: string
  isNewUser: boolean
  /** Where the sign-in asked to go (checked again before it is used). */
  callbackUrl?: string | null
}

/**
 * The pages the password routes serve (their HTML is written in `latchkey/passwords`, inside the
 * handler's page shell).
 *
 * @example
 * ```ts
 * import type { PasswordPage } from "latchkey/passwords"
 * const page: PasswordPage = "forgot"
 * ```
 */
export type PasswordPage = "sign-up" | "forgot" | "reset" | "verify-email" | "check-email"

/**
 * The props of a password page.
 *
 * @example
 * ```ts
 * import type { PasswordPageInput } from "latchkey/passwords"
 * const props: PasswordPageInput = { action: "https://app.example.com/auth/password/forgot", csrfToken: "…", signInUrl: "https://app.example.com/auth/signin" }
 * ```
 */
export interface PasswordPageInput {
  action: string
  csrfToken: string
  callbackUrl?: string
  error?: string
  email?: string
  token?: string
  kind?: "verify-email" | "reset" | "change-email"
  fields?: { name: string; label: string; type?: string; required?: boolean }[]
  signInUrl: string
  forgotUrl?: string
  signUpUrl?: string
  /** The policy's length bounds, said on the page and checked by the browser. */
  minLength?: number
  maxLength?: number
  /** With `error: "PasswordPolicy"`: why the password was refused. */
  reason?: "too_short" | "too_long" | "breached" | "invalid"
}

/**
 * What the sign-in page's password form needs; the handler's sign-in page asks the plug-in for it.
 *
 * @example
 * ```ts
 * import type { PasswordSignInFormParams } from "latchkey/passwords"
 * const params: PasswordSignInFormParams = { id: "password", action: "https://app.example.com/auth/callback/password", common: "" }
 * ```
 */
export interface PasswordSignInFormParams {
  /** The provider's id: the fields' ids start with it. */
  id: string
  /** Where the form posts (`callback/<id>`). */
  action: string
  /** The hidden CSRF token and callback URL every form on the sign-in page carries. */
  common: string
  /** The sign-in page's `?error=` code. */
  error?: string
  signUpUrl?: string
  forgotUrl?: string
}

/**
 * The handler's capabilities for one password request. `createAuth` builds it; an app never does.
 *
 * @example
 * ```ts
 * import type { PasswordHost } from "latchkey/passwords"
 * const signedInId = async (host: PasswordHost) => (await host.signedInUser())?.userId ?? null
 * ```
 */
export interface PasswordHost {
  readonly request: Request
  readonly url: URL
  /** Origin plus base path: where the handler's routes live. */
  readonly baseUrl: string
  /** The app's secrets, newest first: mailed tokens are stored hashed with them. */
  readonly secret: readonly string[]
  /** The app's adapter, whose users never carry the `password` field. */
  readonly adapter: Adapter | undefined
  readonly logger: Required<LoggerInstance>
  /**
   * Logs a failure that escaped a route, as the handler logs its own routes' failures: a database
   * driver's error (whose message may quote a row, such as an address) as its code, never its message.
   */
  logFailure(failure: unknown): Promise<void>
  /** Whether the caller is a script that wants JSON (`X-Auth-Return-Redirect: 1`, or a JSON body). */
  readonly wantsJson: boolean
  /** The sign-in page (the app's `pages.signIn`, else the handler's). */
  readonly signInUrl: string
  /** Whether `submitted` is this browser's CSRF token. */
  verifyCsrf(submitted: string | null): Promise<boolean>
  /** The CSRF token for a page's form, with the cookie that carries it. */
  csrfToken(): Promise<{ token: string; cookies: string[] }>
  /** What names this browser to the app (the hash of its CSRF cookie's token), or undefined without one. */
  browserBinding(): Promise<string | undefined>
  /** This browser's user, confirmed against the session row (never a cached copy), or null. */
  signedInUser(): Promise<{ userId: string; user?: AdapterUser } | null>
  /** Finishes a sign-in; answers the handler's redirect carrying the session cookie. */
  completeSignIn(signIn: PasswordSignIn): Promise<Response>
  /** Ends every session of the user (JWT sessions through the per-user session version). */
  revokeSessions(userId: string): Promise<void>
  /** The cookies that show `user`'s change (a new address) in this browser's session, when it is theirs. */
  refreshSession(user: AdapterUser): Promise<string[]>
  /** Fires one of the app's events; a throwing handler is logged, not thrown. */
  fireEvent(name: "createUser" | "updateUser", message: { user: AdapterUser }): Promise<void>
  /** `requested` when it stays on the app's origin (after the `redirect` callback), else the base URL. */
  safeRedirect(requested: string | null | undefined): Promise<string>
  /** A redirect as the caller wants it: a 302, or `200 { url }` with the same cookies for a script. */
  go(url: string, cookies?: string[]): Response
  /** A JSON answer with the handler's headers (no caching, no sniffing) and Set-Cookie values. */
  json(value: unknown, cookies?: string[], status?: number): Response
  /** A redirect with the handler's headers. */
  redirect(url: string, cookies?: string[]): Response
  /** An answer from a redirect the handler made (a finished sign-in): JSON for a script. */
  asAnswer(response: Response): Response
  /** A page in the handler's shell (its look, light and dark, and the app's theme). */
  page(title: string, content: string, cookies?: string[]): Response
  /** The handler's wording for a client error code (as its error pages say it), or undefined. */
  errorMessage(code: string | undefined): string | undefined
}

/**
 * The `passwords` plug-in for `createAuth`: the routes, and the hasher they use.
 *
 * @example
 * ```ts
 * import { passwords, type PasswordsPlugIn } from "latchkey/passwords"
 * const plugIn: PasswordsPlugIn = passwords
 * ```
 */
export interface PasswordsPlugIn {
  /** The hasher the routes hash and verify with. */
  readonly hasher: PasswordHasher
  /** Answers one password request. */
  handle(host: PasswordHost, request: PasswordRequest): Promise<Response>
  /** The sign-in page's email + password form, with its forgot and sign-up links. */
  signInForm(params: PasswordSignInFormParams): string
}
