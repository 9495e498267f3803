/**
 * The browser client's public types: its options, the session state it keeps, and the values its
 * calls answer. Types only; nothing here costs anything at run time.
 */
import type { PasswordRefusalReason } from "../lib/password-answer.js"
import type { ClientErrorCode } from "../handler/errors.js"
import type { SessionRouteNotFoundError } from "../errors.js"
import type { Session } from "../types.js"

/**
 * Why a client call failed: a code the handler answered (`CredentialsSignin`, `AccessDenied`,
 * `Verification`, `MissingCSRF`, …), or one the client found itself: `NetworkError` (no answer),
 * `InvalidResponse` (an answer that is not the handler's JSON), `UnknownProvider`.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { signIn, type AuthClientError } from "latchkey/client"
 * const messages: Partial<Record<AuthClientError, string>> = { CredentialsSignin: "Wrong email or password.", NetworkError: "You are offline." }
 * const result = await signIn("credentials", { email, password, redirect: false })
 * if (result.error) showError(messages[result.error] ?? "Sign-in failed.")
 * ```
 */
export type AuthClientError = ClientErrorCode | "NetworkError" | "InvalidResponse" | "UnknownProvider"

/**
 * Whether a user is signed in: `"loading"` until the client knows.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import type { SessionStatus } from "latchkey/client"
 * const label: Record<SessionStatus, string> = { loading: "…", authenticated: "Sign out", unauthenticated: "Sign in" }
 * ```
 */
export type SessionStatus = "loading" | "authenticated" | "unauthenticated"

/**
 * What the client knows of the session: `data` is the session, or null when signed out (and while
 * loading). The object is replaced only when something in it changes.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { createAuthClient, type SessionState } from "latchkey/client"
 * const client = createAuthClient()
 * const render = ({ data, status }: SessionState) => (header.textContent = status === "authenticated" ? data!.user?.name ?? "" : "Guest")
 * client.subscribe(render)
 * ```
 */
export interface SessionState<S extends Session = Session> {
  data: S | null
  status: SessionStatus
}

/**
 * Options of {@link client!createAuthClient}.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { createAuthClient, type AuthClientOptions } from "latchkey/client"
 * const options: AuthClientOptions = { basePath: "/api/auth", refetchInterval: 300 }
 * export const client = createAuthClient(options)
 * ```
 */
export interface AuthClientOptions<S extends Session = Session> {
  /** Where the handler is mounted. Default `/auth` (Auth.js's Next.js default is `/api/auth`). */
  basePath?: string
  /**
   * The app's origin, such as `https://app.example.com`. Default: the page's own origin. Needed
   * only where there is no page (a test, a worker); the handler answers only its own origin.
   */
  baseUrl?: string
  /** Replaces `globalThis.fetch` (looked up on every call, so a later polyfill or test double is seen). */
  fetch?: typeof fetch
  /** Re-read the session when the page becomes visible or the window gains focus. Default true. */
  refetchOnWindowFocus?: boolean
  /** Seconds between re-reads while signed in and online. Default 0: never. */
  refetchInterval?: number
  /**
   * Tell this app's other tabs when the session changes here (sign-in, sign-out, update), and
   * listen for theirs: a BroadcastChannel, else `storage` events. Default true.
   */
  broadcast?: boolean
  /**
   * The session the server already read for this page (null: signed out), so the first state is
   * known and nothing shows signed-out content while a request is made. Default: unknown
   * (`"loading"` until the first read).
   */
  session?: S | null
  /**
   * Where the client reports a setup error: a `SessionRouteNotFoundError` when the session route
   * answers 404 (`basePath` is not where the handler is mounted), once per client. Default
   * `console.error`.
   */
  onError?: (error: SessionRouteNotFoundError) => void
}

/**
 * The options of {@link client!AuthClient.signIn}. Every other field is sent with the form: the
 * credentials' fields (`username`, `password`, …), or `email` for an email provider. Where to go
 * afterwards is `redirectTo`, as in next-auth v5's `next-auth/react` and latchkey's server helpers
 * (it travels to the handler as Auth.js's `callbackUrl` form field).
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { signIn, type SignInOptions } from "latchkey/client"
 * const options: SignInOptions = { email: "ada@example.com", redirectTo: "/welcome", redirect: false }
 * await signIn("email", options)
 * ```
 */
export interface SignInOptions {
  /** Where to go once signed in (same origin only; the handler refuses others). Default: this page. */
  redirectTo?: string
  /** Named `redirectTo`: a `callbackUrl` option is refused with `InvalidOptionError`. */
  callbackUrl?: never
  /**
   * Navigate to where the handler sends the browser (the provider, the callback URL, the
   * verify-request page) when the sign-in succeeds. Default true. False never navigates: the
   * result says what happened. A failure never navigates.
   */
  redirect?: boolean
  [field: string]: string | number | boolean | undefined
}

/**
 * The options of {@link client!AuthClient.signOut}.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { signOut, type SignOutOptions } from "latchkey/client"
 * const options: SignOutOptions = { redirectTo: "/", redirect: true }
 * await signOut(options)
 * ```
 */
export interface SignOutOptions {
  /** Where to go once signed out (same origin only). Default: this page. */
  redirectTo?: string
  /** Named `redirectTo`: a `callbackUrl` option is refused with `InvalidOptionError`. */
  callbackUrl?: never
  /** Navigate there once signed out. Default true. */
  redirect?: boolean
}

/**
 * What a sign-in answered. `ok` is true when the handler accepted it; then `url` is where it
 * sends the browser. Otherwise `error` says why, and for a `CredentialsSignin` refusal `code` is
 * the code `authorize` threw (`"credentials"` by default). `status` is the handler's HTTP status,
 * 0 when no request was answered.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { signIn, type SignInResult } from "latchkey/client"
 * const result: SignInResult = await signIn("credentials", { username, password, redirect: false })
 * if (!result.ok && result.code === "locked") showError("Your account is locked.")
 * ```
 */
export interface SignInResult {
  ok: boolean
  error: AuthClientError | undefined
  code: string | undefined
  url: string | null
  status: number
  /** With `error: "RateLimited"`: the seconds until an attempt may pass again. */
  retryAfter?: number
}

/**
 * What a sign-out answered: `url` is where the handler sends the browser.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { signOut, type SignOutResult } from "latchkey/client"
 * const result: SignOutResult = await signOut({ redirect: false })
 * if (!result.ok) showError("Could not sign out; try again.")
 * ```
 */
export interface SignOutResult {
  ok: boolean
  error: AuthClientError | undefined
  url: string | null
  status: number
}

/**
 * A provider as `GET <basePath>/providers` describes it: enough to draw a button, no secrets.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { getProviders, type ClientProvider } from "latchkey/client"
 * const providers = await getProviders()
 * const oauth: ClientProvider[] = Object.values(providers ?? {}).filter((p) => p.type === "oauth" || p.type === "oidc")
 * ```
 */
export interface ClientProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
}

/**
 * The client: every call goes to the handler's routes, and every answer is a value. Nothing
 * throws to redirect, and a network failure is a result (`NetworkError`), not an exception.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { createAuthClient, type AuthClient } from "latchkey/client"
 * import type { AppSession } from "./session-type" // InferSession<typeof auth>
 * export const client: AuthClient<AppSession> = createAuthClient<AppSession>({ basePath: "/api/auth" })
 * ```
 */
export interface AuthClient<S extends Session = Session> {
  /**
   * Signs in with a provider. OAuth and OpenID Connect providers go to the provider; email sends
   * the link; credentials check the fields sent with the form. Without a provider id, goes to
   * the sign-in page. A successful sign-in is told to the app's other tabs.
   *
   * @throws {@link index!InvalidOptionError} (as a rejection) for a `callbackUrl` option: it is `redirectTo`.
   */
  signIn(providerId?: string, options?: SignInOptions): Promise<SignInResult>
  /**
   * Signs out, tells the other tabs, and goes to `redirectTo` unless `redirect` is false.
   *
   * @throws {@link index!InvalidOptionError} (as a rejection) for a `callbackUrl` option: it is `redirectTo`.
   */
  signOut(options?: SignOutOptions): Promise<SignOutResult>
  /**
   * Reads the session from the server and updates the state. Calls made while one is in flight
   * share it. When the server cannot be reached, answers the last known session.
   */
  getSession(): Promise<S | null>
  /**
   * Re-reads the session from the server through the `jwt` callback's `update` trigger (with
   * `data` as its `session`), updates the state and tells the other tabs. When the server cannot
   * be reached, answers the last known session.
   */
  update(data?: unknown): Promise<S | null>
  /** The providers, keyed by id; null when they cannot be read. */
  getProviders(): Promise<Record<string, ClientProvider> | null>
  /** The CSRF token (also setting its cookie); undefined when it cannot be read. */
  getCsrfToken(): Promise<string | undefined>
  /**
   * Calls `listener` with every new state; answers the function that stops it. While anything
   * listens, the client keeps the state fresh: it re-reads on window focus and on `refetchInterval`,
   * and when another tab signs in or out. The first listener starts a read when the session is
   * not known yet.
   */
  subscribe(listener: (state: SessionState<S>) => void): () => void
  /** The current state (the same object until something changes). */
  getState(): SessionState<S>
  /**
   * Sets the state to a session the server just rendered, such as a server component's props
   * after a server action signed in or out. Nothing is sent to the handler; when the user
   * changed, the app's other tabs are told to re-read.
   */
  setSession(session: S | null): void
  /**
   * Creates a password account (`latchkey/providers/password`). With email verification on (the
   * default), the answer's `url` is the "check your email" page and nobody is signed in yet; with
   * it off, the new user is signed in and the other tabs are told. An address that already has an
   * account answers exactly as a new one does.
   *
   * @throws {@link index!InvalidOptionError} (as a rejection) for a `callbackUrl` option: it is `redirectTo`.
   */
  signUp(fields: SignUpFields, options?: PasswordCallOptions): Promise<PasswordResult>
  /**
   * Asks for a reset link for `email`. The answer is the same whether or not the address has an
   * account. `redirectTo` is where the browser goes once the password is reset. Never navigates.
   */
  requestPasswordReset(email: string, options?: Pick<PasswordCallOptions, "redirectTo">): Promise<PasswordResult>
  /**
   * Sets a new password with the token and address of a reset link. By default every session of
   * the user ends, and this browser is signed in again (the other tabs are told). Without
   * `redirectTo`, the browser goes to the link's own `callbackUrl` (else the handler's default),
   * never back to the link's page, whose token is used up.
   */
  resetPassword(fields: ResetPasswordFields, options?: PasswordCallOptions): Promise<PasswordResult>
  /**
   * Changes the signed-in user's password; the current one is required (`InvalidCurrentPassword`
   * when wrong, `SessionRequired` when signed out). The session is issued again and read again.
   */
  changePassword(fields: ChangePasswordFields): Promise<PasswordResult>
  /**
   * Starts changing the signed-in user's address: a link goes to the new one, a notice to the old
   * one, and the address changes when the link is opened.
   */
  changeEmail(fields: ChangeEmailFields): Promise<PasswordResult>
}

/**
 * Why a new password was refused, with `error: "PasswordPolicy"`: shorter than the policy's
 * minimum, longer than its maximum, found in a breach list, or not a usable string.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import type { PasswordPolicyRefusal } from "latchkey/client"
 * const hints: Record<PasswordPolicyRefusal, string> = { too_short: "Use a longer password.", too_long: "Use a shorter password.", breached: "This password appeared in a breach.", invalid: "Choose another password." }
 * ```
 */
export type PasswordPolicyRefusal = PasswordRefusalReason

/**
 * What a password account call answered: `ok`, with `url` where the handler sends the browser
 * next when it does; or `error`, the stable code of the refusal, with `retryAfter` (seconds) on
 * `RateLimited` and `reason` on `PasswordPolicy`. `status` is the handler's HTTP status, 0 when no
 * request was answered. A refusal is never thrown.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { signUp, type PasswordResult } from "latchkey/client"
 * const result: PasswordResult = await signUp({ email, password }, { redirect: false })
 * if (!result.ok && result.error === "RateLimited") showError(`Try again in ${result.retryAfter} seconds.`)
 * ```
 */
export type PasswordResult =
  | { ok: true; url?: string; status: number; error?: undefined; retryAfter?: undefined; reason?: undefined }
  | { ok: false; error: AuthClientError; status: number; url?: undefined; retryAfter?: number; reason?: PasswordPolicyRefusal }

/**
 * The fields of {@link client!AuthClient.signUp}: the address and password, the name, and the app's
 * own sign-up fields (which its `Password({ signUp })` callback receives), sent as strings.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { signUp, type SignUpFields } from "latchkey/client"
 * const fields: SignUpFields = { email: "ada@example.com", password: "correct horse battery staple", name: "Ada", company: "Analytical Engines" }
 * await signUp(fields)
 * ```
 */
export interface SignUpFields {
  email: string
  password: string
  name?: string
  [field: string]: string | number | boolean | undefined
}

/**
 * Where a password call that ends signed in (or on a page) goes: `redirectTo`, as for `signIn`, and
 * whether to navigate there. The handler keeps `redirectTo` for after the emailed link too.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { resetPassword, type PasswordCallOptions } from "latchkey/client"
 * const options: PasswordCallOptions = { redirectTo: "/account", redirect: true }
 * await resetPassword({ token, email, password }, options)
 * ```
 */
export interface PasswordCallOptions {
  /** Where to go once signed in (same origin only). Default: this page; for `resetPassword`, the reset link's `callbackUrl`. */
  redirectTo?: string
  /** Named `redirectTo`: a `callbackUrl` option is refused with `InvalidOptionError`. */
  callbackUrl?: never
  /** Navigate to the handler's next page on success. Default true; a refusal never navigates. */
  redirect?: boolean
}

/**
 * The fields of {@link client!AuthClient.resetPassword}: the token and address from the reset link,
 * and the new password.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { resetPassword, type ResetPasswordFields } from "latchkey/client"
 * const params = new URL(location.href).searchParams
 * const fields: ResetPasswordFields = { token: params.get("token") ?? "", email: params.get("email") ?? "", password: input.value }
 * await resetPassword(fields)
 * ```
 */
export interface ResetPasswordFields {
  token: string
  email: string
  password: string
}

/**
 * The fields of {@link client!AuthClient.changePassword}. With `revokeOtherSessions`, every other
 * session of the user ends (this one is issued again).
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { changePassword, type ChangePasswordFields } from "latchkey/client"
 * const fields: ChangePasswordFields = { currentPassword: current.value, newPassword: next.value, revokeOtherSessions: true }
 * await changePassword(fields)
 * ```
 */
export interface ChangePasswordFields {
  currentPassword: string
  newPassword: string
  revokeOtherSessions?: boolean
}

/**
 * The fields of {@link client!AuthClient.changeEmail}: the new address and the current password.
 * A link goes to the new address; the address changes when it is opened.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { changeEmail, type ChangeEmailFields } from "latchkey/client"
 * const fields: ChangeEmailFields = { newEmail: "ada@new.example", password: current.value }
 * await changeEmail(fields)
 * ```
 */
export interface ChangeEmailFields {
  newEmail: string
  password: string
}
