// Passkey sign-up takes an address nobody proves. Any other way that later signs the address's owner
// in to the user someone else created with it hands that user over with the stranger's passkey still
// on it. The start-up warning named only an email provider; a fourth outside review found the same
// through a password reset with `allowLinkingToExistingUser` and through
// `allowDangerousEmailAccountLinking`. Each combination is warned about now, naming what joins.
import { describe, expect, it } from "vitest"
import Passkey from "../../src/providers/passkey.js"
import Password from "../../src/providers/password.js"
import { passwords } from "../../src/passwords/index.js"
import { passkeyApp } from "./support.js"

const corp = (allowDangerousEmailAccountLinking: boolean) => ({ id: "corp", name: "Corp", type: "oidc" as const, issuer: "https://idp.example.com", clientId: "app", clientSecret: "secret", allowDangerousEmailAccountLinking })
const magic = { id: "email", type: "email" as const, name: "Email", sendVerificationRequest: async () => {} }
const password = (allowLinkingToExistingUser: boolean) => Password({ allowLinkingToExistingUser, sendEmail: () => {} })

function warned(providers: unknown[]): string[] {
  const { warnings } = passkeyApp({ providers: [Passkey({ allowSignUp: true }), ...providers] as never, passwords })
  return warnings.filter((warning) => warning.code === "WEBAUTHN_SIGN_UP_UNVERIFIED_EMAIL").map((warning) => warning.message)
}

describe("WEBAUTHN_SIGN_UP_UNVERIFIED_EMAIL", () => {
  it("names each way that signs an address's owner in to a user a passkey sign-up made", () => {
    expect(warned([magic])).toEqual([expect.stringContaining('provider "email"')])
    expect(warned([password(true)])).toEqual([expect.stringContaining('provider "password"')])
    expect(warned([corp(true)])).toEqual([expect.stringContaining('provider "corp"')])
  })

  it("stays quiet when nothing joins by address", () => {
    expect(warned([password(false), corp(false)])).toEqual([])
  })
})
