/**
 * The contract between the handler and provider tokens: what `createAuth` calls on the object an
 * app makes with `providerTokens(options)` and passes as its `providerTokens` option (keeping
 * the provider's tokens with the session, refreshing them, handing them to server code, and
 * federated sign-out). The handler imports these as types only, so an app that keeps no provider
 * tokens bundles none of that code.
 *
 * @module
 */
import type { FreshClaim, HeldSession, HeldTokens, KeptTokens, SessionContext, SessionSettings, SessionTokensHook, TokenClaim } from "../adapters/session-store.js"
import type { HttpOptions } from "../oauth/http.js"
import type { ResolvedProvider } from "../providers/types.js"
import type { Account, JWT, LoggerInstance } from "../types.js"
import type { RefreshCoordinator, RefreshProviderTokensOptions } from "./refresh-types.js"

export type { FreshClaim, HeldSession, HeldTokens, KeptTokens, TokenClaim }

/**
 * What the plug-in needs of `createAuth`, settled once: the session parts (the session store and
 * its settings), the refresher it settled, its own options, and how provider requests are made.
 * The handler's settled configuration is one.
 */
export interface ProviderTokensSettings extends SessionSettings {
  /** What refreshes provider tokens, one refresh in flight; undefined without `refresh`. */
  refresher: RefreshCoordinator | undefined
  /** The plug-in itself, with its `signOut` options. */
  providerTokens: ProviderTokensEngine | undefined
  http: HttpOptions
}

/**
 * The plug-in's host: what it needs of one request, which the handler's request context is (as
 * `PasskeyHost` is for `latchkey/webauthn`). Nothing of the handler is imported: sessions are read
 * through the session store's functions on `latchkey/adapters`' floor.
 *
 * @example
 * ```ts
 * import type { ProviderTokensHost } from "latchkey/provider-tokens"
 * const providerIds = (host: ProviderTokensHost) => host.providers.map((provider) => provider.id)
 * ```
 */
export interface ProviderTokensHost extends ProviderTokensSettings, SessionContext {
  providerTokens: ProviderTokensEngine | undefined
  /** The providers, resolved for this request's origin. */
  providers: ResolvedProvider[]
}

/**
 * Sign-out at the provider too (OpenID Connect RP-Initiated Logout), and token revocation: the
 * `signOut` options of {@link provider-tokens!providerTokens}.
 *
 * Exported from `latchkey/provider-tokens`.
 *
 * @example
 * ```ts
 * import { providerTokens, type ProviderSignOutOptions } from "latchkey/provider-tokens"
 * const signOut: ProviderSignOutOptions = { federated: true, idTokenHint: true, revokeTokens: true }
 * export const tokens = providerTokens({ signOut })
 * ```
 */
export interface ProviderSignOutOptions {
  /** `POST /signout` also ends the provider session unless the form says `federated=false`. Default false. */
  federated?: boolean
  /** Keep the id_token (sealed beside the session, or in the account row) to send as `id_token_hint`. Default false. */
  idTokenHint?: boolean
  /** Revoke the provider's refresh token (else its access token) at sign-out, where the provider can. Default false. */
  revokeTokens?: boolean
}

/**
 * What {@link provider-tokens!providerTokens} turns on: `refresh` (keep access tokens fresh, and
 * `getAccessToken` on what `createAuth` returns), `signOut` (at the provider too), or both. One of
 * them is required: a plug-in that keeps nothing does not type-check, and is refused at run time.
 *
 * Exported from `latchkey/provider-tokens`.
 *
 * @example
 * ```ts
 * import { providerTokens, type ProviderTokensOptions } from "latchkey/provider-tokens"
 * const options: ProviderTokensOptions = { refresh: { skew: 120, providers: ["google"] }, signOut: { federated: true } }
 * export const tokens = providerTokens(options)
 * ```
 */
export type ProviderTokensOptions =
  | {
      /**
       * Keep the provider's access token fresh: a session read (`auth()`, `/session`) refreshes it
       * shortly before it expires, one refresh in flight however many requests ask, and
       * `getAccessToken(request, providerId)` hands it to server code. `true`, or options (the
       * skew, a shared store for several instances, which providers).
       */
      refresh: true | RefreshProviderTokensOptions
      signOut?: ProviderSignOutOptions
    }
  | { refresh?: false; signOut: ProviderSignOutOptions }

/**
 * Provider tokens, for `createAuth`'s `providerTokens` option: what `providerTokens(options)`
 * returns, carrying its options. `Refreshes` says whether it refreshes access tokens, which is
 * when `createAuth` returns `getAccessToken`. Each method is one point where the handler hands
 * over: settling the options, reading and writing a session, a sign-in, and sign-out.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * import Google from "latchkey/providers/google"
 * import { providerTokens, type ProviderTokensEngine } from "latchkey/provider-tokens"
 * const tokens: ProviderTokensEngine<true> = providerTokens({ refresh: true })
 * export const { handler, auth, getAccessToken } = createAuth({ providers: [Google], providerTokens: tokens })
 * ```
 */
export interface ProviderTokensEngine<Refreshes extends boolean = boolean> extends SessionTokensHook {
  /** Whether access tokens are refreshed (and `getAccessToken` is offered). */
  readonly refreshes: Refreshes
  /** The `signOut` options, or undefined: sign-out then stays in the app, whatever a form asks. */
  readonly signOut: ProviderSignOutOptions | undefined
  /** Settles the `refresh` option: undefined when it is off; throws for options that cannot work. */
  settleRefresher(context: { secret: string[]; http: HttpOptions; logger: Required<LoggerInstance> }): RefreshCoordinator | undefined
  /** At `createAuth`: what the adapter must offer for the configuration. */
  checkAtStartup(settled: ProviderTokensSettings): void
  /** A JWT session read: the claim, with the access token refreshed when it is due (a promise only then). */
  freshTokenClaim(context: ProviderTokensHost, claims: JWT): FreshClaim | Promise<FreshClaim>
  /** A JWT session write: what it keeps. */
  keptTokens(context: ProviderTokensHost, held: HeldTokens | undefined): Promise<KeptTokens>
  /** The claim's text in the session token. */
  claimText(claim: TokenClaim): string
  /** The token cookie for a session just encoded as `sessionToken`. */
  tokenCookies(context: ProviderTokensHost, kept: KeptTokens, sessionToken: string): Promise<string[]>
  /** What callbacks and events see of a session's claims. */
  withPublicTokens(claims: JWT): JWT
  /** What a new JWT session keeps of a sign-in's account. */
  tokenClaimForSignIn(context: ProviderTokensHost, account: Account): HeldTokens | undefined
  /** A database session's sign-in: the account row gets the newer tokens. */
  storeSignInTokens(context: ProviderTokensHost, userId: string, account: Account, isNewAccount: boolean): Promise<void>
  /**
   * A database session read: the user's due tokens refreshed, once `session` is confirmed; whether
   * one was refused (a promise only when the rows are read).
   */
  freshenUserAccounts(context: ProviderTokensHost, session: HeldSession): { ended: boolean } | Promise<{ ended: boolean }>
  /** `getAccessToken`; `session` is the database session read (null for none), undefined with JWT sessions. */
  accessTokenOf(context: ProviderTokensHost, providerId: string, session?: HeldSession | null): Promise<string | null>
  /**
   * `POST /signout`'s provider side: the end-session URL to go to, if any. `session` is the
   * database session read, undefined with JWT sessions; a revocation waits for its confirmation.
   */
  providerSignOut(context: ProviderTokensHost, form: URLSearchParams, destination: string, federated: boolean, revokes: boolean, session?: HeldSession | null): Promise<string | undefined>
}
