// docs/frameworks/express.md, checked against a real Express app on 127.0.0.1: with express.json()
// and express.urlencoded() mounted BEFORE latchkey, a signed-in JSON `POST /auth/session` (the
// session update) still answers 200, and the form-posted sign-in and sign-out still work.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import express from "express"
import { describe, expect, it, onTestFinished } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import { toWebHandler } from "../../src/integrations/node.js"
import Credentials from "../../src/providers/credentials.js"

const SECRET = "latchkey-test-secret-0123456789abcdef"

/** The guide's app, but with both body parsers mounted first; answers its base URL. */
async function appWithParsersFirst(): Promise<string> {
  const { handler } = createAuth({
    secret: SECRET,
    trustHost: true,
    env: {},
    providers: [Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: "u1", name: String(username) }) })],
    callbacks: {
      jwt: ({ token, trigger, session }) => {
        const name = typeof session === "object" && session !== null && "name" in session ? session.name : undefined
        return trigger === "update" && typeof name === "string" ? { ...token, name } : token
      },
    },
  })
  const app = express()
  app.use(express.json())
  app.use(express.urlencoded({ extended: false }))
  app.use("/auth", toWebHandler(handler))
  const server: Server = createServer(app)
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const pair = (setCookie: string) => setCookie.split(";")[0]!

describe("the Express guide: body parsers before latchkey", () => {
  it("a signed-in JSON POST /auth/session after express.json() answers 200 with the updated session", async () => {
    const base = await appWithParsersFirst()
    const csrfResponse = await fetch(`${base}/auth/csrf`)
    const csrfCookie = pair(csrfResponse.headers.getSetCookie()[0]!)
    const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string }
    const form = { cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded" }
    const signIn = await fetch(`${base}/auth/signin/credentials`, { method: "POST", redirect: "manual", headers: form, body: new URLSearchParams({ csrfToken, username: "Ada" }) })
    expect(signIn.status).toBe(302)
    const sessionCookie = signIn.headers.getSetCookie().find((line) => line.startsWith("authjs.session-token="))
    expect(sessionCookie).toBeDefined()
    const cookie = `${csrfCookie}; ${pair(sessionCookie!)}`

    const update = await fetch(`${base}/auth/session`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ csrfToken, data: { name: "Grace" } }) })
    expect(update.status).toBe(200)
    expect(await update.json()).toMatchObject({ user: { name: "Grace" } })

    const signOut = await fetch(`${base}/auth/signout`, { method: "POST", redirect: "manual", headers: { ...form, cookie }, body: new URLSearchParams({ csrfToken }) })
    expect(signOut.status).toBe(302)
    expect(signOut.headers.getSetCookie().some((line) => line.startsWith("authjs.session-token=;"))).toBe(true)
  })
})
