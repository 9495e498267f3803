// An app under test: createAuth's handler served in-process at APP, reached by a TestBrowser whose
// other requests go to the real local provider servers.
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import { TestBrowser } from "../servers/browser.js"

export const APP = "http://localhost:3000"
export const SECRET = "latchkey-test-secret-0123456789abcdef"

/** A page of the app itself, outside the handler's base path. */
export function appPage(url: string): Response {
  return new Response(`app page ${new URL(url).pathname}`, { headers: { "content-type": "text/plain" } })
}

export function app(config: Partial<AuthConfig> & Pick<AuthConfig, "providers">) {
  const auth = createAuth({ secret: SECRET, trustHost: true, env: {}, ...config })
  const dispatch: typeof fetch = (input, init) => {
    const url = String(input)
    if (!url.startsWith(APP)) return fetch(input, init)
    // As a mounted app: the handler serves its base path, the app's own pages the rest.
    if (!new URL(url).pathname.startsWith(config.basePath ?? "/auth")) return Promise.resolve(appPage(url))
    return auth.handler(new Request(url, init as RequestInit))
  }
  const browser = new TestBrowser(undefined, dispatch)
  return { ...auth, browser, dispatch }
}

/** The CSRF token from GET /auth/csrf, with its cookie stored in the browser. */
export async function csrf(browser: TestBrowser, origin = APP): Promise<string> {
  const { response } = await browser.open(`${origin}/auth/csrf`)
  return ((await response.json()) as { csrfToken: string }).csrfToken
}

/** Posts a form as the browser, following redirects. */
export function postForm(browser: TestBrowser, path: string, fields: Record<string, string>, origin = APP) {
  return browser.open(`${origin}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() })
}

/** The session JSON the browser sees. */
export async function session(browser: TestBrowser, origin = APP): Promise<Record<string, any> | null> {
  const { response } = await browser.open(`${origin}/auth/session`)
  return (await response.json()) as Record<string, any> | null
}
