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

/**
 * Writes one parsed field back as form fields, the inverse of what a body parser did: an array
 * becomes the repeated key it was parsed from (`nums=1&nums=2`), and a nested object, which only
 * `express.urlencoded({ extended: true })` (qs) produces, becomes bracketed keys as qs writes them
 * (`a[b]=c`; an object inside an array keeps its index, `a[0][b]=c`).
 */
function appendField(form: URLSearchParams, key: string, value: unknown): void {
  if (value === undefined) return
  if (Array.isArray(value)) {
    value.forEach((item: unknown, index) => appendField(form, typeof item === "object" && item !== null ? `${key}[${index}]` : key, item))
  } else if (typeof value === "object" && value !== null) {
    for (const [name, item] of Object.entries(value)) appendField(form, `${key}[${name}]`, item)
  } else {
    form.append(key, value === null ? "" : String(value))
  }
}

/**
 * The body of a Node request. A body parser that ran first has consumed the stream, so the body is
 * rebuilt from what it parsed: text and bytes as they are, an object as JSON for a JSON request and
 * as a form otherwise (see {@link appendField}). The rebuilt body's length and type replace the
 * original headers. A parser that set `req.body` without reading the stream (Express 4 sets `{}`
 * for a type it does not handle) is ignored, and the stream is read.
 */
function requestBody(req: NodeRequest, headers: Headers): BodyInit | undefined {
  if (req.method === "GET" || req.method === "HEAD") return undefined
  if (!req.readableEnded && (req.body === undefined || req.readable)) return Readable.toWeb(req) as ReadableStream<Uint8Array>
  headers.delete("content-length")
  headers.delete("transfer-encoding")
  const body = req.body
  if (typeof body === "string" || body instanceof Uint8Array) return body as BodyInit
  if (typeof body !== "object" || body === null) return undefined
  if ((headers.get("content-type") ?? "").includes("application/json")) return JSON.stringify(body)
  const form = new URLSearchParams()
  for (const [key, value] of Object.entries(body)) appendField(form, key, value)
  headers.set("content-type", "application/x-www-form-urlencoded;charset=UTF-8")
  return form
}

/**
 * The request's URL on its Host. A Host that is no host (`a b`, `[::1`) must not throw here: the
 * request is built on localhost, keeping its Host header, so the handler answers it 400 and `auth()`
 * answers null, as for any request; a throw would be a 500 anyone could cause on every route.
 */
function requestUrl(target: string, scheme: string, host: string | undefined): URL {
  try {
    return new URL(target, `${scheme}${host ?? "localhost"}`)
  } catch {
    return new URL(target.startsWith("/") ? target : "/", `${scheme}localhost`)
  }
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
  const url = requestUrl(req.originalUrl ?? req.url ?? "/", `${encrypted ? "https" : "http"}://`, req.headers.host)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else if (value !== undefined) headers.set(name, value)
  }
  const body = requestBody(req, headers)
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
 * Mount it before any body parser when you can. After one (`express.urlencoded()`,
 * `express.json()`), the body is rebuilt from `req.body`: repeated form fields stay repeated keys
 * (`nums=1&nums=2`), nested objects from `extended: true` become bracketed keys (`a[b]=c`), and
 * JSON stays JSON. Keys the parser rewrote cannot be told apart: `a[]=1&a[]=2` comes back as
 * `a=1&a=2` with `extended: true`.
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
