/**
 * Requests to the handler's routes, answered as values: the status and the parsed JSON, or a
 * network failure. Every POST carries the CSRF token (read once and kept; read again, and the POST
 * sent again once, when the handler answers `MissingCSRF`, as after the cookie expired) and asks
 * for redirects as JSON (`X-Auth-Return-Redirect: 1`), because a script cannot follow a redirect to
 * another origin.
 */

/** An answer: its HTTP status and its JSON body (undefined when the body is not JSON). */
export interface Reply {
  status: number
  body: unknown
}

/** No answer at all: the network failed, or the URL could not be fetched. */
export const NO_REPLY = { status: 0, body: undefined, failed: true } as const

export type Outcome = Reply | typeof NO_REPLY

export interface Transport {
  /** The absolute (or page-relative) URL of a route under the base path. */
  url(route: string): string
  get(route: string): Promise<Outcome>
  /** A form POST with the CSRF token. */
  post(route: string, fields: Record<string, string>): Promise<Outcome>
  /** The CSRF token, read once and kept. */
  csrfToken(): Promise<string | undefined>
}

/** Whether an answer is the handler refusing the CSRF token (JSON routes, or a redirect returned as JSON). */
function isMissingCsrf(outcome: Outcome): boolean {
  const body = outcome.body
  return typeof body === "object" && body !== null && "error" in body && body.error === "MissingCSRF"
}

export function createTransport(options: { basePath: string; baseUrl: string | undefined; fetch: typeof fetch | undefined }): Transport {
  const root = `${options.baseUrl ?? ""}${options.basePath}`
  let token: Promise<string | Outcome> | undefined

  // Called as a method of globalThis: a detached `fetch` throws "Illegal invocation" in browsers.
  const send = (url: string, init: RequestInit) => (options.fetch ? options.fetch(url, init) : globalThis.fetch(url, init))

  async function request(route: string, init: RequestInit): Promise<Outcome> {
    let response: Response
    try {
      response = await send(`${root}/${route}`, { credentials: "same-origin", ...init })
    } catch {
      return NO_REPLY
    }
    let body: unknown
    try {
      body = (response.headers.get("content-type") ?? "").includes("application/json") ? await response.json() : undefined
    } catch {
      body = undefined
    }
    return { status: response.status, body }
  }

  /** The token, or the failed answer to the request for it. A failure is not kept: the next call asks again. */
  function readToken(): Promise<string | Outcome> {
    token ??= request("csrf", { method: "GET" }).then((outcome) => {
      const body = outcome.body
      const value = typeof body === "object" && body !== null && "csrfToken" in body ? body.csrfToken : undefined
      if (typeof value === "string") return value
      token = undefined
      return outcome
    })
    return token
  }

  async function postOnce(route: string, fields: Record<string, string>): Promise<Outcome> {
    const csrf = await readToken()
    if (typeof csrf !== "string") return csrf
    const body = new URLSearchParams({ ...fields, csrfToken: csrf })
    return request(route, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" }, body })
  }

  return {
    url: (route) => `${root}/${route}`,
    get: (route) => request(route, { method: "GET" }),
    async post(route, fields) {
      const first = await postOnce(route, fields)
      if (!isMissingCsrf(first)) return first
      token = undefined
      return postOnce(route, fields)
    },
    async csrfToken() {
      const csrf = await readToken()
      return typeof csrf === "string" ? csrf : undefined
    },
  }
}
