/**
 * The refresh and write path of provider tokens with database sessions (see account-tokens.ts for
 * the rules): lists a user's covered accounts, refreshes the due ones through the coordinator once
 * per process however many reads ask, writes the new tokens back with `updateAccount` or, for an
 * Auth.js adapter without it, by unlinking and re-linking (the old row is linked back if that
 * fails), only into a row that is still there, clears the tokens of a row whose refresh was
 * refused, and records when the user's accounts must next be looked at. A row that still holds
 * tokens a remembered refresh consumed (its write failed) gets that refresh's tokens written.
 */
import { AdapterError } from "../errors.js"
import { driverErrorHint } from "../lib/driver-errors.js"
import { withAdapterMethods, type Adapter, type AdapterAccount } from "../adapters/adapter.js"
import type { ProviderTokens, RefreshCoordinator } from "./refresh-types.js"
import type { Account } from "../types.js"
import { rememberUser } from "./account-token-memo.js"
import type { HeldSession, ProviderTokensHost } from "./types.js"
import { oauthProviderOf } from "./jwt-session.js"
import type { ResolvedOAuthProvider } from "../providers/types.js"

/** The least time between two looks at one user's accounts. */
const RETRY_AFTER_MS = 5_000

const accountFlights = new WeakMap<RefreshCoordinator, Map<string, Promise<RefreshedAccount>>>()

/**
 * The row writes under way, by user. Without `updateAccount` a write unlinks the row and links it
 * again: a read that listed the user's accounts in between would find none and answer no token,
 * so a listing waits for the user's writes in this process first.
 */
const userWrites = new WeakMap<RefreshCoordinator, Map<string, Promise<void>>>()

async function call<T>(method: string, run: () => T | PromiseLike<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw new AdapterError(method, error, driverErrorHint(error))
  }
}

/** A row with new tokens; a token the provider did not send again (no rotation) stays. */
function withTokens(row: AdapterAccount, tokens: ProviderTokens | null): AdapterAccount {
  if (tokens === null) return { ...row, access_token: null, refresh_token: null, expires_at: null } as unknown as AdapterAccount
  const next: AdapterAccount = { ...row }
  for (const field of ["access_token", "refresh_token", "expires_at", "token_type", "scope", "id_token"] as const) {
    if (tokens[field] !== undefined) (next as Record<string, unknown>)[field] = tokens[field]
  }
  return next
}

/**
 * The row as the database holds it now, read again (a refresh takes a while); null when it is gone
 * or belongs to another user now. `listAccountsByUserId` is there for every adapter that refreshes
 * (checked at startup); `getAccount` is one query less.
 */
async function storedRow(adapter: Adapter, row: AdapterAccount): Promise<AdapterAccount | null> {
  const { provider, providerAccountId } = row
  const found = adapter.getAccount
    ? await call("getAccount", () => adapter.getAccount!(providerAccountId, provider))
    : (await call("listAccountsByUserId", () => adapter.listAccountsByUserId!(row.userId))).find((stored) => stored.provider === provider && stored.providerAccountId === providerAccountId)
  return found ? ownRow(found, row) : null
}

/** `found` when it is `row`'s user's, else null. */
function ownRow(found: AdapterAccount, row: AdapterAccount): AdapterAccount | null {
  return String(found.userId) === String(row.userId) ? found : null
}

/** Whether a stored row still holds the tokens of the row as read: no one has written it since. */
function holdsTokensOf(stored: AdapterAccount, read: AdapterAccount): boolean {
  return (stored.access_token ?? null) === (read.access_token ?? null) && (stored.refresh_token ?? null) === (read.refresh_token ?? null)
}

/**
 * Writes a row's tokens into the row that is there, never into one removed meanwhile (the user
 * deleted it, or their account, while the refresh was in flight) nor into one another user holds
 * now (the provider account was unlinked and linked to someone else meanwhile): the row is read
 * again first, whatever the adapter, and left alone then. `justRead` is that read when the caller
 * has just made it (a sign-in, with no refresh in between). Unlink and re-link re-create the row,
 * so when the link fails the row as it was is linked back before the error is thrown. A change
 * between the read and the write is still possible: a window of two queries rather than of a
 * refresh, which only a transaction (not in the Auth.js adapter interface) would close. With
 * `replacing` (the row as read before the refresh), the write happens only while the row still
 * holds its tokens.
 */
async function writeAccount(adapter: Adapter, row: AdapterAccount, replacing?: AdapterAccount, justRead?: AdapterAccount | null): Promise<void> {
  const key = { provider: row.provider, providerAccountId: row.providerAccountId }
  const stored = justRead === undefined ? await storedRow(adapter, row) : justRead && ownRow(justRead, row)
  if (stored === null || (replacing && !holdsTokensOf(stored, replacing))) return
  const { access_token, refresh_token, expires_at, token_type, scope, id_token } = row
  if (adapter.updateAccount) {
    await call("updateAccount", () => adapter.updateAccount!({ ...key, access_token, refresh_token, expires_at, token_type, scope, id_token }))
    return
  }
  await call("unlinkAccount", () => adapter.unlinkAccount!(key))
  try {
    await call("linkAccount", () => adapter.linkAccount!({ ...stored, ...row }))
  } catch (error) {
    await call("linkAccount", () => adapter.linkAccount!(stored))
    throw error
  }
}

function tokensOf(row: AdapterAccount): ProviderTokens {
  const tokens: ProviderTokens = {}
  for (const field of ["access_token", "refresh_token", "token_type", "scope", "id_token"] as const) if (typeof row[field] === "string") tokens[field] = row[field] as string
  // SQL adapters hand numbers back as numbers, or as strings for bigint columns.
  const expiresAt = Number(row.expires_at)
  if (row.expires_at !== null && row.expires_at !== undefined && Number.isFinite(expiresAt)) tokens.expires_at = expiresAt
  return tokens
}

/** Whether a covered row had its refresh refused: its tokens were cleared. */
function isEnded(row: AdapterAccount): boolean {
  return (row.type === "oauth" || row.type === "oidc") && !row.access_token && !row.refresh_token
}

/** A row after its refresh: undefined when the refresh was refused; `unwritten` when new tokens could not be written. */
interface RefreshedAccount {
  account: AdapterAccount | undefined
  unwritten: boolean
}

/**
 * Writes a refresh's row, logging a database failure (the read goes on with the tokens it has) and
 * letting the user's listings wait for it (see `userWrites`). Answers whether it failed.
 */
async function writeRefreshed(context: ProviderTokensHost, next: AdapterAccount, replacing?: AdapterAccount): Promise<boolean> {
  const refresher = context.refresher!
  let writes = userWrites.get(refresher)
  if (!writes) userWrites.set(refresher, (writes = new Map()))
  const userId = String(next.userId)
  const write = writeAccount(context.adapter!, next, replacing)
  const settled = write.then(
    () => undefined,
    () => undefined,
  )
  writes.set(userId, settled)
  try {
    await write
    return false
  } catch (error) {
    context.logger.error(error as Error)
    return true
  } finally {
    if (writes.get(userId) === settled) writes.delete(userId)
  }
}

/** Refreshes a due row and writes the outcome into it. */
async function refreshRow(context: ProviderTokensHost, provider: ResolvedOAuthProvider, row: AdapterAccount): Promise<RefreshedAccount> {
  const result = await context.refresher!.ensureFresh(provider, tokensOf(row))
  if (result.status === "fresh" || result.status === "stale") return { account: row, unwritten: false }
  const next = withTokens(row, result.status === "ended" ? null : result.tokens)
  // A shared outcome is another read's or instance's, whose write may have failed (or not be done
  // yet): the coordinator remembers it whether or not it reached the row. A row that still holds
  // the tokens that refresh consumed is written here, or the next instance to read it (or this one
  // once the memory is gone) replays a refresh token a rotating provider has rotated away, which
  // ends the grant. A row that holds other tokens now was written by the refresher: left alone.
  const unwritten = await writeRefreshed(context, next, result.shared ? row : undefined)
  return { account: result.status === "ended" ? undefined : next, unwritten }
}

/**
 * The account row with its access token fresh: refreshed when due, written back once per process
 * however many reads ask at the same moment. Its `account` is undefined when the refresh was
 * refused (the row's tokens are cleared). A database failure while writing is logged; the read
 * goes on with what it has.
 */
export async function freshAccount(context: ProviderTokensHost, row: AdapterAccount): Promise<RefreshedAccount> {
  const refresher = context.refresher!
  if (isEnded(row)) return { account: undefined, unwritten: false }
  if (!refresher.isDue(tokensOf(row))) return { account: row, unwritten: false }
  const provider = oauthProviderOf(context, row.provider)
  if (!provider) return { account: row, unwritten: false }
  let flights = accountFlights.get(refresher)
  if (!flights) accountFlights.set(refresher, (flights = new Map()))
  const key = `${row.provider}\u0000${row.providerAccountId}`
  const running = flights.get(key)
  if (running) return running
  const started = refreshRow(context, provider, row)
  flights.set(key, started)
  started.finally(() => flights!.delete(key)).catch(() => undefined)
  return started
}

/** The user's accounts whose tokens latchkey keeps fresh. */
async function coveredAccounts(context: ProviderTokensHost, userId: string): Promise<AdapterAccount[]> {
  const adapter = withAdapterMethods(context.adapter, ["listAccountsByUserId"], "providerTokens({ refresh })")
  await userWrites.get(context.refresher!)?.get(String(userId))
  const rows = await call("listAccountsByUserId", () => adapter.listAccountsByUserId(userId))
  return rows.filter((row) => (row.type === "oauth" || row.type === "oidc") && context.refresher!.covers(row.provider))
}

/** Whether a row's refresh would write (it is due, and not ended): a write waits for the session's confirmation. */
function isDueRow(context: ProviderTokensHost, row: AdapterAccount): boolean {
  return !isEnded(row) && context.refresher!.isDue(tokensOf(row))
}

/**
 * Looks at a user's covered accounts: refreshes the due ones (once the session is confirmed; a
 * revoked one refreshes nothing and is not remembered), answers whether one was refused, and
 * remembers when to look again (within `skew` seconds, and not before 5 seconds).
 */
export async function checkUserAccounts(context: ProviderTokensHost, session: HeldSession): Promise<{ ended: boolean }> {
  const refresher = context.refresher!
  const { userId } = session
  let ended = false
  let recheckAt = Date.now() + refresher.skew * 1000
  try {
    const rows = await coveredAccounts(context, userId)
    if (rows.some((row) => isDueRow(context, row)) && !(await session.confirm())) return { ended: false }
    for (const row of rows) {
      const { account: fresh, unwritten } = await freshAccount(context, row)
      // New tokens the row did not take live only in this process's memory: the next look (in 5
      // seconds, not at their expiry) writes them.
      if (unwritten) recheckAt = 0
      if (!fresh) {
        ended = true
        continue
      }
      const { expires_at, refresh_token } = tokensOf(fresh)
      // A token that is due but was not refreshed (the provider was down) is looked at again on the next read.
      if (expires_at !== undefined && refresh_token !== undefined) recheckAt = Math.min(recheckAt, (expires_at - refresher.skew) * 1000)
    }
  } catch (error) {
    context.logger.error(error as Error)
    return { ended: false }
  }
  // A refresh that failed (the provider was down) is not tried again by every read.
  recheckAt = Math.max(recheckAt, Date.now() + RETRY_AFTER_MS)
  rememberUser(refresher, userId, { recheckAt, ended })
  return { ended }
}

/** Writes a returning user's sign-in tokens into their account row. */
export async function writeSignInTokens(context: ProviderTokensHost, userId: string, account: Account): Promise<void> {
  const adapter = context.adapter!
  // Undefined when the adapter cannot read one row: writeAccount then reads it its own way.
  const previous = adapter.getAccount ? await call("getAccount", () => adapter.getAccount!(account.providerAccountId, account.provider)) : undefined
  const row = { ...(previous ?? {}), ...account, userId } as AdapterAccount
  await writeAccount(adapter, withTokens(row, tokensOf(row)), undefined, previous)
}

/**
 * A user's account at `providerId`, with its access token fresh; undefined when there is none, it
 * ended, or it is due and the session is not confirmed (revoked).
 */
export async function freshAccountOf(context: ProviderTokensHost, session: HeldSession, providerId: string): Promise<AdapterAccount | undefined> {
  const row = (await coveredAccounts(context, session.userId)).find((candidate) => candidate.provider === providerId)
  if (!row || (isDueRow(context, row) && !(await session.confirm()))) return undefined
  return (await freshAccount(context, row)).account
}
