// Nodemailer against a real SMTP server (smtp-server) on 127.0.0.1.
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { resolveProvider } from "../../src/providers/core/resolve.js"
import Email from "../../src/providers/email/email.js"
import Nodemailer from "../../src/providers/email/nodemailer.js"
import type { EmailConfig } from "../../src/providers/email/types.js"

interface Received {
  from: string
  to: string[]
  data: string
}

const received: Received[] = []
let server: SMTPServer
let port: number

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith("@rejected.example")) return callback(new Error("550 no such user"))
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((entry) => entry.address),
          data: Buffer.concat(chunks).toString("utf8"),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  port = (server.server.address() as AddressInfo).port
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

async function sendWith(config: EmailConfig, to: string) {
  const provider = resolveProvider(config, { baseUrl: "https://app.example.com", env: {} }) as EmailConfig
  await provider.sendVerificationRequest({
    identifier: to,
    url: "https://app.example.com/auth/callback/nodemailer?token=t0k3n",
    expires: new Date(Date.now() + 3_600_000),
    provider,
    token: "t0k3n",
    theme: {},
    request: new Request("https://app.example.com/"),
  })
}

describe("Nodemailer over SMTP", () => {
  it("delivers the sign-in link to the SMTP server", async () => {
    await sendWith(Nodemailer({ server: { host: "127.0.0.1", port, secure: false, ignoreTLS: true }, from: "Acme <auth@acme.dev>" }), "ada@example.com")
    const message = received.at(-1)!
    expect(message.from).toBe("auth@acme.dev")
    expect(message.to).toEqual(["ada@example.com"])
    expect(message.data).toMatch(/^Subject: Sign in to app\.example\.com/m)
    expect(message.data.replace(/=\r?\n/g, "")).toContain("https://app.example.com/auth/callback/nodemailer?token=3Dt0k3n")
  })

  it("accepts an SMTP URL, and `email` is the same provider under its own id", async () => {
    const email = Email({ server: `smtp://127.0.0.1:${port}?ignoreTLS=true`, from: "auth@acme.dev" })
    expect([email.id, email.type]).toEqual(["email", "email"])
    await sendWith(email, "grace@example.com")
    expect(received.at(-1)!.to).toEqual(["grace@example.com"])
  })

  it("a recipient the server rejects is an error, not a silent success", async () => {
    const config = Nodemailer({ server: { host: "127.0.0.1", port, secure: false, ignoreTLS: true }, from: "auth@acme.dev" })
    await expect(sendWith(config, "nobody@rejected.example")).rejects.toThrow()
  })

  it("without a server it is a configuration error naming the field", async () => {
    await expect(sendWith(Nodemailer({ from: "auth@acme.dev" }), "a@b.c")).rejects.toMatchObject({ code: "ERR_INVALID_PROVIDER", field: "server" })
  })
})
