/**
 * The types every provider config shares, below the per-type configs (credentials, email, webauthn)
 * that build on them, so the provider types import in one direction only. Re-exported from
 * `latchkey/providers`.
 *
 * @module
 */

/**
 * Every kind of provider.
 *
 * @example
 * ```ts
 * import type { ProviderType } from "latchkey/providers"
 * const redirects = (type: ProviderType) => type === "oauth" || type === "oidc"
 * ```
 */
export type ProviderType = "oidc" | "oauth" | "email" | "credentials" | "webauthn" | "password"

/**
 * What every provider has.
 *
 * @example
 * ```ts
 * import type { CommonProviderOptions } from "latchkey/providers"
 * const buttonLabel = (provider: CommonProviderOptions) => `Sign in with ${provider.name}`
 * ```
 */
export interface CommonProviderOptions {
  /** Unique among the configured providers, and part of the callback URL: `<base>/callback/<id>`. */
  id: string
  /** Shown to users, as in "Sign in with GitHub". */
  name: string
  type: ProviderType
}
