/**
 * The ceremony on `@simplewebauthn/server`: it builds the options and verifies attestations and
 * assertions (CBOR, COSE keys, attestation statements, signatures). What stays here is the
 * translation: strings in and out, and its errors turned into one typed `WebAuthnError` whose
 * message names the failed rule without quoting the challenge or the response. The library is an
 * optional peer dependency, loaded by ./library.ts when a step first needs it.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server"
import { WebAuthnError } from "../errors.js"
import { webauthnLibrary, type WebAuthnLibrary } from "./library.js"
import type { CeremonyRelyingParty, RegisteredCredential, VerifiedAssertion, Verifier } from "./types.js"

/** The rules a verification can fail, as they appear in the library's messages, each with our wording. */
const FAILED_RULES: [RegExp, string][] = [
  [/top origin/i, "the response came from an unexpected top-level origin"],
  [/origin/i, "the response came from an origin this app does not accept"],
  [/RP ID|rpID|rpIdHash/i, "the credential is scoped to another RP ID"],
  [/challenge/i, "the response answers another challenge"],
  [/user verification/i, "the authenticator did not verify the user, and this provider requires it"],
  [/user not present|user presence/i, "the user was not present"],
  [/signature/i, "the signature does not verify against the stored public key"],
  [/type/i, "the response is of the wrong type"],
]

/** The library answers `verified: false` for exactly one rule: the signature. */
const UNVERIFIED = new Error("signature")

function verificationFailed(ceremony: "registration" | "authentication", cause: unknown): WebAuthnError {
  const message = cause instanceof Error ? cause.message : ""
  const rule = FAILED_RULES.find(([pattern]) => pattern.test(message))?.[1] ?? "the response is malformed or does not verify"
  return new WebAuthnError("verification_failed", `The passkey ${ceremony} did not verify: ${rule}.`)
}

/** The narrowest shape a browser response must have before the library looks at it. */
function responseShape<T>(response: unknown): T {
  const ok = typeof response === "object" && response !== null && typeof (response as { id?: unknown }).id === "string" && typeof (response as { response?: unknown }).response === "object"
  if (!ok) throw new WebAuthnError("invalid_response", "The passkey response is not a PublicKeyCredential in its JSON form.")
  return response as T
}

function bytesOf({ helpers }: WebAuthnLibrary, base64url: string, what: string): Uint8Array<ArrayBuffer> {
  if (!helpers.isoBase64URL.isBase64URL(base64url)) throw new WebAuthnError("invalid_response", `The ${what} is not base64url.`)
  return helpers.isoBase64URL.toBuffer(base64url) as Uint8Array<ArrayBuffer>
}

function expected(rp: CeremonyRelyingParty) {
  return { expectedOrigin: rp.origins, expectedRPID: rp.id }
}

/** The ceremony's implementation; `script` is supplied by the entry that bundles it. */
export function ceremony(script: string, scriptVersion: string): Verifier {
  // Begun now, so the first passkey request does not wait for the import.
  void webauthnLibrary()
  return {
    script,
    scriptVersion,
    async registrationOptions(params) {
      const library = await webauthnLibrary()
      const options = await library.server.generateRegistrationOptions({
        rpName: params.rp.name,
        rpID: params.rp.id,
        userName: params.userName,
        userDisplayName: params.userDisplayName,
        userID: bytesOf(library, params.userHandle, "user handle"),
        challenge: bytesOf(library, params.challenge, "challenge"),
        timeout: params.timeout,
        attestationType: "none",
        excludeCredentials: params.excludeCredentials,
        // A passkey is a discoverable credential: sign-in starts with no user name at all.
        authenticatorSelection: { residentKey: "required", userVerification: params.userVerification },
      })
      return options as unknown as Record<string, unknown>
    },

    async verifyRegistration({ rp, challenge, response, requireUserVerification }): Promise<RegisteredCredential> {
      const { server, helpers } = await webauthnLibrary()
      const shaped = responseShape<RegistrationResponseJSON>(response)
      let result
      try {
        result = await server.verifyRegistrationResponse({ response: shaped, expectedChallenge: challenge, ...expected(rp), requireUserVerification })
      } catch (error) {
        throw verificationFailed("registration", error)
      }
      if (!result.verified) throw verificationFailed("registration", UNVERIFIED)
      const { credential, credentialDeviceType, credentialBackedUp, userVerified } = result.registrationInfo
      return {
        id: credential.id,
        publicKey: helpers.isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
        userVerified,
      }
    },

    async authenticationOptions(params) {
      const library = await webauthnLibrary()
      const options = await library.server.generateAuthenticationOptions({
        rpID: params.rp.id,
        challenge: bytesOf(library, params.challenge, "challenge"),
        timeout: params.timeout,
        userVerification: params.userVerification,
      })
      return options as unknown as Record<string, unknown>
    },

    async verifyAuthentication({ rp, challenge, response, credential, requireUserVerification }): Promise<VerifiedAssertion> {
      const library = await webauthnLibrary()
      const shaped = responseShape<AuthenticationResponseJSON>(response)
      if (shaped.id !== credential.id) throw new WebAuthnError("invalid_response", "The assertion names another credential than the one it is verified against.")
      let result
      try {
        result = await library.server.verifyAuthenticationResponse({
          response: shaped,
          expectedChallenge: challenge,
          ...expected(rp),
          // The counter is compared by the caller, which knows what to log and refuse; 0 turns the library's own check off.
          credential: { id: credential.id, publicKey: bytesOf(library, credential.publicKey, "public key"), counter: 0, transports: credential.transports as never },
          requireUserVerification,
        })
      } catch (error) {
        throw verificationFailed("authentication", error)
      }
      if (!result.verified) throw verificationFailed("authentication", UNVERIFIED)
      const info = result.authenticationInfo
      return { credentialId: info.credentialID, counter: info.newCounter, userVerified: info.userVerified, backedUp: info.credentialBackedUp, deviceType: info.credentialDeviceType }
    },
  }
}
