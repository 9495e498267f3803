// Review 7: magic links and the email providers, attacked through the handler with browser-like
// cookie jars. Each test owns its app, adapter and browsers.
import { describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Nodemailer from "../../src/providers/email/nodemailer.js"
import type { EmailConfig } from "../../src/providers/types.js"
import { csrfOf, mailbox, ORIGIN, post, recordingLogger, SECRET, secureApp, sessionOf } from "./support.js"

/** An app with an email provider, and a link mailed to `email` from a browser of its own. */
async function withLink(email = "ada@example.com", fields: Record<string, string> = {}, overrides: Partial<EmailConfig> = {}) {
  const adapter = memoryAdapter()
  const { sent, provider } = mailbox(overrides)
  const { logger, logged } = recordingLogger()
  const site = secureApp({ providers: [provider], adapter, logger })
  const requester = site.browser()
  await post(requester, "/auth/signin/email", { csrfToken: await csrfOf(requester), email, ...fields })
  expect(sent).toHaveLength(1)
  return { site, adapter, sent, link: new URL(sent[0]!.url), token: sent[0]!.token, logged }
}

describe("review 7: magic link replay", () => {
  it("a link opened twice in a row (another browser, then the same) signs in only the first time", async () => {
    const { site, link } = await withLink()
    const first = site.browser()
    await first.open(link)
    expect((await sessionOf(first))?.user.email).toBe("ada@example.com")
    const second = site.browser()
    const { url } = await second.open(link)
    expect(url.searchParams.get("error")).toBe("Verification")
    expect(await sessionOf(second)).toBeNull()
  })

  it("two parallel GETs of one link (a scanner racing the user) sign in at most once", async () => {
    const { site, link } = await withLink()
    const browsers = Array.from({ length: 8 }, () => site.browser())
    await Promise.all(browsers.map((browser) => browser.open(link)))
    const sessions = await Promise.all(browsers.map((browser) => sessionOf(browser)))
    expect(sessions.filter((session) => session !== null)).toHaveLength(1)
  })

  it("a link scanner's HEAD does not consume the link: 405, and the link still signs in", async () => {
    const { site, link } = await withLink()
    const head = await site.dispatch(link.href, { method: "HEAD" })
    expect(head.status).toBe(405)
    const browser = site.browser()
    await browser.open(link)
    expect((await sessionOf(browser))?.user.email).toBe("ada@example.com")
  })

  it("a POST replaying the link's query is refused with 405 and does not consume it", async () => {
    const { site, link } = await withLink()
    const browser = site.browser()
    const csrfToken = await csrfOf(browser)
    const posted = await site.dispatch(link.href, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", cookie: [...browser.cookies(ORIGIN)].map(([n, v]) => `${n}=${v}`).join("; ") }, body: new URLSearchParams({ csrfToken }).toString() })
    expect(posted.status).toBe(405)
    await browser.open(link)
    expect((await sessionOf(browser))?.user.email).toBe("ada@example.com")
  })
})

describe("review 7: a link bound to its address", () => {
  for (const edited of ["ada+x@example.com", "ada@example.com.", "ada@exämple.com", "ada@example.co", "ada@example.com,evil@evil.example", "eve@example.com"]) {
    it(`a link mailed to ada@example.com, its address edited to ${JSON.stringify(edited)}, is refused and leaves the real link usable`, async () => {
      const { site, link } = await withLink()
      const attacker = site.browser()
      const forged = new URL(link)
      forged.searchParams.set("email", edited)
      const { url } = await attacker.open(forged)
      expect(url.searchParams.get("error")).toBe("Verification")
      expect(await sessionOf(attacker)).toBeNull()
      const owner = site.browser()
      await owner.open(link)
      expect((await sessionOf(owner))?.user.email).toBe("ada@example.com")
    })
  }

  it("a token minted for one address cannot be moved to another by asking for a second link (tokens are per address)", async () => {
    const adapter = memoryAdapter()
    const { sent, provider } = mailbox()
    const site = secureApp({ providers: [provider], adapter })
    const attacker = site.browser()
    await post(attacker, "/auth/signin/email", { csrfToken: await csrfOf(attacker), email: "eve@evil.example" })
    await post(attacker, "/auth/signin/email", { csrfToken: await csrfOf(attacker), email: "ada@example.com" })
    const mine = new URL(sent[0]!.url)
    mine.searchParams.set("email", "ada@example.com")
    const { url } = await attacker.open(mine)
    expect(url.searchParams.get("error")).toBe("Verification")
    expect(await sessionOf(attacker)).toBeNull()
  })
})

describe("review 7: callbackUrl as an open redirect", () => {
  const hostile = [
    "//evil.example/",
    "/\\evil.example/",
    "/%5Cevil.example/",
    "%2F%2Fevil.example/",
    "\t//evil.example/",
    "https:evil.example/",
    "https://app.example.com.evil.example/",
    "https://app.example.com@evil.example/",
    "http://app.example.com/downgrade",
    "javascript:alert(1)",
  ]

  it("a same-origin callbackUrl in the link is honoured (the control)", async () => {
    const { site, link } = await withLink()
    link.searchParams.set("callbackUrl", "/dashboard")
    const { url } = await site.browser().open(link)
    expect(url.href).toBe(`${ORIGIN}/dashboard`)
  })

  for (const target of hostile) {
    it(`a link whose callbackUrl is ${JSON.stringify(target)} lands on the app, not elsewhere`, async () => {
      const { site, link } = await withLink()
      link.searchParams.set("callbackUrl", target)
      const browser = site.browser()
      const { url, response } = await browser.open(link)
      expect(url.origin).toBe(ORIGIN)
      expect(url.protocol).toBe("https:")
      expect(await response.text()).not.toContain("left the app")
      expect((await sessionOf(browser))?.user.email).toBe("ada@example.com")
    })
  }

  it("a sign-in POST whose callbackUrl is off-origin mails a link without it, and its cookie sends nowhere else", async () => {
    for (const target of hostile) {
      const { site, link } = await withLink("ada@example.com", { callbackUrl: target })
      const carried = link.searchParams.get("callbackUrl")
      if (carried !== null) expect(new URL(carried, ORIGIN).origin).toBe(ORIGIN)
      const { url } = await site.browser().open(link)
      expect(url.origin).toBe(ORIGIN)
    }
  })
})

describe("review 7: recipients of the sign-in mail", () => {
  const injected = [
    "ada@example.com\r\nBcc: eve@evil.example",
    "ada@example.com\nBcc:eve@evil.example",
    "ada@example.com%0d%0aBcc:eve@evil.example",
    "ada@example.com,eve@evil.example",
    "ada@example.com;eve@evil.example",
    "Ada <eve@evil.example>",
    "\"ada@example.com\"@evil.example",
    "ada@example.com (eve@evil.example)",
    "eve@evil.example\u0000ada@example.com",
    "ada@example.com\u2028Bcc: eve@evil.example",
    "ada@example.com\uff0ceve@evil.example",
    "ada@evil.example\uff20example.com",
    "ada@[127.0.0.1]",
  ]

  for (const email of injected) {
    it(`a sign-in POST for ${JSON.stringify(email)} sends no mail and stores no token`, async () => {
      const adapter = memoryAdapter()
      const stored: unknown[] = []
      const spy = { ...adapter, createVerificationToken: (row: { identifier: string; token: string; expires: Date }) => (stored.push(row), adapter.createVerificationToken(row)) }
      const { sent, provider } = mailbox()
      const site = secureApp({ providers: [provider], adapter: spy })
      const attacker = site.browser()
      const { url } = await post(attacker, "/auth/signin/email", { csrfToken: await csrfOf(attacker), email })
      expect(sent).toHaveLength(0)
      expect(stored).toHaveLength(0)
      expect(url.searchParams.get("error")).toBe("Verification")
    })
  }

  it("Nodemailer hands SMTP exactly one envelope recipient, the normalised address, for odd but accepted addresses", async () => {
    const envelopes: { to: string[] }[] = []
    const transport = {
      name: "recording",
      version: "1",
      send(mail: { message: { getEnvelope(): { to: string[] } } }, callback: (error: Error | null, info: unknown) => void) {
        const envelope = mail.message.getEnvelope()
        envelopes.push(envelope)
        callback(null, { envelope, messageId: "<x@y>", accepted: envelope.to, rejected: [] })
      },
    }
    const provider = Nodemailer({ server: transport as never, from: "auth@example.com" })
    const site = secureApp({ providers: [provider], adapter: memoryAdapter() })
    const addresses = ["  Ada@Example.COM ", "o'brien@example.com", "a.b+tag@example.com", "ａｄａ@example.com", "x=?utf-8?q?=2C?=y@example.com", "ada@ex-ample.com"]
    for (const email of addresses) {
      const browser = site.browser()
      await post(browser, "/auth/signin/nodemailer", { csrfToken: await csrfOf(browser), email })
    }
    expect(envelopes.length).toBeGreaterThan(0)
    for (const envelope of envelopes) {
      expect(envelope.to).toHaveLength(1)
      expect(envelope.to[0]).not.toMatch(/evil|,|;|\s/)
    }
  })
})

describe("review 7: failures and leaks", () => {
  it("a sendVerificationRequest that throws answers the error page, not a 500, with neither the token nor the secret", async () => {
    const adapter = memoryAdapter()
    const { logger, logged } = recordingLogger()
    let mailed: string | undefined
    const provider: EmailConfig = {
      id: "email",
      name: "Email",
      type: "email",
      sendVerificationRequest: ({ token }) => {
        mailed = token
        throw new Error("SMTP 421 service not available")
      },
    }
    const site = secureApp({ providers: [provider], adapter, logger })
    const browser = site.browser()
    const csrfToken = await csrfOf(browser)
    const cookie = [...browser.cookies(ORIGIN)].map(([n, v]) => `${n}=${v}`).join("; ")
    const response = await site.dispatch(`${ORIGIN}/auth/signin/email`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", cookie }, body: new URLSearchParams({ csrfToken, email: "ada@example.com" }).toString() })
    expect(response.status).toBeLessThan(500)
    const location = response.headers.get("location") ?? ""
    expect(new URL(location, ORIGIN).pathname).not.toBe("/auth/verify-request")
    const body = await response.text()
    expect(mailed).toBeDefined()
    for (const secret of [mailed!, SECRET]) {
      expect(location).not.toContain(secret)
      expect(body).not.toContain(secret)
      expect(JSON.stringify(logged.map((entry) => (entry instanceof Error ? `${entry.message} ${entry.stack}` : entry)))).not.toContain(secret)
    }
  })

  it("a refused link (wrong, expired or reused) redirects without echoing the token, and the log never holds it", async () => {
    const { site, link, token, logged } = await withLink()
    const browser = site.browser()
    await browser.open(link)
    const reused = await site.dispatch(link.href)
    const location = reused.headers.get("location") ?? ""
    expect(new URL(location).searchParams.get("error")).toBe("Verification")
    expect(location).not.toContain(token)
    expect(await reused.text()).not.toContain(token)
    expect(JSON.stringify(logged.map((entry) => (entry instanceof Error ? `${entry.message} ${entry.stack}` : entry)))).not.toContain(token)
  })

  it("the stored row never holds the token itself, only its keyed hash", async () => {
    const adapter = memoryAdapter()
    const created: { identifier: string; token: string }[] = []
    const spy = { ...adapter, createVerificationToken: (row: { identifier: string; token: string; expires: Date }) => (created.push(row), adapter.createVerificationToken(row)) }
    const { sent, provider } = mailbox()
    const site = secureApp({ providers: [provider], adapter: spy })
    const browser = site.browser()
    await post(browser, "/auth/signin/email", { csrfToken: await csrfOf(browser), email: "ada@example.com" })
    expect(created).toHaveLength(1)
    expect(created[0]!.token).not.toContain(sent[0]!.token)
    expect(created[0]!.token).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe("review 7: accounts that change under a link", () => {
  it("a link opened after its user was deleted makes a new user with a new id, never the deleted one back with its data", async () => {
    const { site, adapter, sent } = await withLink()
    const first = site.browser()
    await first.open(sent[0]!.url)
    const old = [...adapter.users.values()].find((user) => user.email === "ada@example.com")!
    await adapter.updateUser({ id: old.id, name: "Ada Lovelace" })
    const again = site.browser()
    await post(again, "/auth/signin/email", { csrfToken: await csrfOf(again), email: "ada@example.com" })
    await site.deleteUser(old.id)
    await again.open(sent[1]!.url)
    const session = await sessionOf(again)
    expect(session?.user.email).toBe("ada@example.com")
    expect(session?.user.name ?? null).toBeNull()
    expect(session?.user.id).not.toBe(old.id)
    expect(await sessionOf(first)).toBeNull()
  })
})
