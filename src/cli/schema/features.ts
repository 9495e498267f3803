/**
 * Which tables an app needs, read from its configuration or from `--with`: database sessions when
 * the session strategy is `"database"` (the default with an adapter), verification tokens with an
 * email provider, authenticators with passkeys, a `password` column on users with the Password
 * provider (or the `passwords` plug-in). Providers are read by their `type` only, so a provider
 * without its client id or secret still counts.
 */
import type { AuthConfig } from "../../handler/options.js"
import { SchemaOptionError } from "../errors.js"
import type { SchemaFeatures } from "./model.js"

/** The names `--with` accepts, and the feature each turns on. */
const WITH_NAMES: Record<string, keyof SchemaFeatures> = { "database-sessions": "databaseSessions", sessions: "databaseSessions", email: "email", passkeys: "passkeys", webauthn: "passkeys", passwords: "passwords", password: "passwords" }

/** The `type` of a configured provider, calling an uncalled factory (`GitHub` rather than `GitHub()`). */
function providerType(provider: unknown): unknown {
  let config = provider
  try {
    if (typeof provider === "function") config = (provider as (options: object) => unknown)({})
  } catch {
    // A factory that needs its options (a mail server) cannot be read without them; it counts as unknown.
    return undefined
  }
  return typeof config === "object" && config !== null && "type" in config ? config.type : undefined
}

/** The features of a loaded configuration. */
export function featuresOfConfig(config: AuthConfig<any, any>): SchemaFeatures {
  const types = (Array.isArray(config.providers) ? config.providers : []).map(providerType)
  const strategy = config.session?.strategy ?? (config.adapter ? "database" : "jwt")
  // The Password provider is refused without the plug-in and useless the other way round: either one says the app stores hashes.
  const passwords = types.includes("password") || ("passwords" in config && (config as { passwords?: unknown }).passwords !== undefined)
  return { databaseSessions: strategy === "database", email: types.includes("email"), passkeys: types.includes("webauthn"), passwords }
}

/** `features` with each name of a `--with` list turned on. */
export function withFeatures(features: SchemaFeatures, list: string): SchemaFeatures {
  const result = { ...features }
  for (const name of list.split(",").map((item) => item.trim()).filter(Boolean)) {
    const feature = WITH_NAMES[name]
    if (feature === undefined) throw new SchemaOptionError(`--with ${name}: unknown; use any of ${Object.keys(WITH_NAMES).join(", ")}.`)
    result[feature] = true
  }
  return result
}

/** No feature: users and accounts only. */
export const NO_FEATURES: SchemaFeatures = { databaseSessions: false, email: false, passkeys: false, passwords: false }
