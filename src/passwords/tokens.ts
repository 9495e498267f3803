/**
 * The single-use tokens of the mailed links, on Auth.js's two verification-token methods alone.
 * A token is 32 random bytes plus the user's id; the adapter stores only its SHA-256 with the app's
 * secret, under an identifier that names the link's kind, the user and the address, so a link for
 * one user or address is nothing for another. `useVerificationToken` deletes the row it returns:
 * a link works once.
 *
 * A newer link supersedes an older one of the same kind without reading any row: beside each token,
 * one "latest" row per user and kind records the newest token's expiry (expiries only grow, by
 * whole seconds, so a database that keeps seconds keeps them apart). Using a link takes both rows;
 * a link whose expiry is not the latest one's is refused, and the latest row is put back for the
 * newer link.
 */
import type { AdapterWith } from "../adapters/adapter.js"
import { decodeBase64url, encodeBase64url } from "../lib/base64url.js"
import { sha256Hex } from "../jwt/digest.js"
import { ownRow } from "../adapters/token-rows.js"

/** The kinds of mailed link that carry a token. */
export type TokenKind = "verify-email" | "reset" | "change-email"

type TokenAdapter = AdapterWith<"createVerificationToken" | "useVerificationToken">

const identifierOf = (kind: TokenKind, userId: string, email: string) => `latchkey-password:${kind}:${userId}:${email}`
/**
 * The "latest" row of a user and kind. Its token is a digest of the identifier, not a constant:
 * Auth.js's Prisma and MySQL schemas keep `token` UNIQUE on its own, so one shared value would let
 * one pending link in the whole table refuse every other user's.
 */
async function latestOf(kind: TokenKind, userId: string): Promise<{ identifier: string; token: string }> {
  const identifier = `latchkey-password-latest:${kind}:${userId}`
  return { identifier, token: await sha256Hex(identifier) }
}
const storedOf = (kind: TokenKind, token: string, secret: string) => sha256Hex(`${kind}:${token}:${secret}`)

/** Characters no user id holds. */
const CONTROL = /[\u0000-\u001f\u007f]/
/** The longest user-id part a token may have: 256 bytes of id, base64url-encoded. */
const MAX_USER_PART = 342

/** How many characters of the browser binding a token carries (132 bits). */
const BROWSER_PART = 22

/** The user id a token carries, or undefined for a token that is not one of ours. */
function userIdOf(token: string): string | undefined {
  const [random, user, browser, ...rest] = token.split(".")
  if (rest.length > 0 || (browser !== undefined && browser.length !== BROWSER_PART) || random?.length !== 43 || !user || user.length > MAX_USER_PART) return undefined
  try {
    const userId = new TextDecoder("utf-8", { fatal: true }).decode(decodeBase64url(user))
    // A link's id reaches the adapter's queries: one with a NUL or another control character is no id
    // latchkey wrote, and PostgreSQL answers a NUL in text with an error (a 500 for a forged link).
    return CONTROL.test(userId) ? undefined : userId
  } catch {
    return undefined
  }
}

const timeOf = (expires: Date | string) => new Date(expires).getTime()

/**
 * Whether `token` was made in the browser whose binding is `binding` (see `issueToken`'s
 * `browser`); false for a token made without one. The part is covered by the stored hash, so a
 * link edited to name another browser is no link.
 */
export function madeInBrowser(token: string | null, binding: string | undefined): boolean {
  const part = token?.split(".")[2]
  return part !== undefined && binding !== undefined && part === binding.slice(0, BROWSER_PART)
}

/** The user a token names (unchecked: only `useToken` proves it), or undefined for one that is not ours. */
export function tokenUser(token: string | null): string | undefined {
  return token ? userIdOf(token) : undefined
}

/** How a token is issued: the browser it names ({@link madeInBrowser}), and how long since the last one it waits. */
export interface IssueOptions {
  /** A browser binding: the token names the browser it was asked from. */
  browser?: string | undefined
  /** No token (undefined) while the newest of this kind was issued less than this long ago, in milliseconds. */
  notWithinMs?: number | undefined
}

/**
 * Makes a token for `userId` and `email`, valid for `maxAge` seconds, and stores its hash; the
 * newest token of a kind supersedes every older one of that user. Answers the token for the link,
 * or undefined when `notWithinMs` says the newest one is too recent to make another.
 */
export async function issueToken(adapter: TokenAdapter, secrets: readonly string[], kind: TokenKind, userId: string, email: string, maxAge: number, options: IssueOptions = {}): Promise<string | undefined> {
  const { browser, notWithinMs } = options
  const now = Date.now()
  // The newest token's expiry, less the lifetime, is when it was issued: one issued after `now - notWithinMs` is too recent.
  const recentAfter = notWithinMs === undefined ? undefined : now - notWithinMs + maxAge * 1000
  const expires = await claimLatest(adapter, kind, userId, Math.ceil((now + maxAge * 1000) / 1000) * 1000, recentAfter)
  if (expires === undefined) return undefined
  const named = browser === undefined ? "" : `.${browser.slice(0, BROWSER_PART)}`
  const token = `${encodeBase64url(crypto.getRandomValues(new Uint8Array(32)))}.${encodeBase64url(new TextEncoder().encode(userId))}${named}`
  await adapter.createVerificationToken({ identifier: identifierOf(kind, userId, email), token: await storedOf(kind, token, secrets[0]!), expires: new Date(expires) })
  return token
}

/** How many times an issue takes the "latest" row back from overlapping issues before it gives up. */
const CLAIM_ATTEMPTS = 5

/**
 * Makes this issue the newest of its kind: takes the "latest" row, and writes it back with an
 * expiry past both `wanted` and the one taken; answers that expiry. Overlapping issues for one user
 * (two forgot requests at once) write the same row, and a database whose key is (identifier,
 * token) refuses the second write: that issue takes the row again and writes a later expiry, so
 * every request answers alike, and the last write's link is the one that works. Only the final
 * failure is thrown. When the row taken expires after `recentAfter`, it is put back as it was and
 * nothing is issued (undefined).
 */
async function claimLatest(adapter: TokenAdapter, kind: TokenKind, userId: string, wanted: number, recentAfter?: number): Promise<number | undefined> {
  const latest = await latestOf(kind, userId)
  for (let attempt = 1; ; attempt++) {
    const previous = await adapter.useVerificationToken(latest)
    const recent = previous !== null && recentAfter !== undefined && timeOf(previous.expires) > recentAfter
    const expires = recent ? timeOf(previous.expires) : previous && timeOf(previous.expires) >= wanted ? timeOf(previous.expires) + 1000 : wanted
    try {
      await adapter.createVerificationToken({ ...latest, expires: new Date(expires) })
      return recent ? undefined : expires
    } catch (error) {
      if (attempt >= CLAIM_ATTEMPTS) throw error
    }
  }
}

/**
 * Ends every pending link of `kind` for `userId` without reading any: with its "latest" row gone, no
 * older link is the newest, so each is refused (and its own row expires unused).
 */
export async function endTokens(adapter: TokenAdapter, kind: TokenKind, userId: string): Promise<void> {
  await adapter.useVerificationToken(await latestOf(kind, userId))
}

/**
 * Uses a token: the user id it was made for when it is this kind's, for `email`, unused, unexpired
 * and the newest; else undefined. Either way a matching token is spent.
 */
export async function useToken(adapter: TokenAdapter, secrets: readonly string[], kind: TokenKind, token: string | null, email: string | undefined): Promise<string | undefined> {
  const userId = token && email ? userIdOf(token) : undefined
  if (userId === undefined) return undefined
  const identifier = identifierOf(kind, userId, email!)
  let stored = null
  for (const secret of secrets) {
    const hashed = await storedOf(kind, token!, secret)
    stored = await adapter.useVerificationToken({ identifier, token: hashed })
    if (stored) {
      // Only the row asked for proves the link: see ownRow.
      if (!ownRow(stored, identifier, hashed)) return undefined
      break
    }
  }
  if (!stored) return undefined
  const latest = await adapter.useVerificationToken(await latestOf(kind, userId))
  const newest = latest !== null && timeOf(latest.expires) === timeOf(stored.expires)
  // An older link: the newer one must keep working.
  if (latest && !newest) await adapter.createVerificationToken(latest)
  return newest && timeOf(stored.expires) > Date.now() ? userId : undefined
}
