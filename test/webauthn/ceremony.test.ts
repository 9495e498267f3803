// The ceremony object of latchkey/webauthn on its own, with real recorded responses (an Ed25519 key
// and an ES256 key from Chromium's virtual authenticator): options, verification, and the typed
// refusals, whose messages name the rule without quoting the challenge or the response.
import { describe, expect, it } from "vitest"
import { WebAuthnError } from "../../src/errors.js"
import { webauthn } from "../../src/webauthn/index.js"
import { copy, fixtures } from "./support.js"

const rp = { id: fixtures.rpId, name: "fixtures", origins: [fixtures.origin] }
const { ada, grace } = fixtures.registrations

async function refusal(promise: Promise<unknown>): Promise<WebAuthnError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught
  )
  expect(error).toBeInstanceOf(WebAuthnError)
  return error as WebAuthnError
}

describe("latchkey/webauthn ceremony", () => {
  it("builds registration options for a discoverable credential with the given challenge and random handle", async () => {
    const options = await webauthn.registrationOptions({
      rp,
      challenge: ada.challenge,
      userHandle: "dXNlciBoYW5kbGU",
      userName: "ada@example.com",
      userDisplayName: "Ada",
      excludeCredentials: [{ id: grace.response.id, transports: ["internal"] }],
      userVerification: "required",
      timeout: 60_000,
    })
    expect(options).toMatchObject({
      challenge: ada.challenge,
      rp: { id: "localhost", name: "fixtures" },
      user: { id: "dXNlciBoYW5kbGU", name: "ada@example.com", displayName: "Ada" },
      attestation: "none",
      timeout: 60_000,
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
      excludeCredentials: [{ id: grace.response.id, type: "public-key", transports: ["internal"] }],
    })
  })

  it.each([
    ["Ed25519", "ada"],
    ["ES256", "grace"],
  ] as const)("verifies a real %s registration and returns the credential", async (_alg, who) => {
    const recorded = fixtures.registrations[who]
    const created = await webauthn.verifyRegistration({ rp, challenge: recorded.challenge, response: recorded.response, requireUserVerification: true })
    expect(created).toMatchObject({ id: recorded.response.id, counter: 1, transports: ["internal"], deviceType: "singleDevice", backedUp: false, userVerified: true })
    expect(created.publicKey).toMatch(/^[A-Za-z0-9_-]+$/)
  })

  it("verifies real assertions against the registered key, and reports their counters", async () => {
    const created = await webauthn.verifyRegistration({ rp, challenge: ada.challenge, response: ada.response, requireUserVerification: true })
    const credential = { id: created.id, publicKey: created.publicKey, counter: 1 }
    const first = await webauthn.verifyAuthentication({ rp, challenge: fixtures.assertions.ada1.challenge, response: fixtures.assertions.ada1.response, credential, requireUserVerification: true })
    expect(first).toEqual({ credentialId: ada.response.id, counter: 2, userVerified: true, backedUp: false, deviceType: "singleDevice" })
    const second = await webauthn.verifyAuthentication({ rp, challenge: fixtures.assertions.ada2.challenge, response: fixtures.assertions.ada2.response, credential, requireUserVerification: true })
    expect(second.counter).toBe(3)
  })

  it("refuses another challenge, origin or RP ID by rule, without quoting the challenge", async () => {
    const other = Buffer.from("another challenge").toString("base64url")
    const cases: [Parameters<typeof webauthn.verifyRegistration>[0], RegExp][] = [
      [{ rp, challenge: other, response: ada.response, requireUserVerification: true }, /answers another challenge/],
      [{ rp: { ...rp, origins: ["https://app.example.com"] }, challenge: ada.challenge, response: ada.response, requireUserVerification: true }, /origin this app does not accept/],
      [{ rp: { ...rp, id: "example.com" }, challenge: ada.challenge, response: ada.response, requireUserVerification: true }, /another RP ID/],
    ]
    for (const [params, rule] of cases) {
      const error = await refusal(webauthn.verifyRegistration(params))
      expect(error.reason).toBe("verification_failed")
      expect(error.message).toMatch(rule)
      expect(error.message).not.toContain(other)
      expect(error.message).not.toContain(ada.challenge)
    }
  })

  it("refuses an assertion signed by another key, and one naming another credential", async () => {
    const created = await webauthn.verifyRegistration({ rp, challenge: ada.challenge, response: ada.response, requireUserVerification: true })
    const forged = copy(fixtures.assertions.grace1.response)
    forged.id = forged.rawId = ada.response.id
    const error = await refusal(
      webauthn.verifyAuthentication({ rp, challenge: fixtures.assertions.grace1.challenge, response: forged, credential: { id: created.id, publicKey: created.publicKey, counter: 0 }, requireUserVerification: true })
    )
    expect([error.reason, error.message]).toEqual(["verification_failed", "The passkey authentication did not verify: the signature does not verify against the stored public key."])
    const mismatch = await refusal(
      webauthn.verifyAuthentication({ rp, challenge: fixtures.assertions.grace1.challenge, response: fixtures.assertions.grace1.response, credential: { id: created.id, publicKey: created.publicKey, counter: 0 }, requireUserVerification: true })
    )
    expect(mismatch.reason).toBe("invalid_response")
  })

  it("refuses what is not a credential in its JSON form", async () => {
    for (const response of [null, "text", { id: 1 }, { id: "x" }, [], { id: "x", response: "y" }]) {
      const error = await refusal(webauthn.verifyRegistration({ rp, challenge: ada.challenge, response, requireUserVerification: true }))
      expect(error.reason).toBe("invalid_response")
    }
  })
})
