/**
 * The default limits. The numbers are argued in docs/rate-limits.md against OWASP ASVS (no more
 * than 100 failed attempts an hour on one account) and NIST SP 800-63B (limit consecutive
 * failures on an account): the identifier limits are the account's protection, the client limits
 * slow one machine spraying many accounts, and `all` is a ceiling no browser reaches. Kept apart
 * from their checking (`plug-in.ts`), so `createAuth`'s default carries the numbers alone.
 *
 * @module
 */
import type { LimitTable, RateLimitRoute } from "./types.js"

const MINUTE = 60

/** `limit` attempts per `minutes`. */
const per = (limit: number, minutes: number) => ({ limit, windowSeconds: minutes * MINUTE })

/**
 * Each route's limits when the app sets none (see docs/rate-limits.md for why these numbers).
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import { DEFAULT_LIMITS } from "latchkey/rate-limits"
 * const perAccount = DEFAULT_LIMITS.credentials.identifier // { limit: 10, windowSeconds: 900 }
 * ```
 */
export const DEFAULT_LIMITS: LimitTable = {
  // 10 wrong passwords per account per 15 minutes: 40 an hour at most, under ASVS's 100.
  credentials: { client: per(30, 5), identifier: per(10, 15) },
  // Each send is a mail in someone's inbox: a few per address an hour, enough for a lost one.
  "email-send": { client: per(10, 15), identifier: per(5, 60) },
  // Tokens are 256 bits, so this bounds load and scanners, not guessing.
  "email-callback": { client: per(30, 5), identifier: per(10, 15) },
  // Options are a challenge each; the identifier is the address of a sign-up, when there is one.
  passkey: { client: per(60, 5), identifier: per(20, 15) },
  // A password sign-in is a credentials sign-in: the same guess budget per account.
  "password-sign-in": { client: per(30, 5), identifier: per(10, 15) },
  // Each sign-up mails the address (a link or a notice) and hashes: a few per address, a few dozen per client.
  "password-sign-up": { client: per(10, 15), identifier: per(5, 60) },
  // A reset request is a mail, as an email sign-in link is.
  "password-forgot": { client: per(10, 15), identifier: per(5, 60) },
  // Tokens are 256 bits: this bounds hashing load and scanners.
  "password-reset": { client: per(30, 15), identifier: per(10, 15) },
  // Each attempt verifies the current password: a guess, as at sign-in. The identifier is the
  // session's user, so a stolen session guessing from many IPs meets the account's own budget.
  "password-change": { client: per(10, 15), identifier: per(10, 15) },
  // A change of address also mails the new address (a link, or a notice when it is taken): the
  // address's own send budget, as sign-up's and forgot's, so many accounts cannot flood one inbox.
  "password-change-email": { client: per(10, 15), identifier: per(5, 60) },
  // A page makes a few auth requests; 120 a minute per client is a ceiling only a script meets.
  all: { client: per(120, 1), identifier: false },
}

/** Every route, in the table's order. */
export const ROUTES = Object.keys(DEFAULT_LIMITS) as RateLimitRoute[]
