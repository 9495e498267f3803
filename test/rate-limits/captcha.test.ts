// The captcha recipes against a local HTTP server that speaks the siteverify protocol (what
// Turnstile, hCaptcha and reCAPTCHA answer): a form POST of secret, response and remoteip, and
// `{ success, score?, action? }` back. Then the hook end to end: a credentials sign-in with
// Turnstile's field, through the handler.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hcaptcha, recaptcha, turnstile } from "../../src/rate-limits/captcha.js"
import { attempt, limitedApp, signedIn } from "./support.js"

const SECRET = "captcha-secret"
const received: URLSearchParams[] = []
let server: Server
let url = ""

/** A siteverify server: `human` passes, `scored-<n>` passes with score n and action "login", `down` answers 503. */
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = ""
    request.on("data", (chunk) => (body += chunk))
    request.on("end", () => {
      const form = new URLSearchParams(body)
      received.push(form)
      const token = form.get("response") ?? ""
      if (token === "down") return void response.writeHead(503).end()
      const ok = request.method === "POST" && form.get("secret") === SECRET
      const answer = token.startsWith("scored-") ? { success: ok, score: Number(token.slice(7)), action: "login" } : { success: ok && token === "human", "error-codes": ok ? [] : ["invalid-input-secret"] }
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const request = new Request("https://app.example.com/auth/callback/credentials")

describe("captcha recipes over siteverify", () => {
  it("turnstile and hcaptcha: success only for an accepted token under the right secret; remoteip is sent", async () => {
    for (const make of [turnstile, hcaptcha]) {
      expect(await make(SECRET, { url })("human", { clientIp: "198.51.100.7", request })).toBe(true)
      expect(received.at(-1)?.get("remoteip")).toBe("198.51.100.7")
      expect(await make(SECRET, { url })("bot", { clientIp: undefined, request })).toBe(false)
      expect(await make("wrong-secret", { url })("human", { clientIp: undefined, request })).toBe(false)
    }
  })

  it("fails closed: a service that is down or unreachable refuses", async () => {
    expect(await turnstile(SECRET, { url })("down", { clientIp: undefined, request })).toBe(false)
    await expect(turnstile(SECRET, { url: "http://127.0.0.1:1/siteverify" })("human", { clientIp: undefined, request })).rejects.toThrow()
  })

  it("recaptcha v3: the score and the action must pass too", async () => {
    expect(await recaptcha(SECRET, { url, minScore: 0.5, action: "login" })("scored-0.9", { clientIp: undefined, request })).toBe(true)
    expect(await recaptcha(SECRET, { url, minScore: 0.5, action: "login" })("scored-0.3", { clientIp: undefined, request })).toBe(false)
    expect(await recaptcha(SECRET, { url, action: "signup" })("scored-0.9", { clientIp: undefined, request })).toBe(false)
  })

  it("end to end: Turnstile on credentials, its widget's field, through the handler", async () => {
    const { auth, seen } = limitedApp({ limits: { captcha: { routes: ["credentials"], verify: turnstile(SECRET, { url }), field: "cf-turnstile-response" } } })
    expect((await attempt(auth, { ip: "198.51.100.1", password: "lovelace" })).status).toBe(403)
    expect((await attempt(auth, { ip: "198.51.100.1", password: "lovelace", fields: { "cf-turnstile-response": "down" } })).status).toBe(403)
    expect(seen.authorize).toBe(0)
    expect(signedIn(await attempt(auth, { ip: "198.51.100.1", password: "lovelace", fields: { "cf-turnstile-response": "human" } }))).toBe(true)
    expect(seen.warnings.filter(({ code }) => code === "ERR_CAPTCHA_FAILED")).toHaveLength(2)
  })
})
