/**
 * What one process remembers of each user's provider tokens, for database sessions: when their
 * accounts must next be looked at, and whether a refresh was refused. Bounded, per `createAuth`
 * (keyed by its refresh coordinator), shared by the read path (account-tokens.ts) and the refresh
 * path (account-refresh.ts).
 */
import type { RefreshCoordinator } from "./refresh-types.js"

/** The most users whose next check time one process remembers. */
const MAX_MEMO = 10_000

/** One user's entry. */
export interface AccountMemo {
  /** When this user's accounts must be looked at again (ms). */
  recheckAt: number
  /** Whether one of them had its refresh refused. */
  ended: boolean
}

const memos = new WeakMap<RefreshCoordinator, Map<string, AccountMemo>>()

function memoOf(refresher: RefreshCoordinator): Map<string, AccountMemo> {
  let memo = memos.get(refresher)
  if (!memo) memos.set(refresher, (memo = new Map()))
  return memo
}

/** The entry for a user, while it is current. */
export function recallUser(refresher: RefreshCoordinator, userId: string): AccountMemo | undefined {
  const known = memoOf(refresher).get(userId)
  return known && known.recheckAt > Date.now() ? known : undefined
}

export function rememberUser(refresher: RefreshCoordinator, userId: string, entry: AccountMemo): void {
  const memo = memoOf(refresher)
  memo.delete(userId)
  if (memo.size >= MAX_MEMO) memo.delete(memo.keys().next().value!)
  memo.set(userId, entry)
}

export function forgetUser(refresher: RefreshCoordinator, userId: string): void {
  memoOf(refresher).delete(userId)
}
