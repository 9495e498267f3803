/**
 * The refresh and write path of provider tokens with database sessions (see account-tokens.ts for
 * the rules): lists a user's covered accounts, refreshes the due ones through the coordinator once
 * per process however many reads ask, writes the new tokens back with `updateAccount` or, for an
 * Auth.js adapter without it, by unlinking and re-linking (the old row is linked back if that
 * fails), clears the tokens of a row whose refresh was refused, and records when the user's
 * accounts must next be looked at.
 */
import { AdapterError } from "../errors.js"
import { driverErrorHint } from "../lib/driver-errors.js"
import { withAdapterMethods, type Adapter, type AdapterAccount } from "../adapters/adapter.js"
import type { ProviderTokens, RefreshCoordinator } from "./refresh-types.js"
import type { Account } from "../types.js"
import { rememberUser } from "./account-token-memo.js"
import type { HeldSession, ProviderTokensHost } from "./types.js"
import { oauthProviderOf } from "./jwt-session.js"

/** The least time between two looks at one user's accounts. */
const RETRY_AFTER_MS = 5_000

const accountFlights = new WeakMap<RefreshCoordinator, Map<string, Promise<AdapterAccount | undefined>>>()

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
 * Writes a row's tokens: `updateAccount`, else unlink and re-link. When the link fails, the old
 * row (`previous`, as it was read: Auth.js adapters' `unlinkAccount` returns nothing) is linked
 * back before the error is thrown.
 */
async function writeAccount(adapter: Adapter, row: AdapterAccount, previous: AdapterAccount): Promise<void> {
  const key = { provider: row.provider, providerAccountId: row.providerAccountId }
  const { access_token, refresh_token, expires_at, token_type, scope, id_token } = row
  if (adapter.updateAccount) {
    await call("updateAccount", () => adapter.updateAccount!({ ...key, access_token, refresh_token, expires_at, token_type, scope, id_token }))
    return
  }
  await call("unlinkAccount", () => adapter.unlinkAccount!(key))
  try {
    await call("linkAccount", () => adapter.linkAccount!(row))
  } catch (error) {
    await call("linkAccount", () => adapter.linkAccount!(previous))
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

/**
 * The account row with its access token fresh: refreshed when due, written back once per process
 * however many reads ask at the same moment. Undefined when the refresh was refused (the row's
 * tokens are cleared). A database failure while writing is logged; the read goes on with what it has.
 */
export async function freshAccount(context: ProviderTokensHost, row: AdapterAccount): Promise<AdapterAccount | undefined> {
  const refresher = context.refresher!
  const tokens = tokensOf(row)
  if (isEnded(row)) return undefined
  if (!refresher.isDue(tokens)) return row
  const provider = oauthProviderOf(context, row.provider)
  if (!provider) return row
  let flights = accountFlights.get(refresher)
  if (!flights) accountFlights.set(refresher, (flights = new Map()))
  const key = `${row.provider}\u0000${row.providerAccountId}`
  const running = flights.get(key)
  if (running) return running
  const started = (async () => {
    const result = await refresher.ensureFresh(provider, tokens)
    if (result.status === "fresh" || result.status === "stale") return row
    // Another read (or instance) made this outcome and writes the row itself: this read only uses it.
    if (result.shared) return result.status === "ended" ? undefined : withTokens(row, result.tokens)
    const next = withTokens(row, result.status === "ended" ? null : result.tokens)
    let writes = userWrites.get(refresher)
    if (!writes) userWrites.set(refresher, (writes = new Map()))
    const userId = String(row.userId)
    const write = writeAccount(context.adapter!, next, row)
    const settled = write.then(
      () => undefined,
      () => undefined,
    )
    writes.set(userId, settled)
    try {
      await write
    } catch (error) {
      context.logger.error(error as Error)
    } finally {
      if (writes.get(userId) === settled) writes.delete(userId)
    }
    return result.status === "ended" ? undefined : next
  })()
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
      const fresh = await freshAccount(context, row)
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
  const previous = adapter.getAccount ? await call("getAccount", () => adapter.getAccount!(account.providerAccountId, account.provider)) : null
  const row = { ...(previous ?? {}), ...account, userId } as AdapterAccount
  await writeAccount(adapter, withTokens(row, tokensOf(row)), previous ?? row)
}

/**
 * A user's account at `providerId`, with its access token fresh; undefined when there is none, it
 * ended, or it is due and the session is not confirmed (revoked).
 */
export async function freshAccountOf(context: ProviderTokensHost, session: HeldSession, providerId: string): Promise<AdapterAccount | undefined> {
  const row = (await coveredAccounts(context, session.userId)).find((candidate) => candidate.provider === providerId)
  if (!row || (isDueRow(context, row) && !(await session.confirm()))) return undefined
  return freshAccount(context, row)
}
