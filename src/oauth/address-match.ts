/**
 * Finding a user by address on a store whose collation may take two addresses for one. MariaDB's
 * default `utf8mb4_general_ci` and MySQL 8's `utf8mb4_0900_ai_ci` ignore accents, so
 * `getUserByEmail("ada@exämple.com")` answers the user `ada@example.com`: two mailboxes (anyone
 * can register `exämple.com`) that latchkey's address rules keep apart (`lib/email-address.ts`).
 * Every route that asks the store "who has this address" asks it here, and takes the answer only
 * when it is that address. It lives on the sign-in flow's floor because account linking asks too.
 *
 * @module
 */
import { ADDRESS_FOLDED } from "../errors.js"
import { normalizeEmailAddress } from "../lib/email-address.js"
import type { Awaitable, LoggerInstance } from "../types.js"

/** What {@link userWithAddress} found. */
export interface AddressLookup<U> {
  /** The user whose stored address is the one asked for, or null. */
  user: U | null
  /**
   * The user the store answered when its address is a different one (its collation folded the two
   * into one), else null. Never this address's user: only its id may be compared.
   */
  lookAlike: U | null
}

/** The loggers already told that their store folds addresses: the warning is said once per app. */
const warned = new WeakSet<object>()

function warnOnce(logger: Pick<Required<LoggerInstance>, "warn">): void {
  if (warned.has(logger)) return
  warned.add(logger)
  // The refusal's code: one search of the log finds both.
  logger.warn("ERR_ADDRESS_COLLATION", { message: ADDRESS_FOLDED })
}

/** Whether two addresses are one by latchkey's rules; an address the rules refuse matches only itself. */
function sameAddress(stored: string | null | undefined, asked: string, normalizeIdentifier?: (identifier: string) => string): boolean {
  const canonical = (address: string) => normalizeEmailAddress(address, normalizeIdentifier) ?? address
  return typeof stored === "string" && canonical(stored) === canonical(asked)
}

/**
 * The user the store has under `email`, taken only when that user's stored address is `email` by
 * the rules the caller read it with (`normalizeIdentifier`, an email provider's option). When the
 * store answers a user with another address, its collation folded the two: the answer is no user,
 * that one is `lookAlike`, and `logger` (when given) is warned once. The caller never takes
 * `lookAlike` for the address's user (it signs no one in as it, links nothing to it, mails its
 * owner nothing), and creates no user for the address: one would collide with it.
 *
 * @example
 * ```ts
 * const { user, lookAlike } = await userWithAddress(adapter, "ada@example.com", provider.normalizeIdentifier, logger)
 * if (lookAlike) throw new AddressCollationError(provider.id)
 * ```
 */
export async function userWithAddress<U extends { email?: string | null }>(
  store: { getUserByEmail(email: string): Awaitable<U | null> },
  email: string,
  normalizeIdentifier?: (identifier: string) => string,
  logger?: Pick<Required<LoggerInstance>, "warn">,
): Promise<AddressLookup<U>> {
  const found = (await store.getUserByEmail(email)) ?? null
  if (!found || sameAddress(found.email, email, normalizeIdentifier)) return { user: found, lookAlike: null }
  if (logger) warnOnce(logger)
  return { user: null, lookAlike: found }
}
