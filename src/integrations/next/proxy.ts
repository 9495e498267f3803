/**
 * The route gate for `proxy.ts` (Next.js 16; `middleware.ts` before it): it decides from the
 * cookies alone, with no adapter call, so it runs wherever Next runs a proxy (Node.js, or the edge
 * runtime for `middleware.ts`). A JWT session is read in full; a database session through its
 * `session.cache` copy. It is an early, optimistic check: pages and actions still call `auth()`,
 * which is the one that sees a revoked database session at once.
 */
import type { Auth } from "../../handler/index.js"
import type { Session } from "../../types.js"

/**
 * What the `authorized` callback of {@link ProxyOptions} gets: `auth`, the session the cookies
 * prove (or null), the `request`, and `unverified`, true when a database session token is present
 * that no fresh cache copy vouches for (turn on `session.cache` so this is rare).
 *
 * Exported from `latchkey/next`.
 *
 * @example
 * ```ts
 * import type { AuthorizedParams } from "latchkey/next"
 * const adminsOnly = ({ auth }: AuthorizedParams) => auth?.user?.email?.endsWith("@example.com") ?? false
 * ```
 */
export interface AuthorizedParams<S = Session> {
  auth: S | null
  request: Request
  unverified: boolean
}

/**
 * The proxy's options. `authorized` answers `true` to let the request through, `false` (or
 * nothing) to send the browser to sign in (with a `callbackUrl` back), or a `Response` of its own (a redirect elsewhere,
 * a 403). Default: signed in, or a database session only the database can check (the page's
 * `auth()` decides that one). `matcher`-style scoping belongs in Next's `config.matcher`; requests
 * under `basePath` always go through.
 *
 * Exported from `latchkey/next`.
 *
 * @example
 * ```ts
 * import type { ProxyOptions } from "latchkey/next"
 * const options: ProxyOptions = {
 *   authorized: ({ auth, request }) => !new URL(request.url).pathname.startsWith("/admin") || auth?.user?.email === "admin@example.com",
 * }
 * ```
 */
export interface ProxyOptions<S = Session> {
  authorized?: (params: AuthorizedParams<S>) => boolean | Response | Promise<boolean | Response>
  /** Where a refused browser goes. Default: `pages.signIn`, else the handler's `<basePath>/signin`. */
  signInPage?: string
}

/**
 * The function `proxy()` returns, for `proxy.ts`: it answers `undefined` to let Next go on to the
 * route, or the `Response` to send instead (the redirect to sign in).
 *
 * Exported from `latchkey/next`.
 *
 * @example
 * ```ts
 * // proxy.ts
 * import type { Proxy } from "latchkey/next"
 * import { proxy as latchkeyProxy } from "./auth"
 * export const proxy: Proxy = latchkeyProxy({ authorized: ({ auth }) => auth !== null })
 * export const config = { matcher: ["/dashboard/:path*"] }
 * ```
 */
export type Proxy = (request: Request) => Promise<Response | undefined>

function defaultAuthorized({ auth, unverified }: AuthorizedParams<unknown>): boolean {
  return auth !== null || unverified
}

/** The gate over one instance's cookies. */
export function createProxy<S extends Session>(instance: Pick<Auth<S>, "authFromCookies" | "basePath">, options: ProxyOptions<S>, configuredSignIn: string | undefined): Proxy {
  const { basePath } = instance
  const authorized = options.authorized ?? defaultAuthorized
  return async (request) => {
    const url = new URL(request.url)
    if (url.pathname === basePath || url.pathname.startsWith(`${basePath}/`)) return undefined
    const { session, unverified } = await instance.authFromCookies(request)
    const verdict = await authorized({ auth: session, request, unverified })
    if (verdict instanceof Response) return verdict
    // Only an explicit true lets the request through: a callback that forgets to answer refuses.
    if (verdict === true) return undefined
    const target = new URL(options.signInPage ?? configuredSignIn ?? `${basePath}/signin`, url)
    if (target.pathname === url.pathname) return undefined
    target.searchParams.set("callbackUrl", `${url.pathname}${url.search}`)
    return new Response(null, { status: 307, headers: { location: target.href, "cache-control": "no-store" } })
  }
}
