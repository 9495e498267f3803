// A real HTTP server on 127.0.0.1 that records every request it receives and answers with a
// configurable status and JSON body. Tests point providers at it through their `fetch` option,
// which also records the URL the provider meant to call.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"

export interface RecordedRequest {
  /** The URL the code under test asked for (before redirection to this server). */
  intendedUrl: string
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: string
}

export interface RecordingServer {
  requests: RecordedRequest[]
  /** A fetch that sends every request to this server, remembering the intended URL. */
  fetch: typeof fetch
  respondWith(status: number, body?: unknown): void
  close(): Promise<void>
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = []
  const intended: string[] = []
  let reply = { status: 200, body: {} as unknown }
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      requests.push({
        intendedUrl: intended.shift() ?? "",
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      })
      response.writeHead(reply.status, { "content-type": "application/json" })
      response.end(JSON.stringify(reply.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  const forward: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    intended.push(url.href)
    return fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, init)
  }
  return {
    requests,
    fetch: forward,
    respondWith(status, body = {}) {
      reply = { status, body }
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  }
}
