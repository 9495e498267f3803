// The per-account limit counts the account the route signs in, not a spelling of it. An app whose
// `normalizeIdentifier` folds spellings into one account (here: `ada+1@example.com` is Ada) must
// not let an attacker spread guesses, reset mails or magic links over those spellings, one count
// each, while every one of them reaches Ada. Each attack goes through createAuth's handler from a
// new IP per attempt, so only the account's own count can stop it. Regression for the outside
// review's repro-ratelimit-custom-normalize.mjs.
import { describe, expect, it } from "vitest"
import Email from "../../src/providers/email/email.js"
import { rateLimits } from "../../src/rate-limits/plug-in.js"
import { APP, attempt, limitedApp } from "../rate-limits/support.js"
import { account, Browser, passwordApp, PW, type PasswordApp } from "./password-support.js"

/** The app's own rule: the `+tag` of an address names no other account. */
const stripTag = (address: string) => address.trim().toLowerCase().replace(/\+[^@]*@/, "@")

const ADA = "ada@example.com"
const spelling = (index: number | string) => `ada+${index}@example.com`

function app(provider: { normalizeIdentifier?: typeof stripTag } = { normalizeIdentifier: stripTag }): PasswordApp {
  return passwordApp({ strategy: "jwt", provider, config: { rateLimits: rateLimits(), trustedProxy: "cloudflare" } })
}

const from = (target: PasswordApp, index: number) => new Browser(target.handler, { "cf-connecting-ip": `198.51.100.${index + 1}` })

/** `count` posts to `path`, each from a new IP; answers their statuses. */
async function spray(target: PasswordApp, count: number, path: string, fields: (index: number) => Record<string, string>): Promise<number[]> {
  const statuses: number[] = []
  for (let index = 0; index < count; index++) statuses.push((await from(target, index).post(path, fields(index))).status)
  return statuses
}

const refused = (statuses: number[]) => statuses.filter((status) => status === 429).length

describe("rate limits under the Password provider's normalizeIdentifier", () => {
  it("sign-in: 40 wrong guesses over +tag spellings from 40 IPs meet Ada's 10, and lock her account", async () => {
    const target = app()
    await account(target, ADA, PW.ada)
    const statuses = await spray(target, 40, "/auth/callback/password", (index) => ({ email: spelling(index), password: `wrong guess number ${index}, padded` }))
    expect(refused(statuses)).toBe(30)
    const right = await new Browser(target.handler, { "cf-connecting-ip": "203.0.113.9" }).post("/auth/callback/password", { email: spelling("final"), password: PW.ada })
    expect(right.status).toBe(429)
  })

  it("a sign-in under one spelling clears the count the other spellings added", async () => {
    const target = app()
    await account(target, ADA, PW.ada)
    await spray(target, 9, "/auth/callback/password", (index) => ({ email: spelling(index), password: `wrong guess number ${index}, padded` }))
    expect((await from(target, 50).post("/auth/callback/password", { email: spelling("mine"), password: PW.ada })).status).toBe(200)
    const after = await spray(target, 10, "/auth/callback/password", (index) => ({ email: spelling(index + 100), password: `wrong guess number ${index}, padded` }))
    expect(refused(after)).toBe(0)
  })

  it("clearLockout on the Auth object lifts a lockout made under the provider's spellings, from any spelling", async () => {
    const target = app()
    await account(target, ADA, PW.ada)
    await spray(target, 12, "/auth/callback/password", (index) => ({ email: spelling(index), password: `wrong guess number ${index}, padded` }))
    expect((await from(target, 60).post("/auth/callback/password", { email: ADA, password: PW.ada })).status).toBe(429)
    await target.auth.clearLockout("Ada+support@Example.com")
    expect((await from(target, 61).post("/auth/callback/password", { email: ADA, password: PW.ada })).status).toBe(200)
  })

  it("forgot: 20 requests over +tag spellings from 20 IPs send Ada at most 5 reset mails", async () => {
    const target = app()
    await account(target, ADA, PW.ada)
    const before = target.mailbox.length
    const statuses = await spray(target, 20, "/auth/password/forgot", (index) => ({ email: spelling(index) }))
    expect(target.mailbox.slice(before).filter((mail) => mail.to === ADA)).toHaveLength(5)
    expect(refused(statuses)).toBe(15)
  })

  it("sign-up and reset: the +tag spellings share Ada's count", async () => {
    const target = app()
    await account(target, ADA, PW.ada)
    // Ada's own sign-up was the first of her 5.
    expect(refused(await spray(target, 8, "/auth/password/sign-up", (index) => ({ email: spelling(index), password: PW.eve })))).toBe(4)
    expect(refused(await spray(target, 12, "/auth/password/reset", (index) => ({ token: `guessed-token-${index}`, email: spelling(index), password: PW.eve })))).toBe(2)
  })

  it("without normalizeIdentifier the +tag spellings are other accounts, each with a count of its own", async () => {
    const target = app({})
    await account(target, ADA, PW.ada)
    const statuses = await spray(target, 20, "/auth/callback/password", (index) => ({ email: spelling(index), password: `wrong guess number ${index}, padded` }))
    expect(refused(statuses)).toBe(0)
  })
})

describe("rate limits under the email provider's normalizeIdentifier", () => {
  function emailApp() {
    const mails: string[] = []
    const email = Email({ server: "smtp://unused", from: "auth@example.com", normalizeIdentifier: stripTag, sendVerificationRequest: async ({ identifier }) => void mails.push(identifier) })
    return { auth: limitedApp({ providers: [email] }).auth, mails }
  }

  it("email-send: 12 links asked for over +tag spellings from 12 IPs mail Ada 5", async () => {
    const { auth, mails } = emailApp()
    for (let index = 0; index < 12; index++) await attempt(auth, { ip: `198.51.100.${index + 1}`, path: "/auth/signin/email", fields: { email: spelling(index) } })
    expect(mails).toEqual(Array(5).fill(ADA))
  })

  it("email-callback: scanning for a token over +tag spellings meets Ada's 10", async () => {
    const { auth } = emailApp()
    const statuses: number[] = []
    for (let index = 0; index < 12; index++) {
      const url = `${APP}/auth/callback/email?email=${encodeURIComponent(spelling(index))}&token=guess${index}`
      statuses.push((await auth.handler(new Request(url, { headers: { "cf-connecting-ip": `198.51.100.${index + 1}` } }))).status)
    }
    expect(refused(statuses)).toBe(2)
  })
})
