// A local HTTP server that plays any provider for the contract suite. Tests route every request
// for the provider's real hosts here (through the `fetch` option); the server answers by path from
// a route table: discovery, JWKS, token and userinfo for OpenID Connect, token, userinfo and any
// extra API paths for OAuth 2.0. Every request is recorded.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"

export interface DoubleRequest {
  method: string
  /** The URL the provider code meant to reach. */
  url: string
  headers: IncomingHttpHeaders
  body: string
}

/** A route: a fixed JSON body, or a function of the request. */
export type Route = unknown | ((request: DoubleRequest) => { status?: number; body: unknown; contentType?: string })

export interface ProviderDouble {
  routes: Map<string, Route>
  requests: DoubleRequest[]
  fetch: typeof fetch
  close(): Promise<void>
}

export async function startProviderDouble(): Promise<ProviderDouble> {
  const routes = new Map<string, Route>()
  const requests: DoubleRequest[] = []
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
    incoming.on("end", () => {
      const original = new URL(incoming.url ?? "/", `https://${incoming.headers["x-original-host"]}`)
      const request: DoubleRequest = { method: incoming.method ?? "GET", url: original.href, headers: incoming.headers, body: Buffer.concat(chunks).toString("utf8") }
      requests.push(request)
      const route = routes.get(`${original.origin}${original.pathname}`) ?? routes.get(original.pathname)
      if (route === undefined) {
        response.writeHead(404, { "content-type": "application/json" })
        response.end(JSON.stringify({ error: "not_found", path: original.pathname }))
        return
      }
      const answer = typeof route === "function" ? (route as (request: DoubleRequest) => { status?: number; body: unknown; contentType?: string })(request) : { body: route }
      const contentType = answer.contentType ?? "application/json"
      response.writeHead(answer.status ?? 200, { "content-type": contentType })
      response.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  const forward: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined))
    headers.set("x-original-host", url.host)
    return fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, { ...init, method: init?.method ?? (input instanceof Request ? input.method : "GET"), headers })
  }
  return {
    routes,
    requests,
    fetch: forward,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
