/**
 * What `createAuth` checks once about passkeys: a webauthn provider needs the ceremony from
 * `latchkey/webauthn` (kept out of the root so apps without passkeys never bundle it), Auth.js's
 * `experimental.enableWebAuthn` switch is answered with what to do instead, and sign-up needs
 * `getUserByEmail` to keep an existing user's address from being registered onto.
 */
import { InvalidOptionError, InvalidProviderError } from "../errors.js"
import { withAdapterMethods } from "../adapters/adapter.js"
import type { ResolvedProvider } from "../providers/types.js"
import type { SettledConfig } from "./context.js"
import type { AuthConfig } from "./options.js"

/** The longest ceremony, and so challenge, allowed: 10 minutes, WebAuthn's recommended upper bound. */
const MAX_TIMEOUT = 10 * 60 * 1000
const USER_VERIFICATION = new Set<unknown>(["required", "preferred", "discouraged"])

const ADD_CEREMONY = 'add `import { webauthn } from "latchkey/webauthn"` and pass it to createAuth: createAuth({ providers, adapter, webauthn }).'

/** Throws for a passkey setup that cannot work; warns about one that is probably a mistake. */
export function checkWebAuthnAtStartup(settled: SettledConfig, config: AuthConfig, providers: readonly ResolvedProvider[]): void {
  const { logger } = settled
  const experimental = (config as { experimental?: { enableWebAuthn?: unknown } }).experimental
  if (experimental?.enableWebAuthn !== undefined) {
    throw new InvalidOptionError("experimental.enableWebAuthn", `latchkey has no experimental switch for passkeys: remove experimental.enableWebAuthn, and ${ADD_CEREMONY}`)
  }
  const passkeys = providers.filter((provider) => provider.type === "webauthn")
  for (const provider of passkeys) {
    if (!settled.webauthn) throw new InvalidProviderError(provider.id, "webauthn", `a passkey provider needs the WebAuthn ceremony: ${ADD_CEREMONY}`)
    // A hand-written config (not from WebAuthn() or Passkey()) may lack what the factories default.
    if (!Number.isSafeInteger(provider.timeout) || provider.timeout < 1000 || provider.timeout > MAX_TIMEOUT) {
      throw new InvalidProviderError(provider.id, "timeout", `timeout must be a whole number of milliseconds from 1000 to ${MAX_TIMEOUT}; WebAuthn() and Passkey() default to 300000.`)
    }
    if (!USER_VERIFICATION.has(provider.userVerification)) {
      throw new InvalidProviderError(provider.id, "userVerification", 'userVerification must be "required", "preferred" or "discouraged".')
    }
    if (provider.allowSignUp) {
      withAdapterMethods(settled.adapter, ["getUserByEmail"], `provider "${provider.id}" (passkey sign-up)`)
      if (providers.some((other) => other.type === "email")) {
        logger.warn("WEBAUTHN_SIGN_UP_UNVERIFIED_EMAIL", {
          message: `provider "${provider.id}" lets anyone sign up with a passkey under an email address they do not prove, and an email provider signs in whoever owns that address to the same user; see docs/passkeys.md, "Sign-up"`,
        })
      }
    }
  }
}
