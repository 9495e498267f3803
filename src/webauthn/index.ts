/**
 * `latchkey/webauthn`: passkeys. The ceremony (options, and attestation and assertion verification
 * on `@simplewebauthn/server`) and the one browser script the sign-in page loads live in this
 * subpath alone, so an app without passkeys bundles none of it. An app with passkeys imports
 * `webauthn` and hands it to `createAuth`. The passkey routes live here too (the options, the
 * callback with its sealed challenge cookie, the management API, the script): the handler only
 * recognises a passkey request and calls `webauthn.handle` with what it lends them (the CSRF check,
 * the session, finishing a sign-in), so apps without passkeys bundle none of them either. So do the
 * sign-in page's passkey section and the start-up checks of passkey providers.
 *
 * @module
 */
import { ceremony } from "./ceremony.js"
import { handlePasskeyRequest } from "./handle.js"
import { PASSKEY_SCRIPT, PASSKEY_SCRIPT_VERSION } from "./script.generated.js"
import { signInSection } from "./sign-in-section.js"
import { checkPasskeyProviders } from "./startup.js"
import type { WebAuthnCeremony } from "./types.js"

export type { PasskeyHost, PasskeyProvider, PasskeyRequest, PasskeySignIn } from "./host.js"
export type { PasskeySetup } from "./startup.js"
export type { CeremonyCredential, CeremonyRelyingParty, RegisteredCredential, VerifiedAssertion, WebAuthnCeremony } from "./types.js"

const verifier = ceremony(PASSKEY_SCRIPT, PASSKEY_SCRIPT_VERSION)

/**
 * The passkey ceremony, for `createAuth`'s `webauthn` option. Without it, a `Passkey` or
 * `WebAuthn` provider is refused at `createAuth` with an error saying to add it.
 *
 * Exported from `latchkey/webauthn`.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * import { memoryAdapter } from "latchkey/adapters"
 * import Passkey from "latchkey/providers/passkey"
 * import { webauthn } from "latchkey/webauthn"
 * export const { handler, auth } = createAuth({ providers: [Passkey({ allowSignUp: true })], adapter: memoryAdapter(), webauthn })
 * ```
 */
export const webauthn: WebAuthnCeremony = {
  ...verifier,
  handle: (host, request) => handlePasskeyRequest(verifier, host, request),
  checkProviders: checkPasskeyProviders,
  signInSection,
}
