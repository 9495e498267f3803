/**
 * Where instances of an app agree on who refreshes a provider token: a short lock per refresh
 * token and a short-lived result beside it. The interface is four string operations so that any
 * shared store can back it (`latchkey/redis` has the Redis one); the in-memory store here is the
 * default and serves one process. Values are opaque to the store: the coordinator seals them with
 * the app's secret before they leave the process.
 */

/**
 * A lock and result store shared by every instance of an app, for provider token refreshes.
 * Keys are already hashed and namespaced by the caller; values are sealed strings.
 *
 * Exported from `latchkey/provider-tokens`.
 *
 * @example
 * ```ts
 * import type { RefreshStore } from "latchkey/provider-tokens"
 * // a store over your own key-value service (kv: your client)
 * const store: RefreshStore = {
 *   acquire: (key, owner, ttlMs) => kv.setIfAbsent(key, owner, ttlMs),
 *   release: (key, owner) => kv.deleteIfEquals(key, owner),
 *   put: (key, value, ttlMs) => kv.set(key, value, ttlMs),
 *   get: (key) => kv.get(key),
 * }
 * ```
 */
export interface RefreshStore {
  /** Takes the lock `key` for `ttlMs` as `owner` when no one holds it; answers whether it did. */
  acquire(key: string, owner: string, ttlMs: number): Promise<boolean>
  /** Releases the lock `key` if `owner` still holds it (a lock that expired and was retaken is left alone). */
  release(key: string, owner: string): Promise<void>
  /** Stores `value` under `key` for `ttlMs`. */
  put(key: string, value: string, ttlMs: number): Promise<void>
  /** The value under `key`, or undefined when there is none or it expired. */
  get(key: string): Promise<string | undefined>
}

/** The most keys the in-memory store holds; the oldest go first. */
const MAX_MEMORY_ENTRIES = 10_000

/**
 * A {@link RefreshStore} in this process's memory: the default, right for one instance. Bounded
 * (the oldest of 10 000 entries are dropped first) and expiring. With several instances, pass a
 * shared store such as `redisRefreshStore` from `latchkey/redis`.
 *
 * Exported from `latchkey/provider-tokens`.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * import { memoryRefreshStore, providerTokens } from "latchkey/provider-tokens"
 * export const { handler, auth, getAccessToken } = createAuth({
 *   providers,
 *   providerTokens: providerTokens({ refresh: { store: memoryRefreshStore() } }), // what the default does
 * })
 * ```
 */
export function memoryRefreshStore(): RefreshStore {
  const entries = new Map<string, { value: string; expires: number }>()
  const live = (key: string) => {
    const entry = entries.get(key)
    if (entry && entry.expires <= Date.now()) entries.delete(key)
    return entry && entry.expires > Date.now() ? entry : undefined
  }
  const set = (key: string, value: string, ttlMs: number) => {
    entries.delete(key)
    if (entries.size >= MAX_MEMORY_ENTRIES) entries.delete(entries.keys().next().value!)
    entries.set(key, { value, expires: Date.now() + ttlMs })
  }
  return {
    async acquire(key, owner, ttlMs) {
      if (live(key)) return false
      set(key, owner, ttlMs)
      return true
    },
    async release(key, owner) {
      if (live(key)?.value === owner) entries.delete(key)
    },
    async put(key, value, ttlMs) {
      set(key, value, ttlMs)
    },
    async get(key) {
      return live(key)?.value
    },
  }
}
