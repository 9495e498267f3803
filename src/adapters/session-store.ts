/**
 * The session store's contract: one `SessionStore` the handler calls for every session job (read
 * for `auth()` and `/session`, issue at sign-in, slide and update, end at sign-out, revoke, the
 * confirmed read that lasting writes make, the cookie-only read, and the session lent to a plug-in)
 * without asking which kind it is. Three kinds answer it: JWT sessions (jwt-sessions.ts), database
 * sessions (database-sessions.ts), and hybrid sessions, which are database sessions with the
 * `session.cache` copy (session-cache.ts) answering most reads. `settleSessionStore` (settle-sessions.ts)
 * picks one once, from the configuration. What a store call needs of a request is `SessionContext`:
 * the settled session parts and the request, nothing of the raw configuration. Provider tokens ride
 * along through `SessionTokensHook`, which the provider-tokens plug-in implements; the types it
 * shares with the store (`TokenClaim`, `HeldSession`, ...) live here, one floor below it.
 *
 * @module
 */
import type { Adapter, AdapterUser } from "./adapter.js"
import type { AuthCallbacks } from "./callbacks.js"
import type { Diagnostics } from "./diagnostics.js"
import type { SignInEvents } from "./events.js"
import type { SessionVersionStore } from "./session-versions.js"
import type { CookiesOptions } from "../jwt/cookie-names.js"
import type { JWTDecodeParams, JWTEncodeParams } from "../jwt/codec.js"
import type { Account, Awaitable, JWT, LoggerInstance, Profile, Session, User } from "../types.js"

/**
 * The provider tokens a session keeps: what an API call needs, and what refreshing needs.
 *
 * @example
 * ```ts
 * import type { ProviderTokens } from "latchkey/provider-tokens"
 * const tokens: ProviderTokens = { access_token: "ya29…", refresh_token: "1//0g…", expires_at: 1767225600, token_type: "bearer" }
 * ```
 */
export interface ProviderTokens {
  access_token?: string
  refresh_token?: string
  /** Seconds since the epoch. */
  expires_at?: number
  token_type?: string
  scope?: string
  id_token?: string
}

/**
 * The session claim, as callbacks see it under `token["latchkey.tokens"]`: the provider, the access
 * token's expiry, and `error` once a refresh was refused. Never a token.
 *
 * @example
 * ```ts
 * import type { TokenClaim } from "latchkey/provider-tokens"
 * const callbacks = {
 *   jwt: ({ token }: { token: Record<string, unknown> }) => {
 *     const claim = token["latchkey.tokens"] as TokenClaim | undefined
 *     if (claim?.error === "RefreshTokenError") console.info("ask the user to connect", claim.provider, "again")
 *     return token
 *   },
 * }
 * ```
 */
export interface TokenClaim {
  provider: string
  /** Seconds since the epoch; present only for a provider whose tokens are refreshed. */
  expires_at?: number
  error?: "RefreshTokenError"
}

/** A session's provider tokens as a request holds them: the claim, and the token set once it is opened. */
export interface HeldTokens {
  claim?: TokenClaim
  /** Opened from the token cookie, refreshed, or a sign-in's; undefined while still sealed. */
  tokens?: ProviderTokens
}

/** A read's provider tokens, and whether the session must be re-issued to keep them. */
export interface FreshClaim extends HeldTokens {
  changed: boolean
}

/** A session's kept tokens on their way into a write: the claim to seal in it, and the set for the token cookie. */
export interface KeptTokens {
  claim: TokenClaim | undefined
  set?: ProviderTokens
}

/**
 * A database session as the handler lends it: its user, and the confirmation every write waits
 * for. A session read from the `session.cache` copy may have been revoked since the copy was made:
 * the cache answers reads, and `confirm()` checks the session's row before anything is written
 * (a refresh, which rotates the provider's tokens and rewrites the account row, or a revocation).
 *
 * @example
 * ```ts
 * import type { HeldSession } from "latchkey/provider-tokens"
 * async function beforeWriting(session: HeldSession): Promise<boolean> {
 *   return session.confirm() // false: the row is gone (revoked), so nothing is written
 * }
 * ```
 */
export interface HeldSession {
  userId: string
  /** Whether the session's row still exists (answered at once when the row itself was read). */
  confirm(): Promise<boolean>
}

/**
 * What a session store needs of provider tokens, implemented by `latchkey/provider-tokens` (its
 * engine): how a JWT session carries their claim, and how a database session's account rows are
 * freshened. The store calls it only when the app passed the plug-in.
 */
export interface SessionTokensHook {
  /** A JWT session read: the claim, with the access token refreshed when it is due (a promise only then). */
  freshTokenClaim(context: SessionContext, claims: JWT): FreshClaim | Promise<FreshClaim>
  /** A JWT session write: what it keeps. */
  keptTokens(context: SessionContext, held: HeldTokens | undefined): Promise<KeptTokens>
  /** The claim's text in the session token. */
  claimText(claim: TokenClaim): string
  /** The token cookie for a session just encoded as `sessionToken`. */
  tokenCookies(context: SessionContext, kept: KeptTokens, sessionToken: string): Promise<string[]>
  /** What callbacks and events see of a session's claims. */
  withPublicTokens(claims: JWT): JWT
  /**
   * A database session read: the user's due tokens refreshed, once `session` is confirmed; whether
   * one was refused (a promise only when the rows are read).
   */
  freshenUserAccounts(context: SessionContext, session: HeldSession): { ended: boolean } | Promise<{ ended: boolean }>
}

/** `jwt.encode` and `jwt.decode` from the app's options, when it replaces latchkey's token format. */
export interface SessionCodec {
  encode?: (params: JWTEncodeParams) => Awaitable<string>
  decode?: (params: JWTDecodeParams) => Awaitable<JWT | null>
}

/** The settled session parts every store call reads, shared by every request of one `createAuth`. */
export interface SessionSettings {
  /** The store `createAuth` settled on. */
  sessions: SessionStore
  secret: string[]
  logger: Required<LoggerInstance>
  /** The app's `cookies` option. */
  cookies: CookiesOptions | undefined
  sessionMaxAge: number
  updateAge: number
  /** Hybrid sessions: seconds the sealed copy in a cookie is trusted; 0 for none. */
  sessionCacheMaxAge: number
  /** Whether a session bound to another browser counts as signed out (false with `session.sharedAcrossSubdomains`). */
  sessionsBoundToBrowser: boolean
  /** Development hints and once-only warnings (a cookie sealed with another secret). */
  diagnostics: Diagnostics
  callbacks: AuthCallbacks
  events: SignInEvents
  codec: SessionCodec
  adapter: Adapter | undefined
  /** The provider-tokens plug-in, when the app passed one. */
  providerTokens: SessionTokensHook | undefined
  /** JWT sessions: where per-user session versions live, so `revokeUser` reaches them (undefined: revocation off). */
  sessionVersions: SessionVersionStore | undefined
}

/** One request as a session store sees it: the settled parts, the request, and whether its origin is https. */
export interface SessionContext extends SessionSettings {
  request: Request
  secure: boolean
}

/** A session answer for a route that writes cookies: the session (or null) and the Set-Cookie values. */
export interface SessionAnswer {
  session: Session | null
  cookies: string[]
}

/** A sign-in the store makes a session for: the linked user, and what the `jwt` callback is shown. */
export interface SignInSession {
  user: User
  account: Account | null
  profile?: Profile
  isNewUser?: boolean
  /** The provider tokens a JWT session keeps from this sign-in. */
  tokens?: HeldTokens
}

/** The user a confirmed session belongs to; with database sessions, the adapter's user comes along. */
export interface ConfirmedUser {
  userId: string
  user?: AdapterUser
}

/**
 * What the cookies prove: the session, or null; `unverified` is true when a database session
 * token made by latchkey in this very browser is present but no fresh cache copy vouches for it,
 * so only the database can decide.
 *
 * @example
 * ```ts
 * import type { CookieSession } from "latchkey"
 * const answer: CookieSession = { session: null, unverified: true } // a database session, cache expired
 * ```
 */
export interface CookieSession<S extends Session = Session> {
  session: S | null
  unverified: boolean
}

/**
 * Where sessions live, behind one interface: the handler calls these without asking which store it
 * has. `rows` is the one fact a caller may need: a database session is a row that needs a user row
 * (credentials sign-ins make one) and keeps provider tokens in account rows.
 *
 * Exported from `latchkey/adapters`.
 *
 * @example
 * ```ts
 * import type { SessionStore } from "latchkey/adapters"
 * function describe(store: SessionStore): string {
 *   return store.rows ? "sessions are adapter rows" : "sessions are sealed cookies"
 * }
 * ```
 */
export interface SessionStore {
  /** Whether a session is a row the adapter keeps (database and hybrid sessions). */
  readonly rows: boolean
  /** `auth()`: the request's session through the `session` callback, or null. Writes nothing. */
  read(context: SessionContext): Promise<Session | null>
  /** `GET /session`: the session, sliding its expiry when due, and firing the `session` event. */
  current(context: SessionContext): Promise<SessionAnswer>
  /** `POST /session`: an update with the client's `data` (read by `submitted`, which throws when it is malformed); undefined for malformed data. */
  update(context: SessionContext, submitted: () => unknown): Promise<SessionAnswer | undefined>
  /** The end of a sign-in: the cookies of a new session, or null when the `jwt` callback refused it. */
  issue(context: SessionContext, signIn: SignInSession): Promise<string[] | null>
  /** `POST /signout`: ends the session (a row is deleted), fires `signOut`, and answers the cookies that clear it. */
  end(context: SessionContext): Promise<string[]>
  /** This browser's user, confirmed against the row (never a cached copy), for a change that lasts. */
  confirmedUser(context: SessionContext): Promise<ConfirmedUser | null>
  /**
   * The cookies that bring this browser's session up to date after `user` changed (a new address):
   * a JWT is re-sealed through the `jwt` callback (`trigger: "update"`, with `user`), a hybrid cache
   * copy is made again from the row; nothing for plain database sessions, whose reads take the row.
   * Empty when this browser's session is not `user`'s.
   */
  refreshUser(context: SessionContext, user: AdapterUser): Promise<string[]>
  /** The session the cookies alone prove, without the adapter. */
  fromCookies(context: SessionContext): Promise<CookieSession>
  /** The database session a plug-in is lent (null for none); undefined when sessions are not rows. */
  lend(context: SessionContext): Promise<HeldSession | null | undefined>
  /** Ends one session by its token (database sessions only). */
  revoke(settings: SessionSettings, sessionToken: string): Promise<void>
  /**
   * Ends every session of a user, in every browser: database sessions lose their rows; JWT sessions
   * are signed out at their next read through the user's session version. `whose` names the user,
   * asked once the store knows it can.
   */
  revokeUser(settings: SessionSettings, whose: () => Awaitable<string>): Promise<void>
}
