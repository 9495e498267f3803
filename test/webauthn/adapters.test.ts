// Passkeys on the Auth.js adapters latchkey is tested against (test/adapters/matrix.ts), each on
// its documented tables: sign-up writes the user, the webauthn account and the authenticator in the
// form Auth.js writes them; sign-in reads them back, checks and updates the counter, with database
// sessions. An adapter without the authenticator methods is refused at start-up, by name. Entries
// whose server does not answer here are skipped with the reason printed.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MissingAdapterMethodError } from "../../src/errors.js"
import { createAuth } from "../../src/handler/index.js"
import Passkey from "../../src/providers/passkey.js"
import { webauthn } from "../../src/webauthn/index.js"
import { adapterMatrix, type AdapterStore, type MatrixEntry } from "../adapters/matrix.js"
import { fixtures, passkeyApp, SECRET, sessionOf, signIn, signOut, signUp } from "./support.js"

const AUTHENTICATOR_METHODS = ["getAuthenticator", "createAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter", "getAccount"] as const
const ada = fixtures.registrations.ada
const credentialID = Buffer.from(ada.response.id, "base64url").toString("base64")

const reasons = await Promise.all(adapterMatrix.map((entry) => entry.skipReason()))
for (const [index, entry] of adapterMatrix.entries()) {
  const reason = reasons[index]
  if (reason !== undefined) console.warn(`[passkey adapters] skipping ${entry.name}: ${reason}`)
  describe.skipIf(reason !== undefined)(reason === undefined ? entry.name : `${entry.name} (skipped: ${reason})`, () => passkeysOn(entry))
}

it("covers every adapter of the matrix", () => {
  expect(adapterMatrix.length).toBeGreaterThan(0)
})

function passkeysOn(entry: MatrixEntry): void {
  let store: AdapterStore | undefined
  // PGlite compiles PostgreSQL to WebAssembly at start-up: seconds, many more on a loaded machine.
  beforeAll(async () => {
    store = await entry.setup()
  }, 90_000)
  afterAll(async () => {
    await store?.teardown()
  })

  it("signs up and signs in with a passkey, or is refused at start-up for lacking the authenticator methods", async () => {
    const adapter = store!.adapter
    const missing = AUTHENTICATOR_METHODS.filter((method) => typeof adapter[method] !== "function")
    if (missing.length > 0) {
      console.warn(`[passkey adapters] ${entry.name} has no ${missing.join(", ")}: createAuth refuses it for passkeys`)
      expect(() => createAuth({ providers: [Passkey], adapter, webauthn, secret: SECRET, env: {} })).toThrow(MissingAdapterMethodError)
      return
    }
    const app = passkeyApp({ adapter }, "database")
    const browser = app.browser()
    await signUp(browser, "ada")
    const stored = await adapter.getAuthenticator!(credentialID)
    expect(stored).toMatchObject({ credentialID, providerAccountId: credentialID, counter: 1, credentialBackedUp: false, credentialDeviceType: "singleDevice", transports: "internal" })
    const account = await adapter.getAccount!(credentialID, "passkey")
    expect(account).toMatchObject({ provider: "passkey", type: "webauthn", providerAccountId: credentialID, userId: stored!.userId })
    await signOut(browser)
    expect((await signIn(browser, "ada1")).status).toBe(200)
    expect((await sessionOf(browser))?.user?.email).toBe("ada@example.com")
    expect((await adapter.getAuthenticator!(credentialID))!.counter).toBe(2)
  }, 60_000)
}
