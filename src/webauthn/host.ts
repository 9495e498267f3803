/**
 * What the handler lends the passkey routes: the few capabilities of `createAuth` they need (the
 * CSRF check, this browser's signed-in user, finishing a sign-in the normal way, the app's events,
 * responses in the handler's style). The routes live in `latchkey/webauthn`, which only passkey
 * apps import; the handler recognises a passkey request, builds a {@link PasskeyHost} for it and
 * calls `webauthn.handle`. Data flows one way: this subpath never imports the handler, and the
 * handler imports it as types only.
 *
 * @module
 */
import type { Adapter, AdapterAccount, AdapterUser } from "../adapters/adapter.js"
import type { ResolvedProvider } from "../providers/types.js"
import type { Account, LoggerInstance, User } from "../types.js"

/**
 * A resolved passkey provider (`Passkey()` or `WebAuthn()`), as the ceremony's `checkProviders`
 * and `signInSection` get it.
 *
 * Exported from `latchkey/webauthn`.
 *
 * @example
 * ```ts
 * import type { PasskeyProvider } from "latchkey/webauthn"
 * const label = (provider: PasskeyProvider): string => (provider.allowSignUp ? "Sign in or sign up" : "Sign in")
 * ```
 */
export type PasskeyProvider = Extract<ResolvedProvider, { type: "webauthn" }>

/**
 * A passkey sign-in for the handler to finish through its normal path: the `signIn` callback, the
 * `jwt` callback, the events and the session cookie.
 *
 * @example
 * ```ts
 * import type { PasskeySignIn } from "latchkey/webauthn"
 * const returning = (user: { id: string; email: string }, credentialID: string): PasskeySignIn => ({
 *   user,
 *   account: { provider: "passkey", type: "webauthn", providerAccountId: credentialID },
 *   providerId: "passkey",
 *   resolveUser: async () => ({ user, isNewUser: false }),
 * })
 * ```
 */
export interface PasskeySignIn {
  user: User
  account: Account
  providerId: string
  /** Where the sign-in asked to go (the handler checks it before it is used). */
  callbackUrl?: string
  /** Finds or creates the user, after the `signIn` callback agreed: a refused sign-up writes nothing. */
  resolveUser: () => Promise<{ user: User; isNewUser: boolean }>
}

/**
 * One passkey request as the handler recognised it: which route, the provider named in the path
 * (options and callback), and the form of a POST (absent for a GET).
 *
 * @example
 * ```ts
 * import type { PasskeyRequest } from "latchkey/webauthn"
 * const listing: PasskeyRequest = { route: "passkeys" }
 * const renaming: PasskeyRequest = { route: "passkeys", form: new URLSearchParams({ action: "rename", id: "hWc3", name: "Laptop", csrfToken: "…" }) }
 * ```
 */
export interface PasskeyRequest {
  route: "options" | "callback" | "passkeys" | "script"
  provider?: PasskeyProvider
  form?: URLSearchParams
}

/**
 * The handler's capabilities for one passkey request. `createAuth` builds it; an app never does
 * (it is exported from `latchkey/webauthn` for a custom ceremony's `handle`).
 *
 * @example
 * ```ts
 * import type { PasskeyHost } from "latchkey/webauthn"
 * const signedInId = async (host: PasskeyHost) => (await host.signedInUser())?.userId ?? null
 * ```
 */
export interface PasskeyHost {
  readonly request: Request
  readonly url: URL
  /** The app's public origin. */
  readonly origin: string
  /** Whether cookies are `Secure` (and so may be `__Host-`). */
  readonly secure: boolean
  /** The app's secrets, newest first: the challenge cookie is sealed with the first. */
  readonly secret: string[]
  readonly providers: readonly ResolvedProvider[]
  readonly adapter: Adapter | undefined
  readonly logger: Required<LoggerInstance>
  /** One object per `createAuth`: keys what the routes remember between requests (used challenges). */
  readonly instance: object
  /** Whether `submitted` is this browser's CSRF token. */
  verifyCsrf(submitted: string | null): Promise<boolean>
  /**
   * The user whose session this browser holds (a session planted from another browser counts as
   * signed out), or null. With database sessions the adapter's user comes along, read from the
   * session's row, never from the `session.cache` copy: every passkey route changes what signs
   * the user in, and a revoked session must not (see SECURITY.md, "The cache answers reads").
   */
  signedInUser(): Promise<{ userId: string; user?: AdapterUser } | null>
  /** Finishes a sign-in; answers the handler's redirect carrying the session cookie. */
  completeSignIn(signIn: PasskeySignIn): Promise<Response>
  /** Fires one of the app's events; a throwing handler is logged, not thrown. */
  fireEvent(name: "createUser", message: { user: AdapterUser }): Promise<void>
  fireEvent(name: "linkAccount", message: { user: AdapterUser; account: AdapterAccount }): Promise<void>
  /** An email address as the handler's email sign-in normalises it; undefined when it is not one. */
  normalizeEmail(raw: string | null): string | undefined
  /** `requested` when it stays on the app's origin (after the `redirect` callback), else the base URL. */
  safeRedirect(requested: string | null): Promise<string>
  /** A JSON answer with the handler's headers (no caching, no sniffing) and Set-Cookie values. */
  json(value: unknown, cookies?: string[], status?: number): Response
  /** A plain answer with the handler's headers, `headers` on top (the served script). */
  text(body: string, status: number, headers: Record<string, string>): Response
}
