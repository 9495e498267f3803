/**
 * The provider-tokens plug-in, as `createAuth` settles it: the options that were once
 * `createAuth`'s own are refused, naming their place in the plug-in, and the plug-in settles its
 * own `refresh` options (`settleRefresher`). The handler imports the plug-in's types only, so an app
 * that keeps no provider tokens bundles none of its code.
 */
import { InvalidOptionError } from "../errors.js"
import type { ProviderTokensEngine } from "../provider-tokens/types.js"
import type { LoggerInstance } from "../types.js"
import type { SettledConfig } from "./context.js"
import type { AuthConfig } from "./options.js"

const PLUG_IN = 'with `import { providerTokens } from "latchkey/provider-tokens"`'

/**
 * The provider-token plug-in, settled: the refresher, and the engine the handler calls. The
 * options that were once `createAuth`'s own (`session.refreshProviderTokens`, `signOut`) are
 * refused, naming their place in the plug-in: a config error, not a second way to say it.
 */
export function settleProviderTokens(config: AuthConfig, secret: string[], logger: Required<LoggerInstance>): Pick<SettledConfig, "refresher" | "providerTokens"> {
  if ((config.session as { refreshProviderTokens?: unknown } | undefined)?.refreshProviderTokens !== undefined) {
    throw new InvalidOptionError("session.refreshProviderTokens", `session.refreshProviderTokens is an option of the provider-tokens plug-in: providerTokens: providerTokens({ refresh: true }), ${PLUG_IN}.`)
  }
  if ((config as { signOut?: unknown }).signOut !== undefined) {
    throw new InvalidOptionError("signOut", `signOut is an option of the provider-tokens plug-in: providerTokens: providerTokens({ signOut: { federated: true } }), ${PLUG_IN}.`)
  }
  const engine: unknown = config.providerTokens
  if (engine === undefined) return { refresher: undefined, providerTokens: undefined }
  if (typeof engine !== "object" || engine === null || typeof (engine as ProviderTokensEngine).settleRefresher !== "function") {
    throw new InvalidOptionError("providerTokens", `providerTokens must be the plug-in providerTokens({ refresh: true }) makes (call it with its options), ${PLUG_IN}.`)
  }
  const plugIn = engine as ProviderTokensEngine
  return { refresher: plugIn.settleRefresher({ secret, http: { fetch: config.fetch, timeout: config.timeout }, logger }), providerTokens: plugIn }
}
