import WebAuthn, { type WebAuthnConfig, type WebAuthnUserConfig } from "./webauthn.js"

/**
 * Creates a passkey provider: {@link WebAuthn} with id `passkey`, name `Passkey`, conditional UI
 * on (stored passkeys appear in the email field's autofill) and user verification `required`.
 * Callback path: `<base>/callback/passkey`.
 *
 * Exported from `latchkey/providers/passkey` and `latchkey/providers`.
 *
 * @example
 * ```ts
 * import Passkey from "latchkey/providers/passkey"
 * const provider = Passkey()
 * ```
 */
export default function Passkey(options: WebAuthnUserConfig = {}): WebAuthnConfig {
  return { ...WebAuthn(), id: "passkey", name: "Passkey", enableConditionalUI: true, userVerification: "required", options }
}
