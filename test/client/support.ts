// latchkey/client against the real handler, without a network: the client's fetch goes through
// createAuth(...).handler with the browser-like cookie jar of test/handler/support.ts, as a page on
// the app's origin would. Every request the client makes is logged.
import { createAuthClient } from "../../src/client/client.js"
import type { AuthClientOptions } from "../../src/client/types.js"
import type { AuthConfig } from "../../src/handler/index.js"
import type { Session } from "../../src/types.js"
import { TestBrowser } from "../servers/browser.js"
import { APP, app } from "../handler/support.js"

export { APP }

export interface ClientRequest {
  method: string
  path: string
}

/**
 * An app and a client of it. `page.browser` is the cookie jar the client's requests carry;
 * replacing it models the browser losing its cookies (expiry, "clear site data").
 */
export function clientApp<S extends Session = Session>(config: Partial<AuthConfig> & Pick<AuthConfig, "providers">, options: AuthClientOptions<S> = {}) {
  const server = app(config)
  const page = { browser: server.browser as TestBrowser, requests: [] as ClientRequest[] }
  const pageFetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input))
    page.requests.push({ method: init?.method ?? "GET", path: url.pathname })
    return (await page.browser.open(url, init)).response
  }
  const client = createAuthClient<S>({ baseUrl: APP, fetch: pageFetch, broadcast: false, ...options })
  return { ...server, client, page, pageFetch }
}

/** A fresh cookie jar on the same app (what the browser is after its cookies are gone). */
export function freshBrowser(dispatch: typeof fetch): TestBrowser {
  return new TestBrowser(undefined, dispatch)
}
