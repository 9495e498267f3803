/**
 * The core types shared by every latchkey module: the user and account a sign-in produces, the
 * tokens a provider hands back, and the session token's claims. Exported from `latchkey/types`
 * (and re-exported by the root `latchkey`). The module holds types only and costs nothing at run
 * time.
 *
 * @module
 */

/**
 * A value, or a promise of one. Callbacks may answer either way.
 *
 * @example
 * ```ts
 * import type { Awaitable, User } from "latchkey/types"
 * const findUser: (id: string) => Awaitable<User | null> = (id) => ({ id, name: "Ada" })
 * const user = await findUser("42") // works whether the function answers now or later
 * ```
 */
export type Awaitable<T> = T | PromiseLike<T>

/**
 * The user as latchkey knows it: what a provider's profile maps to, and what an adapter stores.
 *
 * @example
 * ```ts
 * import type { User } from "latchkey/types"
 * const user: User = { id: "42", name: "Ada", email: "ada@example.com", image: null }
 * ```
 */
export interface User extends DefaultUser {}

/**
 * The fields latchkey knows on every user, as Auth.js's `DefaultUser`; `User` extends it, so an
 * augmentation of `User` adds fields to what it holds.
 *
 * @example
 * ```ts
 * import type { DefaultUser } from "latchkey/types"
 * const known: DefaultUser = { id: "42", name: "Ada", email: "ada@example.com", image: null }
 * ```
 */
export interface DefaultUser {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
}

/**
 * The tokens a token endpoint returns (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3), plus
 * `expires_at`, the absolute expiry in seconds since the epoch that latchkey computes from
 * `expires_in`.
 *
 * @example
 * ```ts
 * import type { TokenSet } from "latchkey/types"
 * const tokens: TokenSet = { access_token: "gho_…", token_type: "bearer", scope: "read:user" }
 * ```
 */
export interface TokenSet {
  access_token?: string
  token_type?: string
  id_token?: string
  refresh_token?: string
  scope?: string
  expires_in?: number
  expires_at?: number
  [parameter: string]: unknown
}

/**
 * The link between a user and one provider identity: which provider, which account there, and
 * the tokens kept for it.
 *
 * @example
 * ```ts
 * import type { Account } from "latchkey/types"
 * const account: Account = { provider: "github", type: "oauth", providerAccountId: "1" }
 * ```
 */
export interface Account extends Partial<TokenSet> {
  /** The provider id, as in the callback URL (`github`, `google`, …). */
  provider: string
  /** The provider's type. */
  type: "oidc" | "oauth" | "email" | "credentials" | "webauthn"
  /** The user's id at the provider: `sub` for OpenID Connect, the provider's own id otherwise. */
  providerAccountId: string
  /** The latchkey user this account belongs to, once linked. */
  userId?: string
  session_state?: string | null
}

/**
 * The raw profile a provider returns from its userinfo endpoint or id_token, before mapping.
 * Built-in providers narrow it with their own typed `<Name>Profile`.
 *
 * @example
 * ```ts
 * import type { Profile } from "latchkey/types"
 * const profile: Profile = { sub: "248289761001", email: "jane@example.com", name: "Jane" }
 * ```
 */
export interface Profile {
  sub?: string | null
  name?: string | null
  given_name?: string | null
  family_name?: string | null
  email?: string | null
  email_verified?: boolean | null
  picture?: string | null
  [claim: string]: unknown
}

/**
 * The claims latchkey writes into every session token by default. `iat`, `exp` and `jti` are
 * set by `encode` on every write.
 *
 * @example
 * ```ts
 * import type { DefaultJWT } from "latchkey/types"
 * const claims: DefaultJWT = { sub: "42", name: "Ada", email: "ada@example.com", picture: null }
 * ```
 */
export interface DefaultJWT extends Record<string, unknown> {
  name?: string | null
  email?: string | null
  picture?: string | null
  sub?: string
  iat?: number
  exp?: number
  jti?: string
}

/**
 * The session token's claims. Extend it through declaration merging to type your own claims.
 *
 * @example
 * ```ts
 * declare module "latchkey/types" {
 *   interface JWT { role?: "admin" | "member" }
 * }
 * ```
 */
export interface JWT extends DefaultJWT {}

/**
 * The fields latchkey puts in every session: the signed-in user and when the session ends. Every
 * session latchkey answers has a `user` (JWT and database alike), so unlike Auth.js's `user?` it
 * is not optional: `session.user.name` after `if (session)` type-checks. Auth.js apps that wrote
 * `user: { id: string } & DefaultSession["user"]` in an augmentation keep that line as it is.
 *
 * @example
 * ```ts
 * import type { DefaultSession } from "latchkey"
 * declare module "latchkey" {
 *   interface Session {
 *     user: { id: string } & DefaultSession["user"]
 *   }
 * }
 * ```
 */
export interface DefaultSession {
  /**
   * The signed-in user. `user.id` is set by default: the session token's `sub` with JWT sessions,
   * the user's row id with database sessions (Auth.js leaves it to a `session` callback, and such
   * a callback keeps working). It is optional in the type because a `jwt` callback may drop `sub`.
   */
  user: User
  /** ISO 8601 date-time when the session expires. */
  expires: string
  /**
   * Set when the provider refused to refresh this session's access token (`invalid_grant`: the
   * user revoked access, or the refresh token expired), with `providerTokens({ refresh })` on.
   * The user is still signed in to the app; sign them out, or send them through sign-in again.
   */
  error?: "RefreshTokenError"
}

/**
 * What an application reads as "the session": the signed-in user and when the session ends.
 * Extend it through declaration merging, in a file that imports from `latchkey` (an Auth.js app's
 * `declare module "next-auth"` or `"@auth/core/types"` becomes `declare module "latchkey"`).
 *
 * @example
 * ```ts
 * import type { Session } from "latchkey/types"
 * const session: Session = { user: { name: "Ada" }, expires: "2026-12-22T00:00:00.000Z" }
 * ```
 */
export interface Session extends DefaultSession {}

/**
 * Where latchkey reports what happens. Every method is optional; a missing one is silent.
 * Messages carry stable codes and never a secret or token contents.
 *
 * @example
 * ```ts
 * import type { LoggerInstance } from "latchkey/types"
 * const logger: LoggerInstance = { debug: (message, meta) => console.debug(message, meta) }
 * ```
 */
export interface LoggerInstance {
  error?: (error: Error) => void
  warn?: (code: string, metadata?: unknown) => void
  debug?: (message: string, metadata?: unknown) => void
}

/**
 * The session type an `auth` returns: give it `typeof auth` (the function, or everything
 * `createAuth` returned). It names, for code that cannot import the server's config (a browser
 * bundle), the type the `session` callback returns, with no `declare module`.
 *
 * @example
 * ```ts
 * import type { InferSession } from "latchkey/types"
 * import type { auth } from "./auth" // a type-only import: nothing of the server is bundled
 * export type AppSession = InferSession<typeof auth>
 * // createAuthClient<AppSession>() from latchkey/client, useSession<AppSession>() from latchkey/react
 * ```
 */
export type InferSession<T> = T extends { auth: (...args: never[]) => Promise<infer S> }
  ? Exclude<S, null | undefined>
  : T extends (...args: never[]) => Promise<infer S>
    ? Exclude<S, null | undefined>
    : never
