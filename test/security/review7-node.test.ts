// Review 7: latchkey/node (the Node/Express bridge) and the handler's host trust as a Node app meets it.
// Real node:http / Express servers on 127.0.0.1, real fetch (or raw sockets where fetch cannot say it).
import { createServer, type Server } from "node:http"
import { connect } from "node:net"
import type { AddressInfo } from "node:net"
import express from "express"
import { afterEach, describe, expect, it } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import { toWebHandler, toWebRequest } from "../../src/integrations/node.js"
import Credentials from "../../src/providers/credentials.js"
import GitHub from "../../src/providers/github.js"

const SECRET = "latchkey-review7-node-secret-0123456789abcdef"
const servers: Server[] = []
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections()
          server.close(resolve)
        }),
    ),
  )
})

type Extra = Parameters<typeof createAuth>[0]
function makeAuth(extra: Partial<Extra> = {}) {
  return createAuth({
    secret: SECRET,
    env: {},
    logger: { error() {}, warn() {}, debug() {} },
    providers: [
      Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: "u1", name: String(username) }) }),
      GitHub({ clientId: "id", clientSecret: "secret" }),
    ],
    ...extra,
  } as Extra)
}

async function listen(server: Server): Promise<{ base: string; port: number }> {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return { base: `http://127.0.0.1:${port}`, port }
}

/** Sends raw bytes on a socket and answers everything the server wrote back until it closed (or `ms` passed). */
function raw(port: number, bytes: string | Buffer, endAfter = true): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1")
    const chunks: Buffer[] = []
    socket.on("data", (chunk) => {
      chunks.push(chunk)
      if (endAfter && Buffer.concat(chunks).toString("latin1").includes("\r\n\r\n")) {
        // read what follows the head, then stop
        setTimeout(() => socket.destroy(), 50)
      }
    })
    socket.on("error", () => {})
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")))
    socket.write(bytes)
  })
}

async function callbackOrigin(base: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${base}/auth/providers`, { headers })
  const providers = (await response.json()) as Record<string, { callbackUrl: string }>
  return new URL(providers.github!.callbackUrl).origin
}

/** The first line of a raw HTTP answer, such as `HTTP/1.1 400 Bad Request`. */
const statusLine = (answer: string) => answer.split("\r\n")[0]

describe("host trust through the Node bridge", () => {
  it("X-Forwarded-Host spoof without trustHost or AUTH_URL: the handler builds no origin from it (400 Untrusted host)", async () => {
    const { handler } = makeAuth()
    const { base } = await listen(createServer(toWebHandler(handler)))
    const response = await fetch(`${base}/auth/providers`, { headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" } })
    expect(response.status).toBe(400)
    expect(await response.text()).not.toContain("evil.example")
  })

  it("X-Forwarded-Host and a forged Host with AUTH_URL pinned: callback URLs stay on AUTH_URL's origin", async () => {
    const { handler } = makeAuth({ env: { AUTH_URL: "https://app.example.com/auth" } })
    const { port } = await listen(createServer(toWebHandler(handler)))
    const answer = await raw(port, `GET /auth/providers HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: http\r\nConnection: close\r\n\r\n`)
    expect(statusLine(answer)).toBe("HTTP/1.1 200 OK")
    expect(answer).toContain("https://app.example.com/auth/callback/github")
    expect(answer).not.toContain("evil.example")
  })

  it("absolute-form request target (GET http://evil.example/auth/providers) does not move the origin off the Host header", async () => {
    const { handler } = makeAuth({ trustHost: true })
    const { port } = await listen(createServer(toWebHandler(handler)))
    const answer = await raw(port, `GET http://evil.example/auth/providers HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`)
    expect(statusLine(answer)).toBe("HTTP/1.1 200 OK")
    expect(answer).toContain(`http://127.0.0.1:${port}/auth/callback/github`)
    expect(answer).not.toContain("evil.example")
  })

  it("behind an appending proxy (trustedProxy hops 1, as Apache appends X-Forwarded-Host), a client-prepended X-Forwarded-Host: evil.example does not become the OAuth callback origin", async () => {
    // The client sent `X-Forwarded-Host: evil.example`; the app's one proxy appended the host it saw, as it appends
    // to X-Forwarded-For. The client IP is read from the right (hops 1); the host the proxy vouches for is on the right too.
    const { handler } = makeAuth({ trustedProxy: { header: "x-forwarded-for", hops: 1 } })
    const { base } = await listen(createServer(toWebHandler(handler)))
    const origin = await callbackOrigin(base, { "x-forwarded-host": "evil.example, app.example.com", "x-forwarded-for": "198.51.100.1, 203.0.113.9" })
    expect(origin).not.toBe("http://evil.example")
    expect(origin).toBe("http://app.example.com")
  })

  it("a forwarded list is read as deep as trustedProxy says (hops 2: the second from the right), and refused under trustHost alone", async () => {
    const deep = makeAuth({ trustedProxy: { header: "x-forwarded-for", hops: 2 } })
    const { base } = await listen(createServer(toWebHandler(deep.handler)))
    const headers = { "x-forwarded-host": "evil.example, app.example.com, lb.internal", "x-forwarded-proto": "http, https, http" }
    expect(await callbackOrigin(base, headers)).toBe("https://app.example.com")
    // With no hop count, the left-most entry may be the client's: no origin is built from a list.
    const trusting = makeAuth({ trustHost: true })
    const other = await listen(createServer(toWebHandler(trusting.handler)))
    expect((await fetch(`${other.base}/auth/providers`, { headers: { "x-forwarded-host": "evil.example, app.example.com" } })).status).toBe(400)
    expect((await fetch(`${other.base}/auth/providers`, { headers: { "x-forwarded-proto": "http, https" } })).status).toBe(400)
    expect(await callbackOrigin(other.base, { "x-forwarded-host": "app.example.com", "x-forwarded-proto": "https" })).toBe("https://app.example.com")
  })

  it("a junk Host header (`a b`) through toWebHandler gets the handler's 400, not a bare 500 from the bridge throwing in new URL", async () => {
    const { handler } = makeAuth({ trustHost: true })
    const { port } = await listen(createServer(toWebHandler(handler)))
    const answer = await raw(port, `GET /auth/csrf HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n`)
    expect(statusLine(answer)).toMatch(/^HTTP\/1\.1 400 /)
  })

  it("a junk Host header does not make toWebRequest(req) throw: auth(toWebRequest(req)) in an app route answers null, not a 500 for anyone who sends one", async () => {
    let thrown: unknown
    const { auth } = makeAuth({ trustHost: true })
    const { port } = await listen(
      createServer((req, res) => {
        Promise.resolve()
          .then(() => auth(toWebRequest(req)))
          .then((session) => res.writeHead(session ? 200 : 401).end())
          .catch((error: unknown) => {
            thrown = error
            res.writeHead(500).end()
          })
      }),
    )
    const answer = await raw(port, `GET /me HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n`)
    expect(thrown).toBeUndefined()
    expect(statusLine(answer)).toBe("HTTP/1.1 401 Unauthorized")
  })
})

describe("bodies through the Node bridge", () => {
  it("a body declaring 10 MB is refused with 413, answered (not a reset) and never buffered", async () => {
    const { handler } = makeAuth({ trustHost: true })
    const { port } = await listen(createServer(toWebHandler(handler)))
    const answer = await raw(port, `POST /auth/signin/credentials HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000000\r\n\r\n${"x".repeat(100_000)}`)
    expect(statusLine(answer)).toBe("HTTP/1.1 413 Payload Too Large")
  })

  it("a chunked body of 192 KiB with no Content-Length is cut off at the limit with 413", async () => {
    const { handler } = makeAuth({ trustHost: true })
    const { base } = await listen(createServer(toWebHandler(handler)))
    const big = "a=" + "x".repeat(192 * 1024)
    const body = new ReadableStream({ start: (controller) => (controller.enqueue(new TextEncoder().encode(big)), controller.close()) })
    const response = await fetch(`${base}/auth/signin/credentials`, { method: "POST", body, duplex: "half", headers: { "content-type": "application/x-www-form-urlencoded" } } as RequestInit)
    expect(response.status).toBe(413)
  })

  it("a client that hangs up mid-body does not take the server down (no unhandled rejection; the next request is served)", async () => {
    const { handler } = makeAuth({ trustHost: true })
    const { base, port } = await listen(createServer(toWebHandler(handler)))
    await new Promise<void>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.write(`POST /auth/signin/credentials HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ncsrfToken=`)
        setTimeout(() => {
          socket.destroy()
          setTimeout(resolve, 50)
        }, 30)
      })
      socket.on("error", () => {})
    })
    expect((await fetch(`${base}/auth/csrf`)).status).toBe(200)
  })

  it("express.urlencoded({ extended: true }) before the handler: a smuggled __proto__[x] and an object callbackUrl[a] neither pollute Object.prototype nor redirect off-site", async () => {
    const { handler } = makeAuth({ trustHost: true })
    const app = express()
    app.use(express.urlencoded({ extended: true }))
    app.use("/auth", toWebHandler(handler))
    const { base } = await listen(createServer(app))
    const csrf = await fetch(`${base}/auth/csrf`)
    const cookie = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const body = `csrfToken=${csrfToken}&username=Ada&callbackUrl[a]=https://evil.example/&__proto__[polluted]=1`
    const response = await fetch(`${base}/auth/signin/credentials`, { method: "POST", redirect: "manual", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body })
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).origin).toBe(base)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe("responses through the Node bridge", () => {
  it("several Set-Cookie headers are sent as separate lines, never merged into one (a merged line loses every cookie but the first)", async () => {
    const responseHandler = toWebHandler(async () => {
      const headers = new Headers()
      headers.append("set-cookie", "a=1; Path=/; HttpOnly")
      headers.append("set-cookie", "b=2; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT")
      return new Response("ok", { headers })
    })
    const { port: other } = await listen(createServer(responseHandler))
    const answer = await raw(other, `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    const lines = answer.split("\r\n").filter((line) => line.toLowerCase().startsWith("set-cookie:"))
    expect(lines).toEqual(["set-cookie: a=1; Path=/; HttpOnly", "set-cookie: b=2; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT"])
  })

  it("a HEAD on a callback URL (a mail scanner's probe of a magic link) is refused with 405 through the bridge", async () => {
    const { handler } = makeAuth({ trustHost: true })
    const { base } = await listen(createServer(toWebHandler(handler)))
    const response = await fetch(`${base}/auth/callback/github?code=c&state=s`, { method: "HEAD" })
    expect(response.status).toBe(405)
  })

  it("non-ASCII bytes in Cookie and other headers are read, not answered with a 500", async () => {
    const { handler } = makeAuth({ trustHost: true })
    const { port } = await listen(createServer(toWebHandler(handler)))
    const request = Buffer.concat([
      Buffer.from("GET /auth/session HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nCookie: authjs.session-token="),
      Buffer.from("é€", "utf8"),
      Buffer.from("\r\nX-Name: \xff\x80\r\n\r\n", "latin1"),
    ])
    expect(statusLine(await raw(port, request))).toBe("HTTP/1.1 200 OK")
  })

  it("a handler that throws an error carrying a secret: without Express's next the answer is a bare 500, no stack and no secret", async () => {
    const { port } = await listen(
      createServer(
        toWebHandler(async () => {
          throw new Error(`database down: password=${SECRET}`)
        }),
      ),
    )
    const answer = await raw(port, `GET /auth/session HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    expect(statusLine(answer)).toBe("HTTP/1.1 500 Internal Server Error")
    expect(answer).not.toContain(SECRET)
    expect(answer).not.toMatch(/at .*node\.ts|Error:/)
  })
})
