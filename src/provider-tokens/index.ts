/**
 * `latchkey/provider-tokens`: the provider's tokens kept with the session. Sealed beside a JWT
 * session or in a database session's account rows, refreshed shortly before they expire with one
 * refresh in flight, handed to server code by `getAccessToken`, and used by federated sign-out
 * and revocation. All of it lives in this subpath, so an app that keeps no provider tokens bundles
 * none of it. An app that does imports `providerTokens` and hands it to `createAuth`; the handler
 * calls it at the few points where a session is read or written, a sign-in ends, or a user signs
 * out (see types.ts). The refresh engine is here too (refresh-*.ts: settled options, one refresh in
 * flight, and the `RefreshStore` interface that `latchkey/redis` implements), built on
 * `latchkey/oauth`'s `refreshTokens`.
 *
 * @module
 */
import { settleRefreshCoordinator } from "./refresh-coordinator.js"
import { accessTokenOf } from "./access-token.js"
import { checkAccountTokenMethods, freshenUserAccounts, storeSignInTokens } from "./account-tokens.js"
import { providerSignOut } from "./federated-signout.js"
import { claimText, freshTokenClaim, keptTokens, tokenClaimForSignIn, tokenCookies, withPublicTokens } from "./jwt-session.js"
import type { ProviderTokensEngine } from "./types.js"

export type { HeldSession, ProviderTokensEngine, TokenClaim } from "./types.js"
export { memoryRefreshStore, type RefreshStore } from "./refresh-store.js"
export type { ProviderTokens, RefreshProviderTokensOptions } from "./refresh-types.js"

/**
 * Provider tokens, for `createAuth`'s `providerTokens` option: what `session.refreshProviderTokens`,
 * `getAccessToken` and the `signOut` options need. Without it, those options are refused at
 * `createAuth` with an error saying to add it.
 *
 * Exported from `latchkey/provider-tokens`.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * import Google from "latchkey/providers/google"
 * import { providerTokens } from "latchkey/provider-tokens"
 * export const { handler, auth, getAccessToken } = createAuth({
 *   providers: [Google],
 *   providerTokens,
 *   session: { refreshProviderTokens: true },
 *   signOut: { federated: true },
 * })
 * ```
 */
export const providerTokens: ProviderTokensEngine = {
  settleRefresher: settleRefreshCoordinator,
  checkAtStartup: checkAccountTokenMethods,
  freshTokenClaim,
  keptTokens,
  claimText,
  tokenCookies,
  withPublicTokens,
  tokenClaimForSignIn,
  storeSignInTokens,
  freshenUserAccounts,
  accessTokenOf,
  providerSignOut,
}
