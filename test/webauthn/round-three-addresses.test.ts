// Round three, item 4: the address rules a passkey sign-up and an email sign-in share. An attacker
// who knows a user's address tries to sign up with a passkey under an address that looks the same
// (an invisible character in it, fullwidth letters that NFKC-fold onto it, a look-alike "@"), so
// the app would show, mail or link a second user that reads as the first. Each is driven through
// createAuth's handler as the served script drives it.
import { describe, expect, it } from "vitest"
import { challengeCookieName } from "../../src/webauthn/challenge.js"
import Passkey from "../../src/providers/passkey.js"
import type { EmailConfig } from "../../src/providers/types.js"
import { ORIGIN, passkeyApp, signUp } from "./support.js"

/** An email provider whose sender records each recipient, with the app's own normaliser if given. */
function mailbox(normalizeIdentifier?: (raw: string) => string) {
  const sent: string[] = []
  const provider: EmailConfig = {
    id: "email",
    name: "Email",
    type: "email",
    from: "auth@example.com",
    sendVerificationRequest: ({ identifier }) => void sent.push(identifier),
    ...(normalizeIdentifier ? { normalizeIdentifier } : {}),
  }
  return { provider, sent }
}

/** Asks for sign-up options for `email` in a fresh browser: status, body, and whether a challenge was issued. */
async function signUpOptions(app: ReturnType<typeof passkeyApp>, email: string) {
  const browser = app.browser()
  const { response } = await browser.open(`${ORIGIN}/auth/webauthn-options/passkey?action=register&email=${encodeURIComponent(email)}`)
  return { status: response.status, body: (await response.json()) as Record<string, any>, challenged: browser.cookies(ORIGIN).has(challengeCookieName(false)) }
}

/** Asks for a magic link for `email` through the sign-in form. */
async function requestLink(app: ReturnType<typeof passkeyApp>, email: string) {
  const browser = app.browser()
  const { response: csrf } = await browser.open(`${ORIGIN}/auth/csrf`)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  await browser.open(`${ORIGIN}/auth/signin/email`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email }).toString(),
  })
}

/** The `normalizeIdentifier` Auth.js's email docs suggest: keeps the text around the first "@", and drops a second recipient. */
const AUTHJS_DOCS_NORMALIZER = (identifier: string) => {
  const [local, domain = ""] = identifier.toLowerCase().trim().split("@")
  return `${local}@${domain.split(",")[0]}`
}

const INVISIBLE = {
  "a zero-width space": "ada\u200b@example.com",
  "a zero-width joiner": "ad\u200da@example.com",
  "a soft hyphen": "ada\u00ad@example.com",
  "a word joiner in the domain": "ada@exam\u2060ple.com",
  "a right-to-left override": "\u202eada@example.com",
}

const FOLDING = {
  "fullwidth letters": "\uff41\uff44\uff41@example.com",
  "a fullwidth domain": "ada@\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com",
  "fullwidth capitals": "\uff21\uff24\uff21@EXAMPLE.COM",
  "mathematical bold letters": "\u{1d41a}\u{1d41d}\u{1d41a}@example.com",
}

describe("passkey sign-up refuses an address that looks like an existing user's", () => {
  it.each(Object.entries(INVISIBLE))("with %s: InvalidEmail, no challenge, no user", async (_, email) => {
    const app = passkeyApp()
    await signUp(app.browser(), "ada")
    const answer = await signUpOptions(app, email)
    expect([answer.status, answer.body], email).toEqual([400, { error: "InvalidEmail" }])
    expect(answer.challenged).toBe(false)
    expect([...app.adapter.users.values()].map((user) => user.email)).toEqual(["ada@example.com"])
  })

  it.each(Object.entries(FOLDING))("with %s that NFKC-fold onto it: AccountExists, no challenge", async (_, email) => {
    const app = passkeyApp()
    await signUp(app.browser(), "ada")
    const answer = await signUpOptions(app, email)
    expect([answer.status, answer.body], email).toEqual([409, { error: "AccountExists" }])
    expect(answer.challenged).toBe(false)
  })

  it("a folded address with no user is registered as its folded form", async () => {
    const app = passkeyApp()
    const answer = await signUpOptions(app, FOLDING["fullwidth letters"])
    expect(answer.status).toBe(200)
    expect(answer.body.options.user.name).toBe("ada@example.com")
  })

  it("a look-alike @ beside a real one is refused (InvalidEmail), with the default rules and with the app's normaliser", async () => {
    const apps = [passkeyApp(), passkeyApp({ providers: [Passkey({ allowSignUp: true }), mailbox(AUTHJS_DOCS_NORMALIZER).provider] })]
    for (const app of apps) {
      for (const email of ["ada\uff20example.com@evil.example", "ada\ufe6bexample.com@evil.example"]) {
        const answer = await signUpOptions(app, email)
        expect([answer.status, answer.body], email).toEqual([400, { error: "InvalidEmail" }])
        expect(answer.challenged).toBe(false)
      }
    }
  })

  it("uses the email provider's own normaliser, as email sign-in does, so both sign-ups meet at one address", async () => {
    // The app folds "+tags" away for email sign-in; a passkey sign-up with a tagged address is that user too.
    const { provider } = mailbox((raw) => raw.trim().toLowerCase().replace(/\+[^@]*@/, "@"))
    const app = passkeyApp({ providers: [Passkey({ allowSignUp: true }), provider] })
    await signUp(app.browser(), "ada")
    const answer = await signUpOptions(app, "Ada+again@example.com")
    expect([answer.status, answer.body]).toEqual([409, { error: "AccountExists" }])
  })
})

describe("email sign-in applies the same rules", () => {
  it.each(Object.entries(INVISIBLE))("with %s: no link is sent", async (_, email) => {
    const { provider, sent } = mailbox()
    const app = passkeyApp({ providers: [provider] })
    await requestLink(app, email)
    expect(sent).toEqual([])
  })

  it.each(Object.entries(FOLDING))("with %s: the link goes to the folded address, the user's own", async (_, email) => {
    const { provider, sent } = mailbox()
    const app = passkeyApp({ providers: [provider] })
    await requestLink(app, email)
    expect(sent).toEqual(["ada@example.com"])
  })

  it("a look-alike @ beside a real one: no link is sent, not even to the domain after the real @", async () => {
    const { provider, sent } = mailbox()
    const app = passkeyApp({ providers: [provider] })
    await requestLink(app, "ada\uff20example.com@evil.example")
    // With the normaliser Auth.js's docs show, which keeps what is around the first "@": it never sees the address.
    const custom = mailbox(AUTHJS_DOCS_NORMALIZER)
    await requestLink(passkeyApp({ providers: [custom.provider] }), "ada\uff20example.com@evil.example")
    expect([...sent, ...custom.sent]).toEqual([])
  })
})
