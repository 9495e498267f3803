// A minimal browser for flow tests: keeps cookies per origin, follows redirects, and stops when
// the next hop is the app's callback. A form_post page is read and its form turned into the POST
// the browser would send.
export interface CallbackHop {
  /** The Request that would reach the app's callback. */
  request: Request
}

export class TestBrowser {
  readonly #jar = new Map<string, Map<string, string>>()
  readonly #fetch: typeof fetch

  /** `route` maps a URL to where it is really served (for providers with fixed public hosts). */
  constructor(route: (url: URL) => URL = (url) => url, fetchImplementation: typeof fetch = fetch) {
    this.#fetch = (input, init) => fetchImplementation(route(new URL(String(input))).href, init)
  }

  #cookieHeader(url: URL): string {
    return [...(this.#jar.get(url.origin) ?? new Map())].map(([name, value]) => `${name}=${value}`).join("; ")
  }

  #store(url: URL, response: Response): void {
    const jar = this.#jar.get(url.origin) ?? new Map<string, string>()
    storeCookies(jar, response)
    this.#jar.set(url.origin, jar)
  }

  /** Stores Set-Cookie values an app sent for `origin` (such as the check cookies). */
  acceptCookies(origin: string, setCookies: string[]): void {
    this.#store(new URL(origin), new Response(null, { headers: setCookies.map((line) => ["set-cookie", line] as [string, string]) }))
  }

  /** Follows redirects from `start` until the next hop starts with `callbackPrefix`. */
  async navigate(start: URL | string, callbackPrefix: string, maxHops = 20): Promise<CallbackHop> {
    let url = new URL(String(start))
    let init: RequestInit = {}
    for (let hop = 0; hop < maxHops; hop++) {
      if (url.href.startsWith(callbackPrefix)) return { request: this.#appRequest(url, init) }
      const response = await this.#fetch(url.href, { ...init, redirect: "manual", headers: { ...(init.headers as Record<string, string>), cookie: this.#cookieHeader(url) } })
      this.#store(url, response)
      const location = response.headers.get("location")
      if (location !== null) {
        await response.body?.cancel()
        url = new URL(location, url)
        init = {}
        continue
      }
      const form = formPost(await response.text(), url)
      if (form === undefined) throw new Error(`the flow stopped at ${url.href} with HTTP ${response.status}`)
      url = form.action
      init = { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.body.toString() }
    }
    throw new Error("too many redirects")
  }

  /**
   * Requests `start` and follows every redirect (and auto-submitted form_post page) to the final
   * response, keeping cookies; returns it with its URL.
   */
  async open(start: URL | string, init: RequestInit = {}, maxHops = 20): Promise<{ response: Response; url: URL }> {
    let url = new URL(String(start))
    let next: RequestInit = init
    for (let hop = 0; hop < maxHops; hop++) {
      const headers = new Headers(next.headers)
      const cookie = this.#cookieHeader(url)
      if (cookie) headers.set("cookie", cookie)
      const response = await this.#fetch(url.href, { ...next, headers, redirect: "manual" })
      this.#store(url, response)
      const location = response.headers.get("location")
      if (location !== null && response.status >= 300 && response.status < 400) {
        await response.body?.cancel()
        url = new URL(location, url)
        next = {}
        continue
      }
      if (response.status === 200 && (response.headers.get("content-type") ?? "").includes("text/html")) {
        const text = await response.text()
        const form = /onload="[^"]*submit/i.test(text) || /<noscript>|document\.forms/i.test(text) ? formPost(text, url) : undefined
        if (form) {
          url = form.action
          next = { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.body.toString() }
          continue
        }
        return { response: new Response(text, { status: response.status, headers: response.headers }), url }
      }
      return { response, url }
    }
    throw new Error("too many redirects")
  }

  /** The cookies held for an origin. */
  cookies(origin: string): Map<string, string> {
    return new Map(this.#jar.get(new URL(origin).origin) ?? [])
  }

  #appRequest(url: URL, init: RequestInit): Request {
    const headers = new Headers(init.headers)
    const cookie = this.#cookieHeader(url)
    if (cookie) headers.set("cookie", cookie)
    return new Request(url, { method: init.method ?? "GET", headers, body: init.body ?? null })
  }
}

function decodeEntities(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")
}

/** The auto-submitting form of a form_post response page, if the page is one. */
function formPost(html: string, base: URL): { action: URL; body: URLSearchParams } | undefined {
  const form = /<form[^>]*method="post"[^>]*action="([^"]+)"/i.exec(html)
  if (!form) return undefined
  const body = new URLSearchParams()
  for (const input of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/gi)) {
    body.append(decodeEntities(input[1]!), decodeEntities(input[2]!))
  }
  return { action: new URL(decodeEntities(form[1]!), base), body }
}

/** Keeps a response's Set-Cookie values in `jar` (name → value), as a browser would: a cleared one goes. */
export function storeCookies(jar: Map<string, string>, response: Response): void {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";")
    const at = pair!.indexOf("=")
    const name = pair!.slice(0, at).trim()
    if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name)
    else jar.set(name, pair!.slice(at + 1))
  }
}
