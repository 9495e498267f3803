/**
 * The contract between the handler and provider tokens: what `createAuth` calls on the object an
 * app imports from `latchkey/provider-tokens` and passes as its `providerTokens` option (keeping
 * the provider's tokens with the session, refreshing them, handing them to server code, and
 * federated sign-out). The handler imports these as types only, so an app that keeps no provider
 * tokens bundles none of that code.
 *
 * @module
 */
import type { RequestContext, SettledConfig } from "../handler/config.js"
import type { Account, JWT, LoggerInstance } from "../types.js"
import type { HttpOptions } from "../oauth/http.js"
import type { ProviderTokens, RefreshCoordinator, RefreshProviderTokensOptions } from "./refresh-types.js"

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
 * Provider tokens, for `createAuth`'s `providerTokens` option. Needed by
 * `session.refreshProviderTokens`, `getAccessToken` and the `signOut` options; without it they are
 * refused at `createAuth` with an error saying to add it. Each method is one point where the
 * handler hands over: settling the options, reading and writing a session, a sign-in, and sign-out.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * import Google from "latchkey/providers/google"
 * import { providerTokens } from "latchkey/provider-tokens"
 * export const { handler, auth, getAccessToken } = createAuth({ providers: [Google], providerTokens, session: { refreshProviderTokens: true } })
 * ```
 */
export interface ProviderTokensEngine {
  /** Settles `session.refreshProviderTokens`: undefined when it is off; throws for options that cannot work. */
  settleRefresher(option: boolean | RefreshProviderTokensOptions | undefined, context: { secret: string[]; http: HttpOptions; logger: Required<LoggerInstance> }): RefreshCoordinator | undefined
  /** At `createAuth`: what the adapter must offer for the configuration. */
  checkAtStartup(settled: SettledConfig): void
  /** A JWT session read: the claim, with the access token refreshed when it is due (a promise only then). */
  freshTokenClaim(context: RequestContext, claims: JWT): FreshClaim | Promise<FreshClaim>
  /** A JWT session write: what it keeps. */
  keptTokens(context: RequestContext, held: HeldTokens | undefined): Promise<KeptTokens>
  /** The claim's text in the session token. */
  claimText(claim: TokenClaim): string
  /** The token cookie for a session just encoded as `sessionToken`. */
  tokenCookies(context: RequestContext, kept: KeptTokens, sessionToken: string): Promise<string[]>
  /** What callbacks and events see of a session's claims. */
  withPublicTokens(claims: JWT): JWT
  /** What a new JWT session keeps of a sign-in's account. */
  tokenClaimForSignIn(context: RequestContext, account: Account): HeldTokens | undefined
  /** A database session's sign-in: the account row gets the newer tokens. */
  storeSignInTokens(context: RequestContext, userId: string, account: Account, isNewAccount: boolean): Promise<void>
  /**
   * A database session read: the user's due tokens refreshed, once `session` is confirmed; whether
   * one was refused (a promise only when the rows are read).
   */
  freshenUserAccounts(context: RequestContext, session: HeldSession): { ended: boolean } | Promise<{ ended: boolean }>
  /** `getAccessToken`; `session` is the database session read (null for none), undefined with JWT sessions. */
  accessTokenOf(context: RequestContext, providerId: string, session?: HeldSession | null): Promise<string | null>
  /**
   * `POST /signout`'s provider side: the end-session URL to go to, if any. `session` is the
   * database session read, undefined with JWT sessions; a revocation waits for its confirmation.
   */
  providerSignOut(context: RequestContext, form: URLSearchParams, destination: string, federated: boolean, revokes: boolean, session?: HeldSession | null): Promise<string | undefined>
}
