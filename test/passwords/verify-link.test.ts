// The verification link proves a mailbox, not who chose the password. The outside review's attack:
// someone signs up with Ada's address and a password of their own; a mail scanner (or Ada, puzzled)
// opens the link Ada gets; the account is then verified and the stranger signs in as Ada with the
// password they chose. So a link verifies at once only in the browser that proved the password,
// and anywhere else the account's password confirms it. Every step goes through the handler.
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { rateLimits } from "latchkey/rate-limits"
import { GOOD, linkOf, ORIGIN, OTHER, passwordApp, type Browser } from "./flows-support.js"

const STRANGER_PASSWORD = "the stranger's own long passphrase"

/** A stranger signs up with Ada's address; answers the link mailed to Ada. */
async function strangerSignsUpAsAda(app: ReturnType<typeof passwordApp>): Promise<{ stranger: Browser; link: URL }> {
  const stranger = app.browser()
  expect((await stranger.signUp({ email: "ada@example.com", password: STRANGER_PASSWORD }, { script: true })).status).toBe(200)
  return { stranger, link: new URL(linkOf(app.mailTo("ada@example.com", "verify-email")), ORIGIN) }
}

const confirm = (browser: Browser, link: URL, password: string) =>
  browser.post("/auth/password/verify-email", { token: link.searchParams.get("token")!, email: link.searchParams.get("email")!, password }, { script: true })

const verified = (app: ReturnType<typeof passwordApp>) => [...app.adapter.users.values()].find((user) => user.email === "ada@example.com")?.emailVerified ?? null

describe.each(["jwt", "database"] as const)("verification links with %s sessions", (strategy) => {
  it("a scanner opening the link verifies nothing and signs no one in: it gets the confirm page", async () => {
    const app = passwordApp({ strategy })
    const { link } = await strangerSignsUpAsAda(app)
    const scanner = app.browser()
    const opened = await scanner.get(`${link.pathname}${link.search}`)
    expect(opened.status).toBe(200)
    const page = await opened.text()
    expect(page).toContain("Confirm your email")
    expect(page).toContain('name="password"')
    expect(page).toContain('action="https://app.example.com/auth/password/verify-email"')
    expect(await scanner.session()).toBeNull()
    expect(verified(app)).toBeNull()
    expect(await (await app.browser().signIn("ada@example.com", STRANGER_PASSWORD, { script: true })).json()).toEqual({ error: "EmailNotVerified" })
  })

  it("Ada cannot confirm without the stranger's password; a reset gives her the address, and the stranger's password is gone", async () => {
    const app = passwordApp({ strategy })
    const { link } = await strangerSignsUpAsAda(app)
    const ada = app.browser()
    await ada.get(`${link.pathname}${link.search}`)
    expect(await (await confirm(ada, link, GOOD)).json()).toEqual({ error: "CredentialsSignin" })
    expect(verified(app)).toBeNull()

    await ada.post("/auth/password/forgot", { email: "ada@example.com" })
    const reset = new URL(linkOf(app.mailTo("ada@example.com", "reset")), ORIGIN)
    expect((await ada.post("/auth/password/reset", { token: reset.searchParams.get("token")!, email: "ada@example.com", password: OTHER }, { script: true })).status).toBe(200)
    expect((await app.browser().signIn("ada@example.com", STRANGER_PASSWORD, { script: true })).status).toBe(401)
    expect((await app.browser().signIn("ada@example.com", OTHER, { script: true })).status).toBe(200)
  })

  it("on another device, the password confirms the link and signs in; a wrong one first leaves the link usable", async () => {
    const app = passwordApp({ strategy })
    const laptop = app.browser()
    expect((await laptop.signUp({ email: "grace@example.com", password: GOOD, callbackUrl: `${ORIGIN}/welcome` })).status).toBe(302)
    const link = new URL(linkOf(app.mailTo("grace@example.com", "verify-email")), ORIGIN)
    const phone = app.browser()
    expect((await phone.get(`${link.pathname}${link.search}`)).status).toBe(200)
    const wrong = await phone.post("/auth/password/verify-email", { token: link.searchParams.get("token")!, email: "grace@example.com", password: "not the password at all", callbackUrl: `${ORIGIN}/welcome` })
    const back = new URL(wrong.headers.get("location")!)
    expect([back.pathname, back.searchParams.get("error"), back.searchParams.get("token")]).toEqual(["/auth/password/verify-email", "CredentialsSignin", link.searchParams.get("token")])
    expect(await (await phone.get(`${back.pathname}${back.search}`)).text()).toContain('aria-invalid="true"')
    const right = await phone.post("/auth/password/verify-email", { token: link.searchParams.get("token")!, email: "grace@example.com", password: GOOD, callbackUrl: `${ORIGIN}/welcome` })
    expect(right.headers.get("location")).toBe(`${ORIGIN}/welcome`)
    expect((await phone.session())?.user?.email).toBe("grace@example.com")
    expect(await (await confirm(app.browser(), link, GOOD)).json()).toEqual({ error: "InvalidToken" })
  })

  it("the browser that signed up verifies at once, without the password", async () => {
    const app = passwordApp({ strategy })
    const browser = app.browser()
    await browser.signUp({ email: "hedy@example.com", password: GOOD })
    const opened = await browser.get(linkOf(app.mailTo("hedy@example.com", "verify-email")))
    expect(opened.headers.get("location")).toBe(`${ORIGIN}/`)
    expect((await browser.session())?.user?.email).toBe("hedy@example.com")
  })

  it("a link edited to name another browser is no link", async () => {
    const app = passwordApp({ strategy })
    const { link } = await strangerSignsUpAsAda(app)
    const other = app.browser()
    const binding = createHash("sha256").update(await other.csrf()).digest("base64url")
    const [random, user] = link.searchParams.get("token")!.split(".")
    const edited = new URL(link)
    edited.searchParams.set("token", `${random}.${user}.${binding.slice(0, 22)}`)
    expect((await other.get(`${edited.pathname}${edited.search}`)).headers.get("location")).toContain("error=InvalidToken")
    expect(verified(app)).toBeNull()
  })
})

it("confirming with the password counts against the account's sign-in limit, from any number of IPs", async () => {
  const app = passwordApp({ config: { rateLimits: rateLimits(), trustedProxy: "cloudflare" } })
  const laptop = app.browser()
  await laptop.signUp({ email: "alan@example.com", password: GOOD })
  const link = new URL(linkOf(app.mailTo("alan@example.com", "verify-email")), ORIGIN)
  const statuses: number[] = []
  for (let index = 0; index < 12; index++) {
    const answer = await app.browser().post("/auth/password/verify-email", { token: link.searchParams.get("token")!, email: "alan@example.com", password: `guess number ${index} padded out` }, { script: true, headers: { "cf-connecting-ip": `198.51.100.${index + 1}` } })
    statuses.push(answer.status)
  }
  expect(statuses.filter((status) => status === 429)).toHaveLength(2)
  const right = await app.browser().post("/auth/password/verify-email", { token: link.searchParams.get("token")!, email: "alan@example.com", password: GOOD }, { script: true, headers: { "cf-connecting-ip": "203.0.113.50" } })
  expect(right.status).toBe(429)
})

// The outside review's attack: the token's user part is only base64url of the id, so anyone can
// forge a token naming an account, and the password was checked against that account while the
// limit counted the form's address, which the attacker changed on every try. A right password then
// answered InvalidToken and a wrong one CredentialsSignin: unlimited guessing, with an oracle.
it("a forged token naming an account, under another address each time, learns nothing and meets the account's budget", async () => {
  const app = passwordApp({ config: { rateLimits: rateLimits(), trustedProxy: "cloudflare" } })
  await app.browser().signUp({ email: "alan@example.com", password: GOOD })
  const victim = [...app.adapter.users.values()].find((user) => user.email === "alan@example.com")!
  const forged = `${"A".repeat(43)}.${Buffer.from(String(victim.id)).toString("base64url")}`
  const answers: string[] = []
  for (const [index, password] of [...Array.from({ length: 11 }, (_, index) => `guess number ${index} padded out`), GOOD].entries()) {
    const answer = await app.browser().post("/auth/password/verify-email", { token: forged, email: `decoy${index}@example.com`, password }, { script: true, headers: { "cf-connecting-ip": `198.51.100.${index + 1}` } })
    answers.push(`${answer.status} ${JSON.stringify(await answer.json())}`)
  }
  expect(new Set(answers)).toEqual(new Set(['401 {"error":"CredentialsSignin"}']))
  // Under the account's own address the guesses count where sign-in's do.
  for (let index = 0; index < 10; index++) {
    await app.browser().post("/auth/password/verify-email", { token: forged, email: "alan@example.com", password: `another guess ${index} padded` }, { script: true, headers: { "cf-connecting-ip": `203.0.113.${index + 1}` } })
  }
  expect((await app.browser().signIn("alan@example.com", GOOD, { script: true, headers: { "cf-connecting-ip": "192.0.2.77" } })).status).toBe(429)
})
