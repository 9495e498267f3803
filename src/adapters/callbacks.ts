/**
 * The callbacks an app shapes sign-in, the session token and the session with. They live on the
 * storage floor because the session store runs two of them (`jwt` and `session`) on every read and
 * write; the handler runs `signIn` and `redirect`. The option types the app writes are re-exported
 * from `latchkey` beside `createAuth`.
 */
import type { AdapterUser } from "./adapter.js"
import type { Account, Awaitable, JWT, Profile, Session, User } from "../types.js"

/**
 * Callbacks that shape the sign-in, the token and the session. `J` is what the `jwt` callback
 * returns (it types the `session` callback's `token`), `S` what the `session` callback returns (it
 * types `auth()`, and through `InferSession` the client's session): both are inferred from the
 * callbacks `createAuth` is given, so no `declare module` is needed.
 *
 * @example
 * ```ts
 * import type { AuthCallbacks } from "latchkey"
 * const callbacks: AuthCallbacks = {
 *   jwt: ({ token, account }) => (account ? { ...token, provider: account.provider } : token),
 *   session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub ?? session.user.id } }),
 * }
 * ```
 */
export interface AuthCallbacks<J extends JWT = JWT, S extends Session = Session> {
  /** Return false (or a relative URL to redirect to) to refuse a sign-in. */
  signIn?: (params: {
    user: User
    account: Account | null
    profile?: Profile
    email?: { verificationRequest?: boolean }
    /** A credentials sign-in's submitted fields, the ones its provider declares (what `authorize` was given), as in Auth.js. */
    credentials?: Record<string, unknown>
  }) => Awaitable<boolean | string>
  /** Where to send the user after sign-in or sign-out; only relative or same-origin URLs are honoured. */
  redirect?: (params: { url: string; baseUrl: string }) => Awaitable<string>
  /** Shapes the session token. `trigger` says why it runs. (Method syntax, so a config typed by its own `J` and `S` is still an `AuthConfig`.) */
  jwt?(params: {
    token: JWT
    user?: User
    account?: Account | null
    profile?: Profile
    isNewUser?: boolean
    /** `"signUp"` when an adapter created the user in this sign-in, as in Auth.js. */
    trigger: "signIn" | "signUp" | "update" | "session"
    /**
     * With `trigger: "update"`, what the client's `update(data)` sent. Typed `any` as in Auth.js, so its
     * documented recipe (`if (trigger === "update" && session?.name) token.name = session.name`)
     * compiles as it is: it is whatever JSON the browser posted, so check it before trusting it.
     */
    session?: any
  }): Awaitable<J | null>
  /** Shapes what `/session` and `auth()` return. */
  session?(params: {
    session: Session
    /** The session token's claims (what the `jwt` callback returned); with database sessions, claims made from the user (`sub` is the user's id). */
    token: J
    /** Database sessions: the adapter's user. */
    user?: AdapterUser
    /** Database sessions, on `POST /session` (the client's `update(data)`): `"update"`, as in Auth.js. */
    trigger?: "update"
    /** Database sessions, with `trigger: "update"`: the data the client sent. `any` as in Auth.js: whatever JSON the browser posted, so check it before trusting it. */
    newSession?: any
  }): Awaitable<S>
}
