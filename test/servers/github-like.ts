// A small server that behaves like GitHub's OAuth endpoints and REST API, for the OAuth 2.0 flow
// tests: authorize (with the RFC 9207 iss parameter), token (JSON or form-encoded answers, PKCE
// S256, single-use codes), /user, and /user/emails for users whose email is private.
import { createHash, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface GitHubLikeUser {
  id: number
  login: string
  name: string | null
  /** The public email; null for a private one. */
  email: string | null
  avatar_url: string
  emails: { email: string; primary: boolean; verified: boolean; visibility: "public" | "private" | null }[]
}

export interface GitHubLikeOptions {
  clientId: string
  clientSecret: string
  user: GitHubLikeUser
  /** Answer the token request form-encoded even when JSON is asked for. */
  formTokenResponse?: boolean
  /** Leave the iss parameter off the callback. */
  omitIss?: boolean
  /** The iss value to send. Default: `<baseUrl>/login/oauth`, as GitHub Enterprise would. */
  iss?: string
}

export interface GitHubLike {
  /** The server's base URL: use it as GitHub Enterprise's `baseUrl`. */
  baseUrl: string
  /** Every request path seen, in order. */
  log: string[]
  /** Requests to /user and /user/emails, with their headers. */
  apiRequests: { path: string; headers: IncomingMessage["headers"] }[]
  options: GitHubLikeOptions
  close(): Promise<void>
}

interface PendingCode {
  redirectUri: string
  challenge: string | null
}

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
  })
}

function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { "content-type": "application/json; charset=utf-8" })
  response.end(JSON.stringify(value))
}

export async function startGitHubLike(options: GitHubLikeOptions): Promise<GitHubLike> {
  const codes = new Map<string, PendingCode>()
  const tokens = new Set<string>()
  const log: string[] = []
  const apiRequests: GitHubLike["apiRequests"] = []
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost")
    log.push(url.pathname)
    if (url.pathname === "/login/oauth/authorize") return authorize(url, response)
    if (url.pathname === "/login/oauth/access_token" && request.method === "POST") return token(request, response)
    if (url.pathname === "/api/v3/user" || url.pathname === "/api/v3/user/emails") return api(url.pathname, request, response)
    json(response, 404, { message: "Not Found" })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  function authorize(url: URL, response: ServerResponse): void {
    const redirectUri = url.searchParams.get("redirect_uri")
    if (url.searchParams.get("client_id") !== options.clientId || !redirectUri) return json(response, 400, { error: "invalid_request" })
    const code = randomBytes(10).toString("hex")
    const challenge = url.searchParams.get("code_challenge")
    if (challenge !== null && url.searchParams.get("code_challenge_method") !== "S256") return json(response, 400, { error: "invalid_request" })
    codes.set(code, { redirectUri, challenge })
    const target = new URL(redirectUri)
    target.searchParams.set("code", code)
    const state = url.searchParams.get("state")
    if (state !== null) target.searchParams.set("state", state)
    if (!options.omitIss) target.searchParams.set("iss", options.iss ?? `${baseUrl}/login/oauth`)
    response.writeHead(302, { location: target.href })
    response.end()
  }

  async function token(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await body(request))
    const basic = request.headers.authorization?.startsWith("Basic ")
      ? Buffer.from(request.headers.authorization.slice(6), "base64").toString().split(":").map(decodeURIComponent)
      : [form.get("client_id"), form.get("client_secret")]
    const reply = (value: Record<string, string>) => {
      if (options.formTokenResponse || !(request.headers.accept ?? "").includes("application/json")) {
        response.writeHead(200, { "content-type": "application/x-www-form-urlencoded; charset=utf-8" })
        response.end(new URLSearchParams(value).toString())
      } else json(response, 200, value)
    }
    if (basic[0] !== options.clientId || basic[1] !== options.clientSecret) return reply({ error: "incorrect_client_credentials" })
    const pending = codes.get(form.get("code") ?? "")
    codes.delete(form.get("code") ?? "")
    if (!pending || pending.redirectUri !== form.get("redirect_uri")) return reply({ error: "bad_verification_code" })
    if (pending.challenge !== null) {
      const verifier = form.get("code_verifier") ?? ""
      if (createHash("sha256").update(verifier).digest("base64url") !== pending.challenge) return reply({ error: "bad_verification_code" })
    }
    const accessToken = `gho_${randomBytes(16).toString("hex")}`
    tokens.add(accessToken)
    reply({ access_token: accessToken, token_type: "bearer", scope: "read:user,user:email" })
  }

  function api(path: string, request: IncomingMessage, response: ServerResponse): void {
    apiRequests.push({ path, headers: request.headers })
    const token = request.headers.authorization?.replace(/^Bearer /, "")
    if (!token || !tokens.has(token)) return json(response, 401, { message: "Bad credentials" })
    if (!request.headers["user-agent"]) return json(response, 403, { message: "Request forbidden by administrative rules. Please make sure your request has a User-Agent header" })
    const { emails, ...profile } = options.user
    json(response, 200, path.endsWith("/emails") ? emails : { ...profile, node_id: "MDQ6VXNlcjE=", type: "User", site_admin: false })
  }

  return {
    baseUrl,
    log,
    apiRequests,
    options,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
