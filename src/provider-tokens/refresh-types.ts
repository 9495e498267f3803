/**
 * The types provider-token refreshing is made of, shared by the settled options
 * (refresh-coordinator.ts) and the refresh engine it loads (refresh-flight.ts). Types only.
 */
import type { ResolvedOAuthProvider } from "../providers/types.js"
import type { RefreshStore } from "./refresh-store.js"
import type { ProviderTokens } from "../adapters/session-store.js"

export type { ProviderTokens }

/**
 * The `refresh` option of `providerTokens` (from `latchkey/provider-tokens`), when more than `true` is needed.
 *
 * Exported from `latchkey/provider-tokens`.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * import { providerTokens, type RefreshProviderTokensOptions } from "latchkey/provider-tokens"
 * const refresh: RefreshProviderTokensOptions = { skew: 120, providers: ["google"] }
 * export const { handler, auth, getAccessToken } = createAuth({ providers, providerTokens: providerTokens({ refresh }) })
 * ```
 */
export interface RefreshProviderTokensOptions {
  /** Seconds before its expiry that an access token is refreshed. Default 60. */
  skew?: number
  /**
   * The lock and result store instances share, so that one of them refreshes. Default: in this
   * process's memory ({@link memoryRefreshStore}); with several instances, `redisRefreshStore`
   * from `latchkey/redis`.
   */
  store?: RefreshStore
  /** The provider ids whose tokens are kept and refreshed. Default: every OAuth and OIDC provider. */
  providers?: string[]
}

/**
 * What a caller gets back: the tokens to use now, and what happened.
 * - `fresh`: nothing was due; the tokens are the ones given.
 * - `refreshed`: new tokens, refreshed now or by another caller for the same refresh token.
 * - `ended`: the provider refused the refresh token (`invalid_grant`): the tokens are gone.
 * - `stale`: due, but not refreshed (the provider could not be reached, or cannot refresh): the old tokens.
 *
 * `shared` is set when the outcome is another caller's (remembered, or stored by another
 * instance): whoever made it meant to store it, but may not have yet, or may have failed to; a
 * caller that keeps tokens somewhere of its own checks before writing (account-refresh.ts).
 */
export type FreshTokens =
  | { status: "fresh" | "refreshed" | "stale"; tokens: ProviderTokens; shared?: boolean }
  | { status: "ended"; tokens?: undefined; shared?: boolean }

/** The settled refresh machinery of one `createAuth`. */
export interface RefreshCoordinator {
  /** Seconds before expiry that a token counts as due. */
  readonly skew: number
  /** Whether `providerId`'s tokens are kept and refreshed. */
  covers(providerId: string): boolean
  /** Whether `tokens` need a refresh now: they expire within `skew` seconds. */
  isDue(tokens: ProviderTokens): boolean
  /** The tokens to use now, refreshing them (once, however many ask) when they are due. */
  ensureFresh(provider: ResolvedOAuthProvider, tokens: ProviderTokens): Promise<FreshTokens>
}


/** What refreshes a due token set: one per `createAuth`, made on the first refresh. */
export type RefreshEngine = (provider: ResolvedOAuthProvider, tokens: ProviderTokens) => Promise<FreshTokens>
