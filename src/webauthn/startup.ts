/**
 * What a passkey app's providers must hold, checked once when `createAuth` settles (the handler
 * calls {@link checkPasskeyProviders} through the ceremony, so apps without passkeys bundle none of
 * it): a ceremony timeout WebAuthn allows, a known user-verification level, and, for sign-up,
 * `getUserByEmail` to keep an existing user's address from being registered onto.
 */
import { withAdapterMethods, type Adapter } from "../adapters/adapter.js"
import { InvalidProviderError } from "../errors.js"
import type { ResolvedProvider } from "../providers/types.js"
import type { LoggerInstance } from "../types.js"

/** The longest ceremony, and so challenge, allowed: 10 minutes, WebAuthn's recommended upper bound. */
const MAX_TIMEOUT = 10 * 60 * 1000
const USER_VERIFICATION = new Set<unknown>(["required", "preferred", "discouraged"])

/**
 * What the checks read of the app's settled config: its adapter and logger.
 *
 * Exported from `latchkey/webauthn`.
 *
 * @example
 * ```ts
 * import { memoryAdapter } from "latchkey/adapters"
 * import type { PasskeySetup } from "latchkey/webauthn"
 * const setup: PasskeySetup = { adapter: memoryAdapter(), logger: { error: console.error, warn: console.warn, debug: () => {} } }
 * ```
 */
export interface PasskeySetup {
  adapter: Adapter | undefined
  logger: Required<LoggerInstance>
}

/** Throws for a passkey provider that cannot work; warns about one that is probably a mistake. */
export function checkPasskeyProviders(providers: readonly ResolvedProvider[], { adapter, logger }: PasskeySetup): void {
  for (const provider of providers) {
    if (provider.type !== "webauthn") continue
    // A hand-written config (not from WebAuthn() or Passkey()) may lack what the factories default.
    if (!Number.isSafeInteger(provider.timeout) || provider.timeout < 1000 || provider.timeout > MAX_TIMEOUT) {
      throw new InvalidProviderError(provider.id, "timeout", `timeout must be a whole number of milliseconds from 1000 to ${MAX_TIMEOUT}; WebAuthn() and Passkey() default to 300000.`)
    }
    if (!USER_VERIFICATION.has(provider.userVerification)) {
      throw new InvalidProviderError(provider.id, "userVerification", 'userVerification must be "required", "preferred" or "discouraged".')
    }
    if (provider.allowSignUp) {
      withAdapterMethods(adapter, ["getUserByEmail"], `provider "${provider.id}" (passkey sign-up)`)
      // Each provider that signs an address's owner in to the user that already has the address.
      const joining = providers.filter((other) => other.type === "email" || (other.type === "password" && other.allowLinkingToExistingUser) || ((other.type === "oauth" || other.type === "oidc") && other.allowDangerousEmailAccountLinking))
      if (joining.length > 0) {
        logger.warn("WEBAUTHN_SIGN_UP_UNVERIFIED_EMAIL", {
          message: `provider "${provider.id}" lets anyone sign up with a passkey under an email address they do not prove, and ${joining.map((other) => `provider "${other.id}"`).join(", ")} would sign whoever owns that address in to the same user, the stranger's passkey still on it; see docs/passkeys.md, "Sign-up"`,
        })
      }
    }
  }
}
