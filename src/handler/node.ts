/**
 * `latchkey/node`: the bridge between Node's `http` (and Express, which builds on it) and
 * latchkey's Web-standard handler. Node-only, so it lives on its own subpath.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"

/**
 * A Web-standard handler, such as `createAuth(...).handler`.
 *
 * @example
 * ```ts
 * import { toWebHandler, type WebHandler } from "latchkey/node"
 * const logged: WebHandler = async (request) => {
 *   console.info(request.method, new URL(request.url).pathname)
 *   return handler(request) // createAuth(...).handler
 * }
 * app.use("/auth", toWebHandler(logged)) // Express
 * ```
 */
export type WebHandler = (request: Request) => Promise<Response>

/** Express-like requests: `originalUrl` keeps the mount path, `body` may have been parsed already. */
interface NodeRequest extends IncomingMessage {
  originalUrl?: string
  body?: unknown
}

function requestBody(req: NodeRequest): BodyInit | undefined {
  if (req.method === "GET" || req.method === "HEAD") return undefined
  // A body parser that ran first has consumed the stream; rebuild the form from what it parsed.
  if (req.readableEnded || req.body !== undefined) {
    if (typeof req.body === "string" || req.body instanceof Uint8Array) return req.body as BodyInit
    if (typeof req.body === "object" && req.body !== null) {
      const json = (req.headers["content-type"] ?? "").includes("application/json")
      return json ? JSON.stringify(req.body) : new URLSearchParams(req.body as Record<string, string>)
    }
    return undefined
  }
  return Readable.toWeb(req) as ReadableStream<Uint8Array>
}

/**
 * The Web Request for a Node request.
 *
 * Exported from `latchkey/node`.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http"
 * import { toWebRequest } from "latchkey/node"
 * createServer(async (req, res) => {
 *   const session = await auth(toWebRequest(req))
 *   res.end(session ? `Hello, ${session.user?.name}` : "Signed out")
 * }).listen(3000)
 * ```
 */
export function toWebRequest(req: NodeRequest): Request {
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true
  const url = new URL(req.originalUrl ?? req.url ?? "/", `${encrypted ? "https" : "http"}://${req.headers.host ?? "localhost"}`)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else if (value !== undefined) headers.set(name, value)
  }
  const body = requestBody(req)
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, body }
  if (body instanceof ReadableStream) init.duplex = "half"
  return new Request(url, init)
}

/**
 * Writes a Web Response to a Node response.
 *
 * Exported from `latchkey/node`.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http"
 * import { sendWebResponse, toWebRequest } from "latchkey/node"
 * createServer(async (req, res) => {
 *   if (!req.url?.startsWith("/auth/")) return void res.writeHead(404).end()
 *   await sendWebResponse(res, await handler(toWebRequest(req)))
 * }).listen(3000)
 * ```
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value)
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) res.setHeader("set-cookie", cookies)
  if (response.body === null) return void res.end()
  res.end(Buffer.from(await response.arrayBuffer()))
}

/**
 * Wraps a Web handler as a `node:http` / Express handler. Errors go to `next` when Express
 * provides it, else become a 500.
 *
 * Exported from `latchkey/node`.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http"
 * import { createAuth } from "latchkey"
 * import { toWebHandler } from "latchkey/node"
 * const { handler } = createAuth({ providers, trustHost: true })
 * createServer(toWebHandler(handler)).listen(3000)
 * // Express: app.use("/auth", toWebHandler(handler)) — before any body parser
 * ```
 */
export function toWebHandler(handler: WebHandler) {
  return (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void => {
    Promise.resolve()
      .then(() => handler(toWebRequest(req)))
      .then((response) => sendWebResponse(res, response))
      .catch((error: unknown) => {
        if (next) return next(error)
        res.statusCode = 500
        res.end()
      })
  }
}
