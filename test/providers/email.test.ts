import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { EmailSendError, InvalidProviderError } from "../../src/errors.js"
import { resolveProvider } from "../../src/providers/core/resolve.js"
import ForwardEmail from "../../src/providers/email/forwardemail.js"
import Loops from "../../src/providers/email/loops.js"
import Mailgun from "../../src/providers/email/mailgun.js"
import { verificationMessage } from "../../src/providers/email/message.js"
import Postmark from "../../src/providers/email/postmark.js"
import Resend from "../../src/providers/email/resend.js"
import SendGrid from "../../src/providers/email/sendgrid.js"
import type { EmailConfig } from "../../src/providers/email/types.js"
import { startRecordingServer, type RecordingServer } from "../servers/recording-http.js"

const LINK = "https://app.example.com/auth/callback/resend?token=abc123&email=ada%40example.com"
const TO = "ada@example.com"
const KEY = "test-api-key"
let server: RecordingServer

beforeAll(async () => {
  server = await startRecordingServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.requests.length = 0
  server.respondWith(200, { id: "msg_1" })
})

async function send(config: EmailConfig, env: Record<string, string> = {}) {
  const provider = resolveProvider({ ...config, options: { ...config.options, fetch: server.fetch } } as EmailConfig, {
    baseUrl: "https://app.example.com",
    env,
  }) as EmailConfig
  await provider.sendVerificationRequest({
    identifier: TO,
    url: LINK,
    expires: new Date(Date.now() + 86_400_000),
    provider,
    token: "abc123",
    theme: { brandColor: "#123456" },
    request: new Request("https://app.example.com/auth/signin/email", { method: "POST" }),
  })
  expect(server.requests).toHaveLength(1)
  return server.requests[0]!
}

const message = verificationMessage({ url: LINK, theme: { brandColor: "#123456" } })

describe("HTTP email providers against a local server", () => {
  it("Resend posts JSON with a Bearer key", async () => {
    const request = await send(Resend({ from: "Acme <auth@acme.dev>" }), { AUTH_RESEND_KEY: KEY })
    expect(request.intendedUrl).toBe("https://api.resend.com/emails")
    expect(request.method).toBe("POST")
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(request.headers["content-type"]).toBe("application/json")
    expect(JSON.parse(request.body)).toEqual({ from: "Acme <auth@acme.dev>", to: TO, subject: message.subject, html: message.html, text: message.text })
  })

  it("SendGrid posts the v3 mail/send shape, with the sender split into name and address", async () => {
    const request = await send(SendGrid({ from: "Acme <auth@acme.dev>", apiKey: KEY }))
    expect(request.intendedUrl).toBe("https://api.sendgrid.com/v3/mail/send")
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(JSON.parse(request.body)).toEqual({
      personalizations: [{ to: [{ email: TO }] }],
      from: { email: "auth@acme.dev", name: "Acme" },
      subject: message.subject,
      content: [
        { type: "text/plain", value: message.text },
        { type: "text/html", value: message.html },
      ],
    })
  })

  it("Postmark posts with the server token header on the outbound stream", async () => {
    const request = await send(Postmark({ from: "auth@acme.dev" }), { AUTH_POSTMARK_KEY: KEY })
    expect(request.intendedUrl).toBe("https://api.postmarkapp.com/email")
    expect(request.headers["x-postmark-server-token"]).toBe(KEY)
    expect(request.headers.authorization).toBeUndefined()
    expect(JSON.parse(request.body)).toMatchObject({ From: "auth@acme.dev", To: TO, Subject: message.subject, MessageStream: "outbound" })
  })

  it("Mailgun posts a form with Basic api:<key>, to the from-address domain, and honours the EU region", async () => {
    const request = await send(Mailgun({ from: "Acme <auth@mg.acme.dev>" }), { AUTH_MAILGUN_KEY: KEY })
    expect(request.intendedUrl).toBe("https://api.mailgun.net/v3/mg.acme.dev/messages")
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`api:${KEY}`).toString("base64")}`)
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded")
    const form = new URLSearchParams(request.body)
    expect(Object.fromEntries(form)).toEqual({ from: "Acme <auth@mg.acme.dev>", to: TO, subject: message.subject, text: message.text, html: message.html })
    server.requests.length = 0
    const eu = await send(Mailgun({ from: "auth@acme.dev", domain: "mail.acme.eu", region: "eu", apiKey: KEY }))
    expect(eu.intendedUrl).toBe("https://api.eu.mailgun.net/v3/mail.acme.eu/messages")
  })

  it("Loops posts the transactional id and the link as a data variable", async () => {
    const request = await send(Loops({ transactionalId: "tx_1" }), { AUTH_LOOPS_KEY: KEY })
    expect(request.intendedUrl).toBe("https://app.loops.so/api/v1/transactional")
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(JSON.parse(request.body)).toEqual({ transactionalId: "tx_1", email: TO, dataVariables: { url: LINK } })
  })

  it("Forward Email posts JSON with the key as the Basic user name", async () => {
    const request = await send(ForwardEmail({ from: "auth@acme.dev" }), { AUTH_FORWARDEMAIL_KEY: KEY })
    expect(request.intendedUrl).toBe("https://api.forwardemail.net/v1/emails")
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`${KEY}:`).toString("base64")}`)
    expect(JSON.parse(request.body)).toEqual({ from: "auth@acme.dev", to: TO, subject: message.subject, html: message.html, text: message.text })
  })

  it("a refusal from the API is an EmailSendError with the status, and no body or key in the message", async () => {
    server.respondWith(401, { message: `invalid key ${KEY}` })
    const error = await send(Resend({ from: "a@acme.dev" }), { AUTH_RESEND_KEY: KEY }).then(
      () => undefined,
      (caught: unknown) => caught
    )
    expect(error).toBeInstanceOf(EmailSendError)
    expect(error).toMatchObject({ code: "ERR_EMAIL_SEND", status: 401, provider: "resend" })
    expect((error as Error).message).not.toContain(KEY)
  })

  it.each([
    ["no API key", Resend({ from: "a@acme.dev" }), {}, "apiKey", 'Provider "resend": no API key: pass apiKey, or set AUTH_RESEND_KEY.'],
    ["no sender", Resend(), { AUTH_RESEND_KEY: KEY }, "from", 'Provider "resend": no sender: pass from, such as "Acme <auth@acme.dev>".'],
    ["no transactional id", Loops(), { AUTH_LOOPS_KEY: KEY }, "transactionalId", 'Provider "loops": no transactional email: pass transactionalId.'],
  ])("%s is a configuration error", async (_, config, env, field, text) => {
    const error = await send(config, env).then(
      () => undefined,
      (caught: unknown) => caught
    )
    expect(error).toBeInstanceOf(InvalidProviderError)
    expect(error).toMatchObject({ field, message: text })
    expect(server.requests).toHaveLength(0)
  })
})

describe("the verification message", () => {
  it("escapes the link and the brand colour in HTML", () => {
    const { html, text, subject } = verificationMessage({ url: 'https://app.example.com/cb?x="><script>', theme: { brandColor: '"red' } })
    expect(html).not.toContain("<script>")
    expect(html).toContain("&quot;&gt;&lt;script&gt;")
    expect(html).not.toContain('background:"red')
    expect(text).toContain('https://app.example.com/cb?x="><script>')
    expect(subject).toBe("Sign in to app.example.com")
  })
})
