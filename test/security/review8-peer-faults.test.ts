// Review 8: faults publicly reported against better-auth (advisories, CVEs, issues), each tried
// against latchkey through createAuth(...).handler with browser-like cookie jars. Each describe
// names the defence checked and cites the report it is modelled on. A test asserts the SAFE
// behaviour: one that fails is a finding. Each test owns its app, adapter and browsers.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import type { OIDCConfig } from "../../src/providers/types.js"
import { rateLimits } from "../../src/rate-limits/index.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import Password from "../../src/providers/password.js"
import { account, linkTo, linksIn, ORIGIN, passwordApp, pathOf, PLUG_IN, PW, shape, signIn, type Mail } from "./password-support.js"
import { csrfOf, post, secureApp, sessionOf } from "./support.js"

let count = 0
const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`
const fresh = (name: string, domain = "example.com") => `${name}${++count}${tag}@${domain}`
const mailsTo = (mailbox: Mail[], to: string, kind?: string) => mailbox.filter((mail) => mail.to === to && (kind === undefined || (mail as Mail & { kind?: string }).kind === kind))

// ---------------------------------------------------------------------------------------------
// GHSA-569q-mpph-wgww (better-auth < 1.4.2): with no baseURL pinned, the request's host decided
// the URLs the app built. Here: with AUTH_URL pinned, no Host or X-Forwarded-Host moves a mailed link.
describe("mailed links are built on AUTH_URL, never on the request's host headers (GHSA-569q-mpph-wgww)", () => {
  for (const headers of [{ "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" }, { host: "evil.example" }, { "x-forwarded-host": "evil.example, app.example.com" }] as Record<string, string>[]) {
    it(`forgot and sign-up with ${JSON.stringify(headers)} under trustHost: true mail links on ${ORIGIN}`, async () => {
      const app = passwordApp({ strategy: "jwt", config: { trustHost: true } })
      const ada = fresh("ada")
      await account(app, ada, PW.ada)
      const attacker = app.browser(headers)
      await attacker.post("/auth/password/forgot", { email: ada })
      const bob = fresh("bob")
      await attacker.post("/auth/password/sign-up", { email: bob, password: PW.bob })
      const links = [...mailsTo(app.mailbox, ada), ...mailsTo(app.mailbox, bob)].flatMap((mail) => [...mail.text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((match) => new URL(match[0])))
      expect(links.length).toBeGreaterThanOrEqual(3)
      for (const link of links) expect(link.origin).toBe(ORIGIN)
    })
  }
})

// ---------------------------------------------------------------------------------------------
// https://github.com/better-auth/better-auth/issues/7196: a change of address confirmed from the
// old mailbox moved the account at once, so a typo in the new address handed the account to that
// mailbox's owner (its verification link or a forgot-password then took it over).
describe("a mistyped new address never receives the account (better-auth#7196)", () => {
  it("the typo mailbox's owner, signed out or signed in to an account of their own, cannot complete the change, nor reset the account from it", async () => {
    const app = passwordApp({ strategy: "database" })
    const ada = fresh("ada")
    const typo = ada.replace("ada", "adaa")
    const adaBrowser = await account(app, ada, PW.ada)
    expect((await adaBrowser.post("/auth/password/change-email", { newEmail: typo, password: PW.ada })).status).toBe(200)
    const link = linkTo(app.mailbox, typo, "confirm-email")

    // The typo mailbox's owner opens it signed out: asked to sign in, nothing moves.
    const stranger = app.browser()
    const opened = await stranger.request(pathOf(link))
    expect(opened.status).toBe(302)
    expect(new URL(opened.headers.get("location")!).pathname).toBe("/auth/signin")
    expect(await stranger.session()).toBeNull()

    // ... and signed in to an account of their own: still nothing moves, and they stay who they were.
    const eve = fresh("eve", "evil.example")
    const eveBrowser = await account(app, eve, PW.eve)
    await eveBrowser.request(pathOf(link))
    expect((await eveBrowser.session())?.user?.email).toBe(eve)

    // ... and the forgot flow for the typo address mails nothing that resets Ada.
    const before = app.mailbox.length
    await app.browser().post("/auth/password/forgot", { email: typo })
    expect(app.mailbox.slice(before).filter((mail) => mail.to === typo)).toEqual([])

    expect((await app.adapter.getUserByEmail!(typo))).toBeNull()
    expect((await app.adapter.getUserByEmail!(ada))?.email).toBe(ada)
    expect((await signIn(app, ada, PW.ada)).response.status).toBe(200)
    // The link is still Ada's to use: nothing was spent by the stranger's visits.
    await adaBrowser.request(pathOf(link))
    expect((await adaBrowser.session())?.user?.email).toBe(typo)
  })
})

// ---------------------------------------------------------------------------------------------
// https://github.com/better-auth/better-auth/issues/9479: change-of-address tokens were stateless
// JWTs, usable again until they expired, each use repeating the change's side effects.
describe("a change-of-address link works once (better-auth#9479)", () => {
  it("opened twice in the account's own session: the second is InvalidToken, and the change (and its event) happened once", async () => {
    let updates = 0
    const app = passwordApp({ strategy: "jwt", config: { events: { updateUser: () => void updates++ } } })
    const ada = fresh("ada")
    const moved = fresh("moved")
    const browser = await account(app, ada, PW.ada)
    const updatesBefore = updates
    await browser.post("/auth/password/change-email", { newEmail: moved, password: PW.ada })
    const link = linkTo(app.mailbox, moved, "confirm-email")
    const first = await browser.request(pathOf(link))
    expect(first.status).toBe(302)
    expect((await browser.session())?.user?.email).toBe(moved)
    const mailsBefore = app.mailbox.length
    const second = await browser.request(pathOf(link))
    expect(new URL(second.headers.get("location") ?? "https://x.invalid/").searchParams.get("error")).toBe("InvalidToken")
    expect(updates - updatesBefore).toBe(1)
    expect(app.mailbox.length).toBe(mailsBefore)
  })
})

// ---------------------------------------------------------------------------------------------
// https://github.com/better-auth/better-auth/issues/136 (Bekacru, 2024-10-18): "if email isn't
// verified the email will be changed in place without requiring verification process".
describe("an unverified user's change of address still waits for the new mailbox (better-auth#136)", () => {
  it("with verification off (signed in unverified), change-email moves nothing until the link is followed", async () => {
    const app = passwordApp({ strategy: "jwt", provider: { requireEmailVerification: false } })
    const ada = fresh("ada")
    const browser = app.browser()
    await browser.post("/auth/password/sign-up", { email: ada, password: PW.ada })
    expect((await browser.session())?.user?.email).toBe(ada)
    const someoneElse = fresh("someone", "elsewhere.example")
    expect((await browser.post("/auth/password/change-email", { newEmail: someoneElse, password: PW.ada })).status).toBe(200)
    expect((await browser.session())?.user?.email).toBe(ada)
    expect(await app.adapter.getUserByEmail!(someoneElse)).toBeNull()
    expect((await app.adapter.getUserByEmail!(ada))?.email).toBe(ada)
  })
})

// ---------------------------------------------------------------------------------------------
// https://github.com/better-auth/better-auth/issues/7972 (sign-up answering 422 for a taken
// address): the same oracle, tried on change-email, which also takes an address of the caller's choosing.
describe("change-email answers a taken and a free address alike (better-auth#7972)", () => {
  it("the answer to a change towards another user's address is byte for byte the answer towards a free one", async () => {
    const app = passwordApp({ strategy: "jwt" })
    const ada = fresh("ada")
    const bob = fresh("bob")
    await account(app, bob, PW.bob)
    const browser = await account(app, ada, PW.ada)
    const taken = await shape(await browser.post("/auth/password/change-email", { newEmail: bob, password: PW.ada }))
    const free = await shape(await browser.post("/auth/password/change-email", { newEmail: fresh("free"), password: PW.ada }))
    expect(taken).toEqual(free)
    // Form posts too.
    const takenForm = await shape(await browser.post("/auth/password/change-email", { newEmail: bob, password: PW.ada }, { form: true }))
    const freeForm = await shape(await browser.post("/auth/password/change-email", { newEmail: fresh("free"), password: PW.ada }, { form: true }))
    expect(takenForm).toEqual(freeForm)
  })
})

// ---------------------------------------------------------------------------------------------
// https://github.com/better-auth/better-auth/issues/11023: a verification code keyed by address
// let the address's real owner, signing up second, verify (and sign in to) the squatter's user.
describe("the owner who signs up second never verifies the squatter's user (better-auth#11023)", () => {
  it("the owner's own sign-up, the link in their mailbox, and their own password on it leave the squatter unverified and locked out", async () => {
    const app = passwordApp({ strategy: "jwt" })
    const victim = fresh("victim")
    const squatter = app.browser()
    await squatter.post("/auth/password/sign-up", { email: victim, password: PW.eve })
    const owner = app.browser()
    await owner.post("/auth/password/sign-up", { email: victim, password: PW.ada })
    // Every link the owner's mailbox holds, opened in the owner's browser, then confirmed with the owner's password.
    for (const mail of mailsTo(app.mailbox, victim)) {
      for (const link of linksIn(mail)) {
        await owner.open(pathOf(link))
        if (link.pathname.endsWith("/password/verify-email")) {
          await owner.post("/auth/password/verify-email", { token: link.searchParams.get("token")!, email: victim, password: PW.ada })
        }
      }
    }
    expect(await owner.session()).toBeNull()
    const row = await app.adapter.getUserByEmail!(victim)
    expect(row?.emailVerified ?? null).toBeNull()
    const { response } = await signIn(app, victim, PW.eve)
    expect(response.status).not.toBe(200)
    expect((await squatter.session())).toBeNull()
  })
})

// ---------------------------------------------------------------------------------------------
// https://github.com/better-auth/better-auth/issues/1050 and #3494: an unverified account's every
// sign-in attempt mailed a fresh verification link, a mail flood with no budget of its own.
// latchkey mails a fresh link on a right password too; docs/rate-limits.md: "Email sends cost a mail
// in someone's inbox: 5 an hour per address is enough for a lost mail and useless for flooding one."
describe("sign-ins to an unverified account mail its address within the send budget (better-auth#1050, #3494)", () => {
  it("12 right-password sign-ins of an unverified account (rate limits on, defaults) mail at most 5 fresh links", async () => {
    const app = passwordApp({ strategy: "jwt", config: { rateLimits: rateLimits(), trustedProxy: "cloudflare" } })
    const victim = fresh("victim")
    // Anyone can sign up with an address that is not theirs: the squatter knows the password.
    await app.browser({ "cf-connecting-ip": "198.51.100.1" }).post("/auth/password/sign-up", { email: victim, password: PW.eve })
    const afterSignUp = mailsTo(app.mailbox, victim).length
    expect(afterSignUp).toBe(1)
    const answers: number[] = []
    for (let attempt = 0; attempt < 12; attempt++) {
      const { response } = await signIn(app, victim, PW.eve, app.browser({ "cf-connecting-ip": `198.51.100.${10 + attempt}` }))
      answers.push(response.status)
    }
    // The sign-ins were answered (EmailNotVerified until the limit, then 429): the route did run.
    expect(answers.filter((status) => status === 403).length).toBeGreaterThan(0)
    // Each is a fresh verification link to the address, sent for a sign-in that was refused.
    const fromSignIns = mailsTo(app.mailbox, victim, "verify-email").length - afterSignUp
    expect(fromSignIns).toBeLessThanOrEqual(5)
  })
})

// ---------------------------------------------------------------------------------------------
// GHSA-x732-6j76-qmhm (better-auth < 1.4.5): `//path` reached the route while skipping
// path-keyed limits; the captcha plugin matched on the raw URL. Here: the captcha hook on the
// password routes, tried with path spellings.
describe("the captcha hook on the password routes holds on every path spelling (GHSA-x732-6j76-qmhm)", () => {
  const spellings = (route: string) => [`/auth/password/${route}`, `/auth/password/${route}/`, `/auth/password//${route}`, `/auth//password/${route}`, `/auth/password/${route}/x`, `/auth/password/${route.replace(/^./, (c) => `%${c.charCodeAt(0).toString(16)}`)}`, `/auth/password/${route.toUpperCase()}`, `/auth/./password/${route}`, `/auth/password/${route}%2F`, `/auth/password/${route};x`]

  it("sign-up, forgot and sign-in without a captcha token write no user, send no mail and issue no session", async () => {
    const verified: string[] = []
    const app = passwordApp({
      strategy: "jwt",
      config: { trustedProxy: "cloudflare", rateLimits: rateLimits({ captcha: { routes: ["password-sign-up", "password-forgot", "password-sign-in"], verify: async (token) => (verified.push(token), token === "human") } }) },
    })
    const ada = fresh("ada")
    // The control: with the captcha answered, the routes work.
    const humans = app.browser({ "cf-connecting-ip": "198.51.100.200" })
    expect((await humans.post("/auth/password/sign-up", { email: ada, password: PW.ada, captchaToken: "human" })).status).toBe(200)
    await humans.open(pathOf(linkTo(app.mailbox, ada, "verify-email")))
    expect((await humans.session())?.user?.email).toBe(ada)
    const users = (app.adapter as ReturnType<typeof memoryAdapter>).users
    const usersBefore = users.size
    let ip = 0
    for (const path of spellings("sign-up")) {
      const bot = app.browser({ "cf-connecting-ip": `203.0.113.${++ip}` })
      const email = fresh("bot")
      await bot.post(path, { email, password: PW.bob })
      expect({ path, mails: mailsTo(app.mailbox, email).length }).toEqual({ path, mails: 0 })
    }
    expect(users.size).toBe(usersBefore)
    for (const path of spellings("forgot")) {
      const before = mailsTo(app.mailbox, ada).length
      await app.browser({ "cf-connecting-ip": `203.0.113.${++ip}` }).post(path, { email: ada })
      expect({ path, mails: mailsTo(app.mailbox, ada).length - before }).toEqual({ path, mails: 0 })
    }
    for (const path of ["/auth/callback/password", "/auth/signin/password", "/auth/callback/password/", "/auth/callback//password", "/auth//callback/password", "/auth/callback/%70assword", "/auth/signin/password/"]) {
      const bot = app.browser({ "cf-connecting-ip": `203.0.113.${++ip}` })
      await bot.post(path, { email: ada, password: PW.ada, callbackUrl: `${ORIGIN}/home` })
      expect({ path, session: (await bot.session())?.user?.email ?? null }).toEqual({ path, session: null })
    }
  })
})

// ---------------------------------------------------------------------------------------------
// https://github.com/better-auth/better-auth/pull/9578 (block OAuth linking to unverified
// accounts) and #4621 (trust only a provider-verified address): linking by address must not follow
// an address the provider says it has not verified. Providers spell that claim as the string
// "false" too (Apple's id_token documents email_verified as "a string or Boolean"; Cognito's
// userinfo answers strings).
describe("linking by address refuses a provider's unverified address, however the claim is spelt (better-auth PR #9578)", () => {
  const VICTIM = { sub: "victim-sub", email: "victim@example.com", name: "Victim" }
  const STRING_FALSE = { sub: "eve-string", email: "victim@example.com", name: "Eve", email_verified: "false" as unknown as boolean }
  const BOOLEAN_FALSE = { sub: "eve-boolean", email: "victim@example.com", name: "Eve", email_verified: false }
  let idp: OidcServer
  beforeAll(async () => {
    const client = (id: string) => ({ client_id: id, client_secret: `${id}-secret`, redirect_uris: [`${ORIGIN}/auth/callback/${id}`], grant_types: ["authorization_code"] })
    idp = await startOidcServer({ accounts: [VICTIM, STRING_FALSE, BOOLEAN_FALSE], clients: [client("corp"), client("partner")] })
  })
  afterAll(() => idp?.close())
  const provider = (id: string, extra: Partial<OIDCConfig> = {}): OIDCConfig => ({ id, name: id, type: "oidc", issuer: idp.issuer, clientId: id, clientSecret: `${id}-secret`, authorization: { params: { scope: "openid email profile" } }, ...extra })

  async function signInWith(site: ReturnType<typeof secureApp>, providerId: string, sub: string) {
    const browser = site.browser()
    idp.signInAs(sub)
    const { url } = await post(browser, `/auth/signin/${providerId}`, { csrfToken: await csrfOf(browser) })
    return { url, session: await sessionOf(browser) }
  }

  for (const eve of [BOOLEAN_FALSE, STRING_FALSE]) {
    it(`email_verified: ${JSON.stringify(eve.email_verified)} does not join the victim's user under allowDangerousEmailAccountLinking`, async () => {
      const adapter = memoryAdapter()
      const site = secureApp({ providers: [provider("corp"), provider("partner", { allowDangerousEmailAccountLinking: true })], adapter })
      const victim = await signInWith(site, "corp", VICTIM.sub)
      expect(victim.session?.user.email).toBe(VICTIM.email)
      const attacker = await signInWith(site, "partner", eve.sub)
      expect(attacker.session?.user?.name ?? null).not.toBe(VICTIM.name)
      expect(attacker.url.searchParams.get("error")).toBe("OAuthAccountNotLinked")
      expect([...adapter.accounts.values()].map((row) => row.provider)).toEqual(["corp"])
    })
  }
})

// ---------------------------------------------------------------------------------------------
// better-auth keeps `setPassword` server-only (https://github.com/better-auth/better-auth/issues/9994,
// #6306): a session alone must not turn into a password, or a stolen cookie of a social-only user
// becomes a lasting credential. Here: the password routes given an OAuth-only user's session.
describe("a session of a user with no password cannot give it one (better-auth#9994, #6306)", () => {
  const OLGA = { sub: "olga-sub", email: "olga@example.com", name: "Olga" }
  let idp: OidcServer
  beforeAll(async () => {
    idp = await startOidcServer({ accounts: [OLGA], clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${ORIGIN}/auth/callback/corp`], grant_types: ["authorization_code"] }] })
  })
  afterAll(() => idp?.close())

  for (const allowLinkingToExistingUser of [false, true]) {
    it(`change and change-email with an empty, a guessed or a missing current password are refused (allowLinkingToExistingUser: ${allowLinkingToExistingUser})`, async () => {
      const mailbox: Mail[] = []
      const adapter = memoryAdapter()
      const site = secureApp({
        adapter,
        passwords: PLUG_IN,
        providers: [
          { id: "corp", name: "Corp", type: "oidc", issuer: idp.issuer, clientId: "app", clientSecret: "app-secret", authorization: { params: { scope: "openid email profile" } } },
          Password({ sendEmail: async (mail: Mail) => void mailbox.push(mail), allowLinkingToExistingUser }),
        ],
      })
      const thief = site.browser()
      idp.signInAs(OLGA.sub)
      await post(thief, "/auth/signin/corp", { csrfToken: await csrfOf(thief) })
      expect((await sessionOf(thief))?.user.email).toBe(OLGA.email)
      const olga = (await adapter.getUserByEmail(OLGA.email))!
      for (const currentPassword of [undefined, "", " ", "null", "undefined", PW.eve]) {
        const fields: Record<string, string> = { csrfToken: await csrfOf(thief), newPassword: PW.eve }
        if (currentPassword !== undefined) fields.currentPassword = currentPassword
        await post(thief, "/auth/password/change", fields)
        const emailFields: Record<string, string> = { csrfToken: await csrfOf(thief), newEmail: "thief@evil.example" }
        if (currentPassword !== undefined) emailFields.password = currentPassword
        await post(thief, "/auth/password/change-email", emailFields)
      }
      expect(await adapter.getUserPassword(olga.id)).toBeFalsy()
      expect(mailbox.filter((mail) => mail.to === "thief@evil.example")).toEqual([])
      expect((await adapter.getUser(olga.id))?.email).toBe(OLGA.email)
    })
  }
})

// ---------------------------------------------------------------------------------------------
// Open redirects through callbackURL (better-auth GHSA-8jhw-6pjj-8723 / CVE-2024-56734 on
// verify-email, CVE-2025-27143 on trustedOrigins, and the relative-path hardening of
// https://github.com/better-auth/better-auth/pull/10979: `//`, `\`, control characters, encoded
// separators). Spellings the existing suites do not try, on the password routes that redirect.
describe("callbackUrl spellings never leave the origin on the password routes (better-auth PR #10979, CVE-2025-27143)", () => {
  const hostile = [
    "/\t/evil.example/",
    "/\n/evil.example/",
    "/%09/evil.example/",
    "/%2F/evil.example/",
    "%2F%2Fevil.example/",
    "/%5Cevil.example/",
    "\\\\evil.example/",
    "\\/evil.example/",
    "https://app.example.com@evil.example/",
    "https://app.example.com.evil.example/",
    "https://evil.example#@app.example.com/",
    "https://evil.example\\@app.example.com/",
    "https:/evil.example/",
    "https:\\\\evil.example/",
    "HTTPS://EVIL.EXAMPLE/",
    "http://app.example.com/downgrade",
    "javascript:alert(document.domain)//",
    "data:text/html,<script>alert(1)</script>",
    "  //evil.example/",
    "\u3002evil.example",
    "/\u2215evil.example/",
    "//evil%2eexample/",
  ]
  const destination = async (answer: Response): Promise<URL | undefined> => {
    const location = answer.headers.get("location")
    if (location) return new URL(location, ORIGIN)
    const body = (await answer.clone().json().catch(() => undefined)) as { url?: string } | undefined
    return typeof body?.url === "string" ? new URL(body.url, ORIGIN) : undefined
  }

  it("sign-in (script and form), change-email and its confirm link, and a sign-up signed in at once", async () => {
    const app = passwordApp({ strategy: "jwt" })
    const open = passwordApp({ strategy: "jwt", provider: { requireEmailVerification: false } })
    let ada = fresh("ada")
    const adaBrowser = await account(app, ada, PW.ada)
    const seen: string[] = []
    for (const target of hostile) {
      const answers: [string, Response][] = [
        ["sign-in json", await app.browser().post("/auth/callback/password", { email: ada, password: PW.ada, callbackUrl: target })],
        ["sign-in form", await app.browser().post("/auth/callback/password", { email: ada, password: PW.ada, callbackUrl: target }, { form: true })],
        ["sign-up", await open.browser().post("/auth/password/sign-up", { email: fresh("bob"), password: PW.bob, callbackUrl: target })],
        ["change-email refused", await adaBrowser.post("/auth/password/change-email", { newEmail: fresh("x"), password: "wrong wrong wrong wrong", callbackUrl: target }, { form: true })],
      ]
      const moved = fresh("moved")
      await adaBrowser.post("/auth/password/change-email", { newEmail: moved, password: PW.ada, callbackUrl: target })
      const link = linkTo(app.mailbox, moved, "confirm-email")
      answers.push(["confirm-email", await adaBrowser.request(pathOf(link))])
      // The confirmed change moved Ada: the next round signs in under the new address.
      expect((await adaBrowser.session())?.user?.email).toBe(moved)
      ada = moved
      for (const [label, answer] of answers) {
        const where = await destination(answer)
        seen.push(`${label} ${JSON.stringify(target)} -> ${where?.href}`)
        expect({ label, target, origin: where?.origin }).toEqual({ label, target, origin: ORIGIN })
      }
    }
    expect(seen.length).toBe(hostile.length * 5)
  })
})

// ---------------------------------------------------------------------------------------------
// CVE-2026-45364 (better-auth < 1.4.17): per-client limits keyed on the raw text of an IPv6
// address, so a /64 (or one address spelt many ways) was many clients. Here on password-forgot,
// a route that mails: one client spraying addresses.
describe("one IPv6 /64, or one IPv4 client spelt as IPv6, is one client on the password routes (CVE-2026-45364)", () => {
  const sixtyFour = Array.from({ length: 14 }, (_, index) => (index % 3 === 0 ? `2001:DB8:1:2:${(index + 1).toString(16)}::1` : index % 3 === 1 ? `2001:0db8:0001:0002:0000:0000:0000:${(index + 1).toString(16).padStart(4, "0")}` : `2001:db8:1:2:ffff:${index}:0:1`))
  const mapped = ["198.51.100.7", "::ffff:198.51.100.7", "::ffff:c633:6407", "::FFFF:C633:6407", "0:0:0:0:0:ffff:c633:6407", "::ffff:0:198.51.100.7", "64:ff9b::c633:6407", "::198.51.100.7", "0000:0000:0000:0000:0000:ffff:c633:6407", "::ffff:198.51.100.7", "198.51.100.7", "::ffff:c633:6407", "64:ff9b::198.51.100.7", "::ffff:0:c633:6407"]

  for (const [label, spellings] of [["a /64 in many spellings", sixtyFour], ["an IPv4 client as IPv6", mapped]] as const) {
    it(`${label}: forgot for many addresses is refused after the client budget (10 per 15 min)`, async () => {
      const app = passwordApp({ strategy: "jwt", config: { rateLimits: rateLimits(), trustedProxy: "cloudflare" } })
      const statuses: number[] = []
      for (const ip of spellings) statuses.push((await app.browser({ "cf-connecting-ip": ip }).post("/auth/password/forgot", { email: fresh("spray") })).status)
      expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true)
      expect(statuses.slice(10)).toEqual(statuses.slice(10).map(() => 429))
    })
  }
})

// ---------------------------------------------------------------------------------------------
// https://github.com/better-auth/better-auth/issues/747: a ban must hold on every way a session
// is made, not only on the sign-in form ("enforced at the session creation level"). latchkey's ban
// is the app's `signIn` callback; every password route that signs a browser in must ask it.
describe("the signIn callback's refusal holds on every password route that signs in (better-auth#747)", () => {
  it("sign-in, the verification link (same browser and confirmed elsewhere), a reset, a change that signs in again, and a sign-up without verification issue no session to a banned user", async () => {
    const banned = new Set<string>()
    const signIn = ({ user }: { user: { email?: string | null } }) => !banned.has(String(user.email))
    const app = passwordApp({ strategy: "database", config: { callbacks: { signIn } } })
    const open = passwordApp({ strategy: "jwt", provider: { requireEmailVerification: false }, config: { callbacks: { signIn } } })
    const sessions: [string, unknown][] = []

    // A user banned once signed in: a change everywhere signs this browser in again.
    const ada = fresh("ada")
    const adaBrowser = await account(app, ada, PW.ada)
    banned.add(ada)
    await adaBrowser.post("/auth/password/change", { currentPassword: PW.ada, newPassword: PW.fresh, revokeOtherSessions: "true" })
    sessions.push(["change everywhere", await adaBrowser.session()])
    const form = app.browser()
    await form.post("/auth/callback/password", { email: ada, password: PW.fresh, callbackUrl: `${ORIGIN}/home` })
    sessions.push(["sign-in", await form.session()])
    const resetting = app.browser()
    await resetting.post("/auth/password/forgot", { email: ada })
    const resetUrl = linkTo(app.mailbox, ada, "reset")
    await resetting.post("/auth/password/reset", { token: resetUrl.searchParams.get("token")!, email: ada, password: PW.ada })
    sessions.push(["reset", await resetting.session()])

    // Banned before verifying: the link in the sign-up browser, and confirmed from another.
    const bob = fresh("bob")
    banned.add(bob)
    const bobBrowser = app.browser()
    await bobBrowser.post("/auth/password/sign-up", { email: bob, password: PW.bob })
    await bobBrowser.open(pathOf(linkTo(app.mailbox, bob, "verify-email")))
    sessions.push(["verify-email link", await bobBrowser.session()])
    const carol = fresh("carol")
    banned.add(carol)
    await app.browser().post("/auth/password/sign-up", { email: carol, password: PW.bob })
    const elsewhere = app.browser()
    await elsewhere.post("/auth/password/verify-email", { token: linkTo(app.mailbox, carol, "verify-email").searchParams.get("token")!, email: carol, password: PW.bob })
    sessions.push(["verify-email confirmed", await elsewhere.session()])

    // Signed in at once by a sign-up.
    const dave = fresh("dave")
    banned.add(dave)
    const daveBrowser = open.browser()
    await daveBrowser.post("/auth/password/sign-up", { email: dave, password: PW.bob })
    sessions.push(["sign-up without verification", await daveBrowser.session()])

    expect(sessions).toEqual(sessions.map(([label]) => [label, null]))
  })
})
