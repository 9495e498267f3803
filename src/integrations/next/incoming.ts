/**
 * The request latchkey reads, rebuilt from what Next.js gives code that has no request object
 * (server components and server actions): the incoming headers, and the cookie store. The cookies
 * come from the store, not the `cookie` header, because a server action that wrote cookies
 * re-renders the page with the store's new values while the header still holds the old ones.
 */
import type { ActionRequest } from "../run-action.js"

/** Next's request cookie store, structurally: what `cookies()` answers. */
export interface CookieReader {
  getAll(): { name: string; value: string }[]
}

/** The first value of a comma-separated forwarding header. */
function first(value: string | null): string | undefined {
  return value?.split(",")[0]?.trim() || undefined
}

/**
 * The URL of the request Next is handling, on the host it came to. This is only the starting
 * point: the handler trusts it (and the forwarding headers) only with `trustHost`, and `AUTH_URL`
 * pins the origin whatever the request says.
 */
export function requestUrl(incoming: Headers): URL {
  const proto = first(incoming.get("x-forwarded-proto")) === "https" ? "https" : "http"
  const host = incoming.get("host") ?? first(incoming.get("x-forwarded-host"))
  return host && URL.canParse(`${proto}://${host}/`) ? new URL(`${proto}://${host}/`) : new URL("http://localhost/")
}

/** The `cookie` header for the store's cookies, each value percent-encoded as a browser would send it. */
export function cookieHeader(store: CookieReader): string {
  return store.getAll().map(({ name, value }) => `${name}=${encodeURIComponent(value)}`).join("; ")
}

/** The action's request, from Next's headers and cookie store. */
export function actionRequest(incoming: Headers, store: CookieReader): ActionRequest {
  return { url: requestUrl(incoming), headers: incoming, cookie: cookieHeader(store) }
}
