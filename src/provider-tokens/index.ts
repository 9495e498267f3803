/**
 * `latchkey/provider-tokens`: the provider's tokens kept with the session. Sealed beside a JWT
 * session or in a database session's account rows, refreshed shortly before they expire with one
 * refresh in flight, handed to server code by `getAccessToken`, and used by federated sign-out
 * and revocation. All of it lives in this subpath, so an app that keeps no provider tokens bundles
 * none of it. An app that does calls `providerTokens({ refresh, signOut })` and hands the result
 * to `createAuth`: every provider-token option is an option of this plug-in, so no option of
 * `createAuth` needs another to work. The handler calls it at the few points where a session is
 * read or written, a sign-in ends, or a user signs out (see types.ts). The refresh engine is here
 * too (refresh-*.ts: settled options, one refresh in flight, and the `RefreshStore` interface that
 * `latchkey/redis` implements), built on `latchkey/oauth`'s `refreshTokens`.
 *
 * @module
 */
import { InvalidOptionError } from "../errors.js"
import { settleRefreshCoordinator } from "./refresh-coordinator.js"
import { accessTokenOf } from "./access-token.js"
import { checkAccountTokenMethods, freshenUserAccounts, storeSignInTokens } from "./account-tokens.js"
import { providerSignOut } from "./federated-signout.js"
import { claimText, freshTokenClaim, keptTokens, tokenClaimForSignIn, tokenCookies, withPublicTokens } from "./jwt-session.js"
import type { ProviderSignOutOptions, ProviderTokensEngine, ProviderTokensOptions } from "./types.js"

export type { HeldSession, ProviderSignOutOptions, ProviderTokensEngine, ProviderTokensHost, ProviderTokensOptions, TokenClaim } from "./types.js"
export { memoryRefreshStore, type RefreshStore } from "./refresh-store.js"
export type { ProviderTokens, RefreshProviderTokensOptions } from "./refresh-types.js"

const SIGN_OUT_SWITCHES = ["federated", "idTokenHint", "revokeTokens"] as const

/** The `signOut` options, checked: an object of booleans, or undefined. */
function checkSignOut(signOut: unknown): ProviderSignOutOptions | undefined {
  if (signOut === undefined) return undefined
  if (typeof signOut !== "object" || signOut === null) throw new InvalidOptionError("providerTokens.signOut", "signOut must be an object, such as { federated: true }.")
  for (const name of SIGN_OUT_SWITCHES) {
    const value = (signOut as Record<string, unknown>)[name]
    if (value !== undefined && typeof value !== "boolean") throw new InvalidOptionError(`providerTokens.signOut.${name}`, `signOut.${name} must be true or false.`)
  }
  return { ...(signOut as ProviderSignOutOptions) }
}

/** The `refresh` option, checked for its kind (its fields are checked with the coordinator); false when off. */
function checkRefresh(refresh: unknown): ProviderTokensOptions["refresh"] {
  if (refresh === undefined || typeof refresh === "boolean") return refresh ?? false
  if (typeof refresh !== "object" || refresh === null) throw new InvalidOptionError("providerTokens.refresh", "refresh must be true, false or an options object, such as { skew: 120 }.")
  return refresh
}

/**
 * The provider-tokens plug-in, for `createAuth`'s `providerTokens` option. `refresh` keeps access
 * tokens fresh and puts `getAccessToken` on what `createAuth` returns (typed: without `refresh`,
 * there is no `getAccessToken` to call); `signOut` ends the provider session and revokes tokens
 * at sign-out. Give one or both.
 *
 * Exported from `latchkey/provider-tokens`.
 *
 * @throws {@link index!InvalidOptionError} for options that turn nothing on, or are not of their
 * kind (a `skew`, `store` or `providers` that cannot work is refused by `createAuth`).
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * import Google from "latchkey/providers/google"
 * import { providerTokens } from "latchkey/provider-tokens"
 * export const { handler, auth, getAccessToken } = createAuth({
 *   providers: [Google],
 *   providerTokens: providerTokens({ refresh: true, signOut: { federated: true } }),
 * })
 * ```
 */
export function providerTokens<const O extends ProviderTokensOptions>(options: O): ProviderTokensEngine<O extends { refresh: true | object } ? true : false> {
  if (typeof options !== "object" || options === null) throw new InvalidOptionError("providerTokens", "providerTokens takes options: providerTokens({ refresh: true }), providerTokens({ signOut: { federated: true } }), or both.")
  const refresh = checkRefresh(options.refresh)
  const signOut = checkSignOut(options.signOut)
  if (refresh === false && signOut === undefined) {
    throw new InvalidOptionError("providerTokens", "providerTokens({}) keeps no provider tokens: give refresh: true, signOut: { ... }, or both; or leave providerTokens out.")
  }
  return {
    refreshes: (refresh !== false) as O extends { refresh: true | object } ? true : false,
    signOut,
    settleRefresher: (context) => settleRefreshCoordinator(refresh, context),
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
}
