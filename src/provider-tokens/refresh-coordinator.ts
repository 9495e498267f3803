/**
 * `providerTokens({ refresh })`, settled: which providers are covered, the skew, and whether a
 * token set is due, all synchronous and small, because every session read asks. The refresh
 * itself (single flight, the shared store, the memory of results: see refresh-flight.ts) is
 * loaded on the first token that is due, so an app pays for it only when it refreshes.
 */
import { InvalidOptionError } from "../errors.js"
import type { LoggerInstance } from "../types.js"
import type { HttpOptions } from "../oauth/http.js"
import type { ProviderTokens, RefreshCoordinator, RefreshEngine, RefreshProviderTokensOptions } from "./refresh-types.js"

export type { FreshTokens, ProviderTokens, RefreshCoordinator, RefreshProviderTokensOptions } from "./refresh-types.js"

const DEFAULT_SKEW = 60

function checkOptions(options: RefreshProviderTokensOptions): void {
  if (typeof options !== "object" || options === null) throw new InvalidOptionError("providerTokens.refresh", "refresh must be true or an options object.")
  const { skew, store, providers } = options
  if (skew !== undefined && (!Number.isSafeInteger(skew) || skew < 0)) throw new InvalidOptionError("providerTokens.refresh.skew", "skew must be a whole number of seconds.")
  if (store !== undefined && (["acquire", "release", "put", "get"] as const).some((method) => typeof store?.[method] !== "function")) {
    throw new InvalidOptionError("providerTokens.refresh.store", "store must have acquire, release, put and get (see RefreshStore).")
  }
  if (providers !== undefined && (!Array.isArray(providers) || providers.some((id) => typeof id !== "string"))) {
    throw new InvalidOptionError("providerTokens.refresh.providers", "providers must be a list of provider ids.")
  }
}

/**
 * Settles `providerTokens({ refresh })`: undefined when it is off. Throws `InvalidOptionError`
 * for options that cannot work.
 */
export function settleRefreshCoordinator(
  option: boolean | RefreshProviderTokensOptions | undefined,
  context: { secret: string[]; http: HttpOptions; logger: Required<LoggerInstance> }
): RefreshCoordinator | undefined {
  if (option === undefined || option === false) return undefined
  const options = option === true ? {} : option
  checkOptions(options)
  const skew = options.skew ?? DEFAULT_SKEW
  const covered = options.providers ? new Set(options.providers) : undefined
  let engine: Promise<RefreshEngine> | undefined
  const isDue = (tokens: ProviderTokens) => typeof tokens.expires_at === "number" && tokens.expires_at - skew <= Math.floor(Date.now() / 1000)
  return {
    skew,
    covers: (providerId) => covered === undefined || covered.has(providerId),
    isDue,
    async ensureFresh(provider, tokens) {
      if (!isDue(tokens)) return { status: "fresh", tokens }
      engine ??= import("./refresh-flight.js").then(({ createRefreshEngine }) => createRefreshEngine({ ...options, skew }, context, isDue))
      return (await engine)(provider, tokens)
    },
  }
}

