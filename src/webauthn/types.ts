/**
 * The contract between the handler and the passkey ceremony: what `createAuth` calls on the object
 * an app imports from `latchkey/webauthn` and passes as its `webauthn` option (the passkey routes,
 * and the cryptography under them). The handler imports these as types only, so an app without
 * passkeys bundles none of it. Values cross the boundary as JSON-ready strings (base64url, as
 * WebAuthn's JSON serialisation has them).
 *
 * @module
 */
import type { ResolvedProvider } from "../providers/types.js"
import type { PasskeyHost, PasskeyProvider, PasskeyRequest } from "./host.js"
import type { PasskeySetup } from "./startup.js"

/**
 * The codes the passkey routes answer with, in `{ error }`, for scripts to switch on.
 *
 * @example
 * ```ts
 * import type { PasskeyErrorCode } from "latchkey"
 * const response = await fetch("/auth/webauthn-options/passkey?action=register&email=ada%40example.com")
 * const { error } = (await response.json()) as { error?: PasskeyErrorCode }
 * if (error === "AccountExists") console.info("sign in first, then add a passkey")
 * ```
 */
export type PasskeyErrorCode =
  | "InvalidRequest"
  | "InvalidEmail"
  | "InvalidChallenge"
  | "VerificationFailed"
  | "UnknownCredential"
  | "CredentialExists"
  | "SignUpDisabled"
  | "AccountExists"
  | "SessionRequired"
  | "MissingCSRF"
  | "NotFound"
  | "NotSupported"
  | "LastSignInMethod"
  | "Configuration"

/**
 * A passkey as the management API (`GET <basePath>/passkeys`) lists it: never its public key.
 *
 * @example
 * ```ts
 * import type { PasskeySummary } from "latchkey"
 * const { passkeys } = (await (await fetch("/auth/passkeys")).json()) as { passkeys: PasskeySummary[] }
 * const labels = passkeys.map((passkey) => passkey.name ?? `Passkey ${passkey.id.slice(0, 8)}`)
 * ```
 */
export interface PasskeySummary {
  /** The credential id, base64url. */
  id: string
  name: string | null
  deviceType: string
  backedUp: boolean
  transports: string[]
}

/**
 * The relying party a ceremony runs for: the RP ID credentials are scoped to, the name shown by the
 * authenticator, and the origins a response may come from.
 *
 * @example
 * ```ts
 * import type { CeremonyRelyingParty } from "latchkey/webauthn"
 * const rp: CeremonyRelyingParty = { id: "acme.dev", name: "Acme", origins: ["https://acme.dev", "https://app.acme.dev"] }
 * ```
 */
export interface CeremonyRelyingParty {
  id: string
  name: string
  origins: string[]
}

/**
 * A stored credential as the ceremony needs it: its id (base64url), its COSE public key
 * (base64url), its signature counter and transports.
 *
 * @example
 * ```ts
 * import type { CeremonyCredential } from "latchkey/webauthn"
 * const credential: CeremonyCredential = { id: "hWc3…", publicKey: "pQECAyYg…", counter: 4, transports: ["internal"] }
 * ```
 */
export interface CeremonyCredential {
  id: string
  publicKey: string
  counter: number
  transports?: string[]
}

/**
 * What a verified registration yields: the new credential and what the authenticator said about it.
 *
 * @example
 * ```ts
 * import type { RegisteredCredential } from "latchkey/webauthn"
 * const describe = (created: RegisteredCredential) => `${created.deviceType}${created.backedUp ? ", synced" : ""}`
 * ```
 */
export interface RegisteredCredential extends CeremonyCredential {
  deviceType: "singleDevice" | "multiDevice"
  backedUp: boolean
  userVerified: boolean
}

/**
 * What a verified assertion yields. `counter` is the authenticator's new signature counter; the
 * caller compares it with the stored one (the ceremony verifies the signature only).
 *
 * @example
 * ```ts
 * import type { VerifiedAssertion } from "latchkey/webauthn"
 * const rolledBack = (stored: number, seen: VerifiedAssertion) => (seen.counter > 0 || stored > 0) && seen.counter <= stored
 * ```
 */
export interface VerifiedAssertion {
  credentialId: string
  counter: number
  userVerified: boolean
  backedUp: boolean
  deviceType: "singleDevice" | "multiDevice"
}

/**
 * The passkey ceremony: the passkey routes (`handle`), options and verification for registration
 * and authentication, and the one browser script the sign-in page loads. `latchkey/webauthn` exports the implementation,
 * `webauthn`, built on `@simplewebauthn/server`; `createAuth` takes it as its `webauthn` option.
 * Verification methods throw a `WebAuthnError` with reason `"verification_failed"` when a
 * response does not verify.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * import { webauthn, type WebAuthnCeremony } from "latchkey/webauthn"
 * import Passkey from "latchkey/providers/passkey"
 * const ceremony: WebAuthnCeremony = webauthn
 * export const { handler, auth } = createAuth({ providers: [Passkey], adapter, webauthn: ceremony })
 * ```
 */
export interface WebAuthnCeremony {
  /** `PublicKeyCredentialCreationOptionsJSON` for a new discoverable credential. */
  registrationOptions(params: {
    rp: CeremonyRelyingParty
    challenge: string
    /** The WebAuthn user handle, base64url: random per registration, never the user's id. */
    userHandle: string
    userName: string
    userDisplayName: string
    excludeCredentials: { id: string; transports?: string[] }[]
    userVerification: "required" | "preferred" | "discouraged"
    timeout: number
  }): Promise<Record<string, unknown>>
  /** Verifies an attestation (the browser's `RegistrationResponseJSON`). */
  verifyRegistration(params: { rp: CeremonyRelyingParty; challenge: string; response: unknown; requireUserVerification: boolean }): Promise<RegisteredCredential>
  /** `PublicKeyCredentialRequestOptionsJSON`, for discoverable credentials (no allow list). */
  authenticationOptions(params: { rp: CeremonyRelyingParty; challenge: string; userVerification: "required" | "preferred" | "discouraged"; timeout: number }): Promise<Record<string, unknown>>
  /** Verifies an assertion (the browser's `AuthenticationResponseJSON`) against a stored credential. */
  verifyAuthentication(params: { rp: CeremonyRelyingParty; challenge: string; response: unknown; credential: CeremonyCredential; requireUserVerification: boolean }): Promise<VerifiedAssertion>
  /**
   * Answers one passkey request (the options, the callback, the management API, the script) with
   * the capabilities the handler lends it. `createAuth` calls it; an app does not.
   */
  handle(host: PasskeyHost, request: PasskeyRequest): Promise<Response>
  /**
   * Checks the app's passkey providers once, when `createAuth` settles: throws
   * `InvalidProviderError` for one that cannot work, warns about a likely mistake. `createAuth` calls it.
   */
  checkProviders(providers: readonly ResolvedProvider[], setup: PasskeySetup): void
  /** The sign-in page's section for one passkey provider (`common`: the page's hidden fields). `createAuth` calls it. */
  signInSection(provider: PasskeyProvider, baseUrl: string, common: string): string
  /** The browser script the sign-in page loads, as served: one self-contained file. */
  readonly script: string
  /** A short hash of `script`, for cache busting. */
  readonly scriptVersion: string
}

/** The ceremony without what the handler calls: the cryptography and the script, which the routes call. */
export type Verifier = Omit<WebAuthnCeremony, "handle" | "checkProviders" | "signInSection">
