/**
 * WebAuthn and passkey provider configs: sign-in with a platform authenticator or security key.
 * These are configurations with documented defaults and no ceremony code: `createAuth` runs the
 * ceremony when the app also passes `webauthn` from `latchkey/webauthn` (see docs/passkeys.md).
 *
 * @module
 */
import type { Awaitable } from "../types.js"
import type { CredentialInput } from "./credentials.js"
import type { CommonProviderOptions } from "./common.js"

/**
 * The relying party: who the credentials are bound to.
 *
 * @example
 * ```ts
 * import WebAuthn, { type RelyingParty } from "latchkey/providers/webauthn"
 * const relyingParty: RelyingParty = { id: "acme.dev", name: "Acme", origin: ["https://acme.dev", "https://app.acme.dev"] }
 * const provider = WebAuthn({ relayingParty: relyingParty })
 * ```
 */
export interface RelyingParty {
  /** The RP ID: the registrable domain, such as `acme.dev`. Default: the request's host name. */
  id: string
  /** Shown by the authenticator. Default: the RP ID. */
  name: string
  /** The expected origin(s). Default: the request's origin. */
  origin: string | string[]
}

/**
 * A WebAuthn provider's configuration.
 *
 * @example
 * ```ts
 * import WebAuthn, { type WebAuthnConfig } from "latchkey/providers/webauthn"
 * const provider: WebAuthnConfig = WebAuthn({ userVerification: "required" })
 * provider.timeout // 300000: five minutes
 * ```
 */
export interface WebAuthnConfig extends CommonProviderOptions {
  type: "webauthn"
  /** Fixed relying party values; unset ones are derived from the request. */
  relayingParty?: Partial<RelyingParty>
  /** Derives the relying party per request, for multi-domain apps. */
  getRelayingParty?: (request: Request) => Awaitable<Partial<RelyingParty>>
  /** Offer stored passkeys in the browser's autofill. Default false (true for `Passkey`). */
  enableConditionalUI: boolean
  /** Fields asked for at registration. Default: one `email` field. */
  formFields: Record<string, CredentialInput>
  /** `user.id`, `name` and `displayName` for a new credential, from the submitted form. */
  getUserInfo?: (fields: Record<string, string>) => Awaitable<{ name: string; displayName?: string } | null>
  /**
   * Whether someone who is not signed in may create an account by registering a passkey for a new
   * email address. Default false: a passkey is then added by a signed-in user only. An address
   * that belongs to an existing user is never registered onto without that user's session.
   */
  allowSignUp: boolean
  /** Whether the authenticator must verify the user (PIN, biometrics). Default `"preferred"`. */
  userVerification: "required" | "preferred" | "discouraged"
  /** How long a ceremony (and its challenge) may take, in milliseconds: 1 000 to 600 000. Default 5 minutes. */
  timeout: number
  options?: Partial<Omit<WebAuthnConfig, "options" | "type">>
}

/**
 * What a user may pass to {@link WebAuthn} or {@link Passkey}.
 *
 * @example
 * ```ts
 * import WebAuthn, { type WebAuthnUserConfig } from "latchkey/providers/webauthn"
 * const options: WebAuthnUserConfig = { getRelayingParty: (request) => ({ id: new URL(request.url).hostname }), timeout: 120_000 }
 * const provider = WebAuthn(options)
 * ```
 */
export type WebAuthnUserConfig = Partial<Omit<WebAuthnConfig, "options" | "type">>

/**
 * Creates a WebAuthn provider. Defaults: id `webauthn`, name `WebAuthn`, an `email` field, user
 * verification `preferred`, a 5-minute timeout, no conditional UI, no sign-up. Credentials are
 * discoverable (resident): sign-in asks for no user name.
 *
 * Exported from `latchkey/providers/webauthn` and `latchkey/providers`.
 *
 * @example
 * ```ts
 * import WebAuthn from "latchkey/providers/webauthn"
 * const provider = WebAuthn({ relayingParty: { id: "acme.dev", name: "Acme" } })
 * ```
 */
export default function WebAuthn(options: WebAuthnUserConfig = {}): WebAuthnConfig {
  return {
    id: "webauthn",
    name: "WebAuthn",
    type: "webauthn",
    enableConditionalUI: false,
    allowSignUp: false,
    formFields: { email: { label: "Email", type: "email", autocomplete: "username webauthn", required: true } },
    userVerification: "preferred",
    timeout: 5 * 60 * 1000,
    options,
  }
}
