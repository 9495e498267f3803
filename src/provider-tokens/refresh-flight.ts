/**
 * Keeps provider access tokens fresh with one refresh in flight per refresh token. Three layers
 * make sure a refresh token is exchanged once, whoever asks:
 * - in this process, concurrent callers holding the same refresh token share one promise;
 * - across instances, a lock in the shared {@link RefreshStore} admits one refresher, and the
 *   others wait (polling, bounded) for the result it stores; a holder that dies only delays them
 *   until its lock expires;
 * - afterwards, the result stays keyed by a hash of the refresh token it consumed, for as long as
 *   the new access token lives, so a caller that still holds the old token set (a session cookie
 *   that could not be re-written) is handed its successor instead of replaying a rotated token.
 *
 * A refusal with `invalid_grant` ends the token set (remembered like a result, so a stale cookie
 * does not ask again); a network failure or a 5xx is retried once, then the old token is kept and
 * a coded line is logged. Nothing here throws for a failed refresh, and no token reaches a log.
 */
import { LatchkeyError, OAuthProtocolError, OAuthTokenError } from "../errors.js"
import { encodeBase64url } from "../lib/base64url.js"
import { decode } from "../jwt/decode.js"
import { encode } from "../jwt/encode.js"
import type { ResolvedOAuthProvider } from "../providers/types.js"
import type { LoggerInstance } from "../types.js"
import { DEFAULT_TIMEOUT, type HttpOptions } from "../oauth/http.js"
import type { FreshTokens, ProviderTokens, RefreshEngine, RefreshProviderTokensOptions } from "./refresh-types.js"
import { memoryRefreshStore } from "./refresh-store.js"
import { refreshTokens } from "../oauth/tokens.js"

/** Results are kept at least this long, so a stale cookie read right after a refresh finds one. */
const MIN_RETENTION_MS = 5 * 60 * 1000
/** And at most this long: a token set that lives longer is rarely refreshed, and memory is bounded. */
const MAX_RETENTION_MS = 24 * 60 * 60 * 1000
/** The most remembered results and concurrent refreshes in this process. */
const MAX_REMEMBERED = 10_000
const MAX_IN_FLIGHT = 10_000
/** How many successors a stale token set is followed through before it is refreshed itself. */
const MAX_CHAIN = 8
/** After a refresh failed (the provider could not be reached), reads use the old token this long before trying again. */
const RETRY_AFTER_MS = 5_000
const RESULT_SALT = "latchkey.refresh-result"

type Outcome = { tokens: ProviderTokens } | { ended: true }

async function hashOf(text: string): Promise<string> {
  return encodeBase64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))))
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Whether a refresh failure is worth one more try: the provider could not be reached, or failed itself. */
function isTransient(error: unknown): boolean {
  return error instanceof OAuthProtocolError || (error instanceof OAuthTokenError && error.status >= 500)
}

/** The fields a session keeps of a refresh response; an id_token the response lacks is kept from before. */
function kept(tokens: Record<string, unknown>, before: ProviderTokens): ProviderTokens {
  const next: ProviderTokens = {}
  for (const field of ["access_token", "refresh_token", "token_type", "scope", "id_token"] as const) {
    const value = tokens[field] ?? before[field]
    if (typeof value === "string") next[field] = value
  }
  if (typeof tokens.expires_at === "number") next.expires_at = tokens.expires_at
  return next
}

/** The refresh engine of one `createAuth`: `isDue` is the settled coordinator's own. */
export function createRefreshEngine(
  options: RefreshProviderTokensOptions & { skew: number },
  context: { secret: string[]; http: HttpOptions; logger: Required<LoggerInstance> },
  isDue: (tokens: ProviderTokens) => boolean
): RefreshEngine {
  const { skew } = options
  const store = options.store ?? memoryRefreshStore()
  const { secret, http, logger } = context
  // Two attempts, each bounded by the request timeout, and a margin: a live holder never loses its lock.
  const lockTtl = 2 * (http.timeout ?? DEFAULT_TIMEOUT) + 2_000
  const remembered = new Map<string, { outcome: Outcome; expires: number }>()
  const inFlight = new Map<string, Promise<FreshTokens>>()
  /** Refresh tokens whose refresh just failed for a transient reason, and when to try again. */
  const failed = new Map<string, number>()

  function retention(outcome: Outcome): number {
    const lifetime = "tokens" in outcome && typeof outcome.tokens.expires_at === "number" ? outcome.tokens.expires_at * 1000 - Date.now() : 0
    return Math.min(MAX_RETENTION_MS, Math.max(MIN_RETENTION_MS, lifetime + skew * 1000))
  }

  function remember(key: string, outcome: Outcome): void {
    remembered.delete(key)
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!)
    remembered.set(key, { outcome, expires: Date.now() + retention(outcome) })
  }

  function recall(key: string): Outcome | undefined {
    const entry = remembered.get(key)
    if (entry && entry.expires <= Date.now()) remembered.delete(key)
    return entry && entry.expires > Date.now() ? entry.outcome : undefined
  }

  /** The result another instance stored for `key`, opened; undefined when there is none (or it does not open). */
  async function shared(key: string): Promise<Outcome | undefined> {
    const sealed = await store.get(`latchkey:refresh:result:${key}`)
    if (sealed === undefined || sealed === null) return undefined
    const opened = await decode<{ outcome?: Outcome }>({ token: sealed, secret, salt: RESULT_SALT }).catch(() => null)
    const outcome = opened?.outcome
    if (typeof outcome !== "object" || outcome === null) return undefined
    remember(key, outcome)
    return outcome
  }

  async function share(key: string, outcome: Outcome): Promise<void> {
    remember(key, outcome)
    const ttl = retention(outcome)
    const sealed = await encode({ token: { outcome }, secret, salt: RESULT_SALT, maxAge: Math.ceil(ttl / 1000) })
    await store.put(`latchkey:refresh:result:${key}`, sealed, ttl)
  }

  /** One refresh at the provider: retried once when the failure is transient. */
  async function exchange(provider: ResolvedOAuthProvider, tokens: ProviderTokens): Promise<Outcome | undefined> {
    for (let attempt = 1; ; attempt++) {
      try {
        const refreshed = await refreshTokens(provider, tokens.refresh_token!, http)
        return { tokens: kept(refreshed, tokens) }
      } catch (error) {
        if (error instanceof OAuthTokenError && error.error === "invalid_grant") {
          logger.warn("ERR_REFRESH_TOKEN_INVALID", { provider: provider.id, message: "the provider refused the refresh token; the session's provider tokens end" })
          return { ended: true }
        }
        if (attempt === 1 && isTransient(error)) continue
        const code = (error as { code?: unknown }).code
        logger.warn("ERR_REFRESH_FAILED", { provider: provider.id, code: typeof code === "string" ? code : "ERR_UNKNOWN", attempts: attempt, message: "the access token was not refreshed; the old one is kept" })
        return undefined
      }
    }
  }

  /** The refresh of `tokens` (keyed `key`) across instances: the stored result, or the lock and a refresh. */
  async function refreshShared(provider: ResolvedOAuthProvider, tokens: ProviderTokens, key: string, depth: number): Promise<FreshTokens> {
    const lock = `latchkey:refresh:lock:${key}`
    const owner = crypto.randomUUID()
    const deadline = Date.now() + lockTtl + 1_000
    for (let wait = 20; ; wait = Math.min(wait * 2, 250)) {
      const found = await shared(key)
      if (found) return follow(provider, found, depth + 1)
      if (await store.acquire(lock, owner, lockTtl)) {
        try {
          // Another instance may have finished between the read and the lock.
          const raced = await shared(key)
          if (raced) return follow(provider, raced, depth + 1)
          const outcome = await exchange(provider, tokens)
          if (!outcome) {
            failed.set(key, Date.now() + RETRY_AFTER_MS)
            if (failed.size > MAX_IN_FLIGHT) failed.delete(failed.keys().next().value!)
            return { status: "stale", tokens }
          }
          await share(key, outcome)
          return "ended" in outcome ? { status: "ended" } : { status: "refreshed", tokens: outcome.tokens }
        } finally {
          await store.release(lock, owner)
        }
      }
      if (Date.now() >= deadline) {
        logger.warn("ERR_REFRESH_LOCK_TIMEOUT", { provider: provider.id, message: "another instance held the refresh lock too long; the old token is kept" })
        return { status: "stale", tokens }
      }
      await sleep(wait)
    }
  }

  /** Where a remembered outcome leads: its tokens when fresh, else their own refresh. */
  function follow(provider: ResolvedOAuthProvider, outcome: Outcome, depth: number): Promise<FreshTokens> | FreshTokens {
    if ("ended" in outcome) return { status: "ended", shared: true }
    if (!isDue(outcome.tokens) || depth >= MAX_CHAIN) return { status: "refreshed", tokens: outcome.tokens, shared: true }
    return refresh(provider, outcome.tokens, depth)
  }

  async function refresh(provider: ResolvedOAuthProvider, tokens: ProviderTokens, depth: number): Promise<FreshTokens> {
    if (!tokens.refresh_token || !provider.capabilities.refresh) return { status: "stale", tokens }
    const key = await hashOf(`${provider.id}\u0000${provider.clientId}\u0000${tokens.refresh_token}`)
    const known = recall(key)
    if (known) return follow(provider, known, depth + 1)
    const running = inFlight.get(key)
    if (running) return running
    if ((failed.get(key) ?? 0) > Date.now()) return { status: "stale", tokens }
    const started = refreshShared(provider, tokens, key, depth)
    if (inFlight.size < MAX_IN_FLIGHT) {
      inFlight.set(key, started)
      // Removed once settled; a rejection (the store failed) is the caller's to see.
      started.then(
        () => inFlight.delete(key),
        () => inFlight.delete(key)
      )
    }
    return started
  }

  return async (provider, tokens) => {
    try {
      return await refresh(provider, tokens, 0)
    } catch (error) {
      // The shared store failed: the request goes on with the tokens it has.
      logger.error(new LatchkeyError("The provider token refresh store failed; the old token is kept.", { cause: error }))
      return { status: "stale", tokens }
    }
  }
}
