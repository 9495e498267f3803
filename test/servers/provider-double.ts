// A local HTTP server that plays any provider for the contract suite. Tests route every request
// for the provider's real hosts here (through the `fetch` option); the server answers by path from
// a route table: discovery, JWKS, token and userinfo for OpenID Connect, token, userinfo and any
// extra API paths for OAuth 2.0. Every request is recorded.
//
// The token endpoint (`tokenEndpoint`) checks the request the way the real provider would: the
// method, the client authentication the record names, the exact code it issued (once), the PKCE
// verifier against the challenge, and redirect_uri against the authorization request's. A request
// that breaks a rule gets an RFC 6749 error, and the reason is kept in `rejections`.
import { createHash } from "node:crypto"
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

/**
 * How a provider's token endpoint wants the code exchanged. Standard records follow RFC 6749 and
 * their `token_endpoint_auth_method`; a provider with its own documented request (WeChat's GET,
 * Notion's JSON body, Azure DevOps' assertion) says how it differs.
 */
export interface TokenRequestRules {
  /** The record's token_endpoint_auth_method: Basic, secret in the parameters, or no secret. */
  clientAuth: "client_secret_basic" | "client_secret_post" | "none"
  /** POST unless the provider documents otherwise (WeChat: GET). */
  method?: "POST" | "GET"
  /** Where the parameters travel: a form body (the default), a JSON body, or the query string. */
  encoding?: "form" | "json" | "query"
  /** The client id's parameter name (TikTok: client_key, WeChat: appid); null when it is not sent. */
  clientIdParam?: string | null
  /** The client secret's parameter name with client_secret_post (WeChat: secret). */
  clientSecretParam?: string
  /** The code's parameter name (Azure DevOps: assertion). */
  codeParam?: string
  /** The grant_type sent; null for a provider that documents none (ClickUp). */
  grantType?: string | null
  /** Whether the exchange repeats redirect_uri; true unless the provider's request has none. */
  redirectUri?: boolean
}

/** One authorization the double granted: what the token request must prove. */
export interface TokenGrant {
  rules: TokenRequestRules
  clientId: string
  clientSecret: string
  /** The code this double issued to the callback; it may be exchanged once. */
  code: string
  /** The redirect_uri of the authorization request, which the exchange must repeat. */
  redirectUri: string | null
  /** The S256 code_challenge of the authorization request, when the record uses PKCE. */
  codeChallenge?: string
}

export interface ProviderDouble {
  routes: Map<string, Route>
  requests: DoubleRequest[]
  /** Why the token endpoint refused each request it refused. */
  rejections: string[]
  /** A token endpoint route that answers `answer` to a request meeting `grant`, once. */
  tokenEndpoint(grant: TokenGrant, answer: unknown): Route
  fetch: typeof fetch
  close(): Promise<void>
}

function parameters(request: DoubleRequest, encoding: TokenRequestRules["encoding"]): Map<string, string> {
  if (encoding === "query") return new Map(new URL(request.url).searchParams)
  if (encoding === "json") {
    const body: unknown = request.body === "" ? {} : JSON.parse(request.body)
    return new Map(Object.entries(body as Record<string, unknown>).map(([key, value]) => [key, String(value)]))
  }
  return new Map(new URLSearchParams(request.body))
}

/** HTTP Basic credentials as RFC 6749 §2.3.1 encodes them (form-urlencoded, then base64), or undefined. */
function basicCredentials(header: string | undefined): [string, string] | undefined {
  if (!header?.startsWith("Basic ")) return undefined
  const decoded = Buffer.from(header.slice(6), "base64").toString("utf8")
  const at = decoded.indexOf(":")
  if (at < 0) return undefined
  const unescape = (text: string) => decodeURIComponent(text.replace(/\+/g, " "))
  return [unescape(decoded.slice(0, at)), unescape(decoded.slice(at + 1))]
}

/** The first rule the token request breaks, as an RFC 6749 error, or undefined when it meets them all. */
function tokenRequestFault(request: DoubleRequest, grant: TokenGrant, used: boolean): { status: number; error: string; description: string } | undefined {
  const { rules } = grant
  const fault = (status: number, error: string, description: string) => ({ status, error, description })
  const method = rules.method ?? "POST"
  if (request.method !== method) return fault(405, "invalid_request", `the token endpoint takes ${method}, not ${request.method}`)
  const params = parameters(request, rules.encoding)
  const idParam = rules.clientIdParam === undefined ? "client_id" : rules.clientIdParam
  const secretParam = rules.clientSecretParam ?? "client_secret"
  const basic = basicCredentials(request.headers.authorization)
  if (rules.clientAuth === "client_secret_basic") {
    if (basic === undefined) return fault(401, "invalid_client", "client_secret_basic: no HTTP Basic credentials")
    if (basic[0] !== grant.clientId || basic[1] !== grant.clientSecret) return fault(401, "invalid_client", "client_secret_basic: wrong client id or secret")
    if (params.has(secretParam)) return fault(400, "invalid_request", "client_secret_basic: the secret is in the parameters as well")
    if (params.has(idParam ?? "client_id") && params.get(idParam ?? "client_id") !== grant.clientId) return fault(401, "invalid_client", "a client id in the parameters that is not the client's")
  } else {
    if (basic !== undefined || request.headers.authorization !== undefined) return fault(400, "invalid_request", `${rules.clientAuth}: an Authorization header this provider does not take`)
    if (idParam !== null && params.get(idParam) !== grant.clientId) return fault(401, "invalid_client", `${rules.clientAuth}: ${idParam} is not the client id`)
    if (rules.clientAuth === "client_secret_post" && params.get(secretParam) !== grant.clientSecret) return fault(401, "invalid_client", `client_secret_post: ${secretParam} is not the client secret`)
    if (rules.clientAuth === "none" && (params.has(secretParam) || [...params.values()].includes(grant.clientSecret))) return fault(400, "invalid_request", "none: a public client sent a secret")
  }
  const grantType = rules.grantType === undefined ? "authorization_code" : rules.grantType
  if (grantType !== null && params.get("grant_type") !== grantType) return fault(400, "unsupported_grant_type", `grant_type is ${params.get("grant_type")}, not ${grantType}`)
  const code = params.get(rules.codeParam ?? "code")
  if (code !== grant.code) return fault(400, "invalid_grant", `the code ${code} is not the one issued`)
  if (used) return fault(400, "invalid_grant", "the code was already exchanged")
  if (grant.codeChallenge !== undefined) {
    const verifier = params.get("code_verifier")
    if (verifier === undefined) return fault(400, "invalid_grant", "PKCE: no code_verifier")
    if (createHash("sha256").update(verifier).digest("base64url") !== grant.codeChallenge) return fault(400, "invalid_grant", "PKCE: the code_verifier does not match the S256 challenge")
  }
  if (rules.redirectUri ?? true) {
    if (grant.redirectUri === null) return fault(400, "invalid_request", "the authorization request carried no redirect_uri to compare")
    if (params.get("redirect_uri") !== grant.redirectUri) return fault(400, "invalid_grant", `redirect_uri ${params.get("redirect_uri")} differs from the authorization request's`)
  }
  return undefined
}

export async function startProviderDouble(): Promise<ProviderDouble> {
  const routes = new Map<string, Route>()
  const requests: DoubleRequest[] = []
  const rejections: string[] = []
  function tokenEndpoint(grant: TokenGrant, answer: unknown): Route {
    let used = false
    return (request: DoubleRequest) => {
      const fault = tokenRequestFault(request, grant, used)
      if (fault !== undefined) {
        rejections.push(fault.description)
        return { status: fault.status, body: { error: fault.error, error_description: fault.description } }
      }
      used = true
      return { body: answer }
    }
  }
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
    rejections,
    tokenEndpoint,
    fetch: forward,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
