// Pre-hijacking through a password sign-up (issue #28, "an unverified address never takes over a
// verified one"): the attacker signs up with the victim's address and a password of their own,
// never verifies it (they cannot read the victim's mail), and waits. The victim later signs in
// with a real OpenID provider that vouches for the address. Whatever the app's linking settings,
// the attacker's password must not open the account the victim then uses, even after the victim
// follows the "verify your email" link the attacker's sign-up put in their inbox.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { OIDCConfig } from "../../src/providers/types.js"
import { TestBrowser } from "../servers/browser.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { linksIn, ORIGIN, passwordApp, pathOf, PW, reset, resetLink, signIn, STRATEGIES } from "./password-support.js"

const VICTIM = { sub: "victim-sub", email: "victim@example.com", name: "Victim" }
let idp: OidcServer

beforeAll(async () => {
  idp = await startOidcServer({
    accounts: [VICTIM],
    clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${ORIGIN}/auth/callback/corp`], grant_types: ["authorization_code"] }],
  })
})
afterAll(() => idp?.close())

const corp = (dangerous: boolean): OIDCConfig => ({
  id: "corp",
  name: "Corp",
  type: "oidc",
  issuer: idp.issuer,
  clientId: "app",
  clientSecret: "app-secret",
  authorization: { params: { scope: "openid email profile" } },
  allowDangerousEmailAccountLinking: dangerous,
})

for (const strategy of STRATEGIES) {
  describe(`pre-hijacking by password sign-up (${strategy} sessions)`, () => {
    for (const [label, dangerous, provider] of [
      ["default linking", false, {}],
      ["allowDangerousEmailAccountLinking on the OAuth provider", true, {}],
      ["and allowLinkingToExistingUser on Password", true, { allowLinkingToExistingUser: true }],
    ] as const) {
      it(`${label}: the attacker's unverified password never opens the victim's account`, async () => {
        const app = passwordApp({ strategy, providers: [corp(dangerous)], provider })
        const dispatch: typeof fetch = async (input, init) => {
          const url = new URL(String(input))
          if (url.origin === ORIGIN) return url.pathname.startsWith("/auth") ? app.handler(new Request(url, init as RequestInit)) : new Response(`app page ${url.pathname}`)
          return fetch(input, init)
        }
        // The attacker signs up with the victim's address and never follows the link.
        const attacker = app.browser()
        expect((await attacker.post("/auth/password/sign-up", { email: VICTIM.email, password: PW.eve })).status).toBe(200)
        // The victim signs in with Corp, which vouches for the address.
        const victim = new TestBrowser(undefined, dispatch)
        const { response: csrfAnswer } = await victim.open(`${ORIGIN}/auth/csrf`)
        const { csrfToken } = (await csrfAnswer.json()) as { csrfToken: string }
        idp.signInAs(VICTIM.sub)
        await victim.open(`${ORIGIN}/auth/signin/corp`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken }).toString() })
        const { response: sessionAnswer } = await victim.open(`${ORIGIN}/auth/session`)
        const session = (await sessionAnswer.json()) as { user?: { email?: string } } | null
        // The victim, now using the app, follows the "verify your email" link that sits in their inbox.
        for (const mail of app.mailbox.filter((mail) => mail.to === VICTIM.email)) for (const link of linksIn(mail)) await app.browser().open(pathOf(link))
        // The victim may be refused (OAuthAccountNotLinked) or signed in; either way the attacker is out.
        const { response } = await signIn(app, VICTIM.email, PW.eve)
        // With default linking the victim is refused (OAuthAccountNotLinked), and the attacker holds an
        // account with no trace of the victim's; what must never happen is the victim's identity in it.
        const victimsUser = await app.adapter.getUserByAccount!({ provider: "corp", providerAccountId: VICTIM.sub })
        const attackerIn = response.status === 200
        expect({ victimSignedIn: session?.user?.email === VICTIM.email, attackerInTheVictimsAccount: attackerIn && victimsUser !== null }).toMatchObject({ attackerInTheVictimsAccount: false })
        // The account the victim uses holds no password the attacker chose.
        if (victimsUser) expect(await app.adapter.getUserPassword!(victimsUser.id)).toBeFalsy()
      })
    }
  })
}

// The same pre-hijack through a magic link: the victim signs in with the app's email provider, which
// proves the address (and, as in Auth.js, marks it verified). Without the defence the attacker's
// unverified password then opens the verified account the victim now uses.
for (const strategy of STRATEGIES) {
  it(`pre-hijacking by password sign-up, then a magic link (${strategy} sessions): the attacker's password goes`, async () => {
    const links: string[] = []
    const magic = { id: "email", type: "email" as const, name: "Email", sendVerificationRequest: async ({ url }: { url: string }) => void links.push(url) }
    const app = passwordApp({ strategy, providers: [magic] as never, provider: { requireEmailVerification: false } })
    const attacker = app.browser()
    expect((await attacker.post("/auth/password/sign-up", { email: VICTIM.email, password: PW.eve })).status).toBe(200)
    // With verification off, the attacker holds a session on the squatted account; the victim's link must end it.
    const squatter = await signIn(app, VICTIM.email, PW.eve)
    expect(squatter.response.status).toBe(200)
    const victim = app.browser()
    await victim.post("/auth/signin/email", { email: VICTIM.email })
    expect(links).toHaveLength(1)
    await victim.open(pathOf(new URL(links[0]!)))
    const user = await app.adapter.getUserByEmail!(VICTIM.email)
    expect(user?.emailVerified).toBeTruthy()
    expect(await app.adapter.getUserPassword!(user!.id)).toBeFalsy()
    expect((await signIn(app, VICTIM.email, PW.eve)).response.status).not.toBe(200)
    // The session the squatter opened before the victim proved the address is over too.
    expect(await (await squatter.browser.open("/auth/session")).json()).toBeNull()
  })
}

// The same with verification off and an OAuth provider trusted to link by address: the victim's
// sign-in joins the squatted account, which voids the squatter's password; the session the squatter
// opened with it must end there too (complete-sign-in.ts: a voided password revokes its sessions).
for (const strategy of STRATEGIES) {
  it(`pre-hijacking with verification off, then the victim's OAuth sign-in joins by address (${strategy} sessions): the squatter's session ends`, async () => {
    const app = passwordApp({ strategy, providers: [corp(true)], provider: { requireEmailVerification: false } })
    const dispatch: typeof fetch = async (input, init) => {
      const url = new URL(String(input))
      if (url.origin === ORIGIN) return url.pathname.startsWith("/auth") ? app.handler(new Request(url, init as RequestInit)) : new Response(`app page ${url.pathname}`)
      return fetch(input, init)
    }
    expect((await app.browser().post("/auth/password/sign-up", { email: VICTIM.email, password: PW.eve })).status).toBe(200)
    const squatter = await signIn(app, VICTIM.email, PW.eve)
    expect(squatter.response.status).toBe(200)
    const victim = new TestBrowser(undefined, dispatch)
    const { response: csrfAnswer } = await victim.open(`${ORIGIN}/auth/csrf`)
    const { csrfToken } = (await csrfAnswer.json()) as { csrfToken: string }
    idp.signInAs(VICTIM.sub)
    await victim.open(`${ORIGIN}/auth/signin/corp`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken }).toString() })
    // The victim's Corp account joined the squatted user, and its password is gone.
    const user = await app.adapter.getUserByAccount!({ provider: "corp", providerAccountId: VICTIM.sub })
    expect(user?.email).toBe(VICTIM.email)
    expect(await app.adapter.getUserPassword!(user!.id)).toBeFalsy()
    expect(await (await squatter.browser.open("/auth/session")).json()).toBeNull()
  })
}

// A fourth outside review: with verification off, the squatter's session can add other ways in (a
// passkey, their own OAuth account) before the victim proves the address. Voiding the password and
// the sessions left those: the squatter signed back in with them. They go with the password now,
// whether the victim proves the address by a magic link or by a reset.
for (const strategy of STRATEGIES) {
  for (const proof of ["magic link", "reset"] as const) {
    it(`pre-hijacking with verification off, then a ${proof} (${strategy} sessions): the passkeys and accounts the squatter added go too`, async () => {
      const links: string[] = []
      const magic = { id: "email", type: "email" as const, name: "Email", sendVerificationRequest: async ({ url }: { url: string }) => void links.push(url) }
      const app = passwordApp({ strategy, providers: [magic] as never, provider: { requireEmailVerification: false } })
      expect((await app.browser().post("/auth/password/sign-up", { email: VICTIM.email, password: PW.eve })).status).toBe(200)
      const squatted = (await app.adapter.getUserByEmail!(VICTIM.email))!
      // What the squatter's session could add: their own OAuth account, and a passkey with its account row.
      await app.adapter.linkAccount!({ userId: squatted.id, type: "oidc", provider: "corp", providerAccountId: "eve-sub" })
      await app.adapter.linkAccount!({ userId: squatted.id, type: "webauthn", provider: "passkey", providerAccountId: "eve-credential" })
      await app.adapter.createAuthenticator!({ userId: squatted.id, providerAccountId: "eve-credential", credentialID: "eve-credential", credentialPublicKey: "AA", counter: 0, credentialDeviceType: "singleDevice", credentialBackedUp: false, transports: "internal" })
      const victim = app.browser()
      if (proof === "magic link") {
        await victim.post("/auth/signin/email", { email: VICTIM.email })
        await victim.open(pathOf(new URL(links[0]!)))
      } else {
        await reset(victim, await resetLink(app, VICTIM.email, victim), PW.fresh)
      }
      const user = (await app.adapter.getUserByEmail!(VICTIM.email))!
      expect(user.id).toBe(squatted.id)
      expect(user.emailVerified).toBeTruthy()
      expect(await app.adapter.getUserByAccount!({ provider: "corp", providerAccountId: "eve-sub" })).toBeNull()
      expect(await app.adapter.getAuthenticator!("eve-credential")).toBeNull()
      expect(await app.adapter.listAccountsByUserId!(user.id)).toEqual([])
    })
  }
}

// A mutation probe: the squatter's sessions ended at the victim's reset only because the default
// `revokeSessionsOnReset: true` ends every session. An app that turned it off keeps its users'
// other sessions at a reset, but never the squatter's: the reset proved the address was not theirs.
for (const strategy of STRATEGIES) {
  it(`pre-hijacking with verification off and revokeSessionsOnReset: false, then a reset (${strategy} sessions): the squatter's session ends`, async () => {
    const app = passwordApp({ strategy, provider: { requireEmailVerification: false, revokeSessionsOnReset: false } })
    expect((await app.browser().post("/auth/password/sign-up", { email: VICTIM.email, password: PW.eve })).status).toBe(200)
    const squatter = await signIn(app, VICTIM.email, PW.eve)
    expect((await squatter.browser.session())?.user?.email).toBe(VICTIM.email)
    const victim = app.browser()
    expect((await reset(victim, await resetLink(app, VICTIM.email, victim), PW.fresh)).status).toBe(200)
    expect((await victim.session())?.user?.email).toBe(VICTIM.email)
    expect(await squatter.browser.session()).toBeNull()
    expect((await signIn(app, VICTIM.email, PW.eve)).response.status).not.toBe(200)
  })
}
