/**
 * Provider tokens with database sessions: they live in the user's account rows, as Auth.js keeps
 * them. A session read refreshes the ones that are due and writes the new set back with the
 * adapter's `updateAccount` (latchkey's extension), or, for an Auth.js adapter without it, with
 * `unlinkAccount` then `linkAccount`, re-linking the old row if the new one cannot be written so
 * that nothing half-written survives. A refused refresh clears the row's tokens, which is what
 * later reads report as `RefreshTokenError`.
 *
 * This file is the part every read loads; the refresh and write path (account-refresh.ts) is
 * loaded the first time a user's accounts are looked at.
 *
 * The read that finds nothing due stays free of queries: each user's earliest due time is
 * remembered in this process (bounded), for at most `skew` seconds, so the memo can only err
 * towards checking again. An account linked by another instance is seen within `skew` seconds,
 * before its token can expire (a token is due `skew` seconds before its expiry).
 */
import { MissingAdapterMethodError } from "../errors.js"
import { withAdapterMethods } from "../adapters/adapter.js"
import type { Account } from "../types.js"
import { forgetUser, recallUser } from "./account-token-memo.js"
import { tokensLiveInAccountRows } from "./token-home.js"
import type { HeldSession, ProviderTokensHost, ProviderTokensSettings } from "./types.js"

/**
 * Checked by `createAuth`: database sessions that refresh provider tokens need to list a user's
 * accounts and to write one back.
 */
export function checkAccountTokenMethods(settled: ProviderTokensSettings): void {
  if (!settled.refresher || !tokensLiveInAccountRows(settled)) return
  const adapter = settled.adapter
  const feature = "providerTokens({ refresh }) with database sessions"
  withAdapterMethods(adapter, ["listAccountsByUserId"], feature)
  if (typeof adapter?.updateAccount !== "function" && (typeof adapter?.unlinkAccount !== "function" || typeof adapter?.linkAccount !== "function")) {
    throw new MissingAdapterMethodError(["updateAccount"], feature, false)
  }
}

/**
 * For a database session's read: refreshes the user's due provider tokens, once the session is
 * confirmed (a refresh is a write: see types.ts), and answers whether one of them was refused
 * (`RefreshTokenError`). Nothing due, and checked within `skew` seconds: no query, and nothing loaded.
 */
export function freshenUserAccounts(context: ProviderTokensHost, session: HeldSession): { ended: boolean } | Promise<{ ended: boolean }> {
  const refresher = context.refresher
  if (!refresher) return { ended: false }
  const known = recallUser(refresher, session.userId)
  // Answered from the memo without a promise: the caller awaits only what is one.
  if (known) return { ended: known.ended }
  return import("./account-refresh.js").then(({ checkUserAccounts }) => checkUserAccounts(context, session))
}

/** Forgets what is known of a user's accounts: a sign-in may have linked or renewed one. */
export function forgetUserAccounts(settled: Pick<ProviderTokensSettings, "refresher">, userId: string): void {
  if (settled.refresher) forgetUser(settled.refresher, userId)
}

/**
 * At sign-in with database sessions: an account that was already linked gets this sign-in's
 * tokens, which are newer than the row's (Auth.js leaves the row as it was).
 */
export async function storeSignInTokens(context: ProviderTokensHost, userId: string, account: Account, isNewAccount: boolean): Promise<void> {
  if (!tokensLiveInAccountRows(context)) return
  forgetUserAccounts(context, userId)
  if (!context.refresher || isNewAccount || (account.type !== "oauth" && account.type !== "oidc") || !context.refresher.covers(account.provider)) return
  await (await import("./account-refresh.js")).writeSignInTokens(context, userId, account)
}
