// The Node bridge with a real node:http server and a real Express app on 127.0.0.1.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import express from "express"
import { afterEach, describe, expect, it } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import { toWebHandler } from "../../src/integrations/node.js"
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
  // The session is bound to the browser it was made in: its CSRF cookie goes along, as a browser's would.
  return (await fetch(`${base}/auth/session`, { headers: { cookie: `${session}; ${csrfCookie}` } })).json()
}

/** An Express app whose /echo answers the body (and its type and length) the Web handler received, behind `parser`. */
async function echoBehind(parser: express.RequestHandler | ((req: { body?: unknown }, res: unknown, next: () => void) => void)): Promise<string> {
  const application = express()
  application.use(parser as express.RequestHandler)
  application.use(
    "/echo",
    toWebHandler(async (request) => {
      const headers = { "x-type": request.headers.get("content-type") ?? "", "x-length": request.headers.get("content-length") ?? "none" }
      return new Response(await request.text(), { headers })
    }),
  )
  return listen(createServer(application))
}

async function post(base: string, type: string, body: string) {
  const response = await fetch(`${base}/echo`, { method: "POST", headers: { "content-type": type }, body })
  const text = await response.text()
  const length = response.headers.get("x-length")
  return { text, pairs: [...new URLSearchParams(text)], type: response.headers.get("x-type"), length: length === "none" ? null : length }
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

  it("keeps repeated form fields as repeated keys after express.urlencoded({ extended: false })", async () => {
    const base = await echoBehind(express.urlencoded({ extended: false }))
    const echoed = await post(base, "application/x-www-form-urlencoded", "nums=1&nums=2&name=Ada&tag%5B%5D=x&tag%5B%5D=y")
    expect(echoed.pairs).toEqual([["nums", "1"], ["nums", "2"], ["name", "Ada"], ["tag[]", "x"], ["tag[]", "y"]])
    expect(echoed.type).toBe("application/x-www-form-urlencoded;charset=UTF-8")
    expect(echoed.length).toBeNull()
  })

  it("writes extended: true arrays as repeated keys and nested objects as bracketed keys", async () => {
    const base = await echoBehind(express.urlencoded({ extended: true }))
    const sent = "nums=1&nums=2&a%5Bb%5D=c&a%5Bd%5D%5B%5D=1&a%5Bd%5D%5B%5D=2&list%5B0%5D%5Bx%5D=1&list%5B1%5D%5Bx%5D=2&empty="
    const echoed = await post(base, "application/x-www-form-urlencoded", sent)
    expect(echoed.pairs).toEqual([
      ["nums", "1"],
      ["nums", "2"],
      ["a[b]", "c"],
      ["a[d]", "1"],
      ["a[d]", "2"],
      ["list[0][x]", "1"],
      ["list[1][x]", "2"],
      ["empty", ""],
    ])
  })

  it("keeps a JSON body, nested values included, after express.json()", async () => {
    const base = await echoBehind(express.json())
    const sent = { csrfToken: "t", data: { theme: "dark", tags: ["a", "b"] }, count: 2 }
    const echoed = await post(base, "application/json", JSON.stringify(sent))
    expect(JSON.parse(echoed.text)).toEqual(sent)
  })

  it("reads the stream when a middleware set req.body without consuming it (as Express 4's parsers do)", async () => {
    const base = await echoBehind((req: { body?: unknown }, _res: unknown, next: () => void) => {
      req.body ??= {}
      next()
    })
    const echoed = await post(base, "application/x-www-form-urlencoded", "nums=1&nums=2")
    expect(echoed.pairs).toEqual([["nums", "1"], ["nums", "2"]])
  })

  it("works after an Express body parser has consumed the form", async () => {
    const application = express()
    application.use(express.urlencoded({ extended: false }))
    application.use("/auth", toWebHandler(auth().handler))
    const base = await listen(createServer(application))
    expect(await signInOver(base)).toMatchObject({ user: { name: "Ada" } })
  })
})
