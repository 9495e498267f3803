// The Node bridge with a real node:http server and a real Express app on 127.0.0.1.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import express from "express"
import { afterEach, describe, expect, it } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import { toWebHandler } from "../../src/handler/node.js"
import Credentials from "../../src/providers/credentials.js"

const SECRET = "latchkey-test-secret-0123456789abcdef"
const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

function auth() {
  return createAuth({
    secret: SECRET,
    trustHost: true,
    env: {},
    providers: [Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: "u1", name: String(username) }) })],
  })
}

async function listen(server: Server): Promise<string> {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** Signs in with credentials over real HTTP and reads the session back. */
async function signInOver(base: string): Promise<unknown> {
  const csrfResponse = await fetch(`${base}/auth/csrf`)
  const csrfCookie = csrfResponse.headers.getSetCookie()[0]!.split(";")[0]!
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string }
  const signIn = await fetch(`${base}/auth/signin/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, username: "Ada" }),
  })
  expect(signIn.status).toBe(302)
  const session = signIn.headers.getSetCookie().find((line) => line.startsWith("authjs.session-token="))!.split(";")[0]!
  return (await fetch(`${base}/auth/session`, { headers: { cookie: session } })).json()
}

describe("toWebHandler", () => {
  it("serves the handler on node:http, cookies and form bodies included", async () => {
    const base = await listen(createServer(toWebHandler(auth().handler)))
    expect(await signInOver(base)).toMatchObject({ user: { name: "Ada" } })
  })

  it("serves the handler mounted in Express, keeping the mount path", async () => {
    const application = express()
    application.use("/auth", toWebHandler(auth().handler))
    application.get("/", (_req, res) => void res.send("home"))
    const base = await listen(createServer(application))
    expect(await signInOver(base)).toMatchObject({ user: { name: "Ada" } })
  })

  it("works after express.json() has consumed a JSON body (session update)", async () => {
    const application = express()
    application.use(express.json())
    const { handler } = auth()
    application.use("/auth", toWebHandler(handler))
    const base = await listen(createServer(application))
    const csrfResponse = await fetch(`${base}/auth/csrf`)
    const cookie = csrfResponse.headers.getSetCookie()[0]!.split(";")[0]!
    const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string }
    const update = await fetch(`${base}/auth/session`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ csrfToken }) })
    expect(update.status).toBe(200)
    expect(await update.json()).toBeNull()
  })

  it("works after an Express body parser has consumed the form", async () => {
    const application = express()
    application.use(express.urlencoded({ extended: false }))
    application.use("/auth", toWebHandler(auth().handler))
    const base = await listen(createServer(application))
    expect(await signInOver(base)).toMatchObject({ user: { name: "Ada" } })
  })
})
