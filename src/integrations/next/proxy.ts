/**
 * The route gate for `proxy.ts` (Next.js 16; `middleware.ts` before it). A JWT session is read in
 * full from its cookie. A database session is read from its `session.cache` copy when that is
 * fresh; when it is not, the gate reads the session the way `useSession` does (the handler's
 * `/session` route: the database, then a fresh cache copy written back), wherever it can: Next 16
 * runs `proxy.ts` on Node.js. Only on the edge runtime (a `middleware.ts` with `runtime: "edge"`)
 * is it cookie-only, and then `unverified` says a well-formed token bound to this browser awaits
 * the database's word.
 */
import type { Auth } from "../../handler/index.js"
import type { Session } from "../../types.js"
import { cookieToSet } from "../set-cookie.js"

/**
 * What the `authorized` callback of {@link ProxyOptions} gets: `auth`, the session (or null), the
 * `request`, and `unverified`. `unverified` is true only on the edge runtime, where there is no
 * database: the request carries a well-formed database session token bound to this browser that no
 * fresh cache copy vouches for. A garbage cookie, or one made in another browser, is never
 * unverified: it is signed out.
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
 * a 403). Default: signed in, or (on the edge runtime only) an `unverified` database session,
 * which the page's `auth()` then decides. `matcher`-style scoping belongs in Next's
 * `config.matcher`; requests under `basePath` always go through.
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
 * route, or the `Response` to answer with: the redirect to sign in, your `authorized`'s own
 * `Response`, or `NextResponse.next()` carrying a refreshed session cache cookie (which lets the
 * request through, and hands the route the fresh cookie too).
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

/** What the gate reads a session with: one `Latchkey` instance, made when the first request needs it. */
export type ProxiedAuth<S extends Session> = Pick<Auth<S>, "authFromCookies" | "auth" | "handler" | "basePath">

/** The session the gate decided from, and the cookies the read asks to set (a refreshed cache copy). */
interface GateRead<S> {
  session: S | null
  unverified: boolean
  cookies: string[]
}

function defaultAuthorized({ auth, unverified }: AuthorizedParams<unknown>): boolean {
  return auth !== null || unverified
}

/** Whether this code runs on the edge runtime, which Next and Vercel mark with a global `EdgeRuntime` string. */
function onEdgeRuntime(): boolean {
  return typeof (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime === "string"
}

/** What the handler's `/session` route reads of the request: its cookies, and the host it came to (trusted only with `trustHost`). */
const FORWARDED_HEADERS = ["cookie", "host", "x-forwarded-host", "x-forwarded-proto", "user-agent"]

/**
 * The session as `useSession` reads it, through the handler's `/session` route: the cache copy,
 * else the database (then a fresh copy to set). A handler that cannot answer (no `AUTH_URL` nor
 * `trustHost`) leaves `auth(request)`, which reads without writing.
 */
async function readThroughHandler<S extends Session>(instance: ProxiedAuth<S>, request: Request): Promise<GateRead<S>> {
  const headers = new Headers()
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers.get(name)
    if (value !== null) headers.set(name, value)
  }
  const answer = await instance.handler(new Request(new URL(`${instance.basePath}/session`, request.url), { headers }))
  if (answer.status !== 200) return { session: await instance.auth(request), unverified: false, cookies: [] }
  return { session: (await answer.json()) as S | null, unverified: false, cookies: answer.headers.getSetCookie() }
}

/** Reads the session for the gate: from the cookies where they settle it, else through the handler (not on the edge). */
async function readSession<S extends Session>(instance: ProxiedAuth<S>, request: Request): Promise<GateRead<S>> {
  const { session, unverified } = await instance.authFromCookies(request)
  if (session !== null || onEdgeRuntime() || !request.headers.has("cookie")) return { session, unverified, cookies: [] }
  return readThroughHandler(instance, request)
}

/**
 * Where to come back to after signing in: the request's path and query, as a path on this origin.
 * A path that starts with `//` (or `/\`) would read as another host (`//evil.example/x`), so the
 * leading slashes collapse into one.
 */
function callbackPath(url: URL): string {
  return `/${url.pathname.replace(/^[/\\]+/, "")}${url.search}`
}

/** The request's `cookie` header with the cookies the read set (a cleared one removed), for the route behind the gate. */
function cookieHeaderAfter(request: Request, setCookies: string[]): string {
  const jar = new Map<string, string>()
  for (const pair of (request.headers.get("cookie") ?? "").split(";")) {
    const at = pair.indexOf("=")
    if (at > 0) jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim())
  }
  for (const header of setCookies) {
    const cookie = cookieToSet(header)
    if (cookie.value === "" || cookie.maxAge === 0) jar.delete(cookie.name)
    else jar.set(cookie.name, encodeURIComponent(cookie.value))
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
}

/** Lets the request through while setting cookies, on the response and on the request the route reads. */
async function throughWithCookies(request: Request, setCookies: string[]): Promise<Response> {
  const { NextResponse } = await import("next/server.js")
  const forwarded = new Headers(request.headers)
  forwarded.set("cookie", cookieHeaderAfter(request, setCookies))
  const response = NextResponse.next({ request: { headers: forwarded } })
  for (const header of setCookies) response.headers.append("set-cookie", header)
  return response
}

function toSignIn(url: URL, signInPage: string, setCookies: string[]): Response | undefined {
  const target = new URL(signInPage, url)
  if (target.pathname === url.pathname) return undefined
  target.searchParams.set("callbackUrl", callbackPath(url))
  const headers = new Headers({ location: target.href, "cache-control": "no-store" })
  for (const header of setCookies) headers.append("set-cookie", header)
  return new Response(null, { status: 307, headers })
}

/** The gate over one instance (`instance()` makes it on first use, so a build without secrets can load `proxy.ts`). */
export function createProxy<S extends Session>(instance: () => ProxiedAuth<S>, options: ProxyOptions<S>, configuredSignIn: string | undefined): Proxy {
  const authorized = options.authorized ?? defaultAuthorized
  return async (request) => {
    const auth = instance()
    const { basePath } = auth
    const url = new URL(request.url)
    if (url.pathname === basePath || url.pathname.startsWith(`${basePath}/`)) return undefined
    const read = await readSession(auth, request)
    const verdict = await authorized({ auth: read.session, request, unverified: read.unverified })
    if (verdict instanceof Response) return verdict
    // Only an explicit true lets the request through: a callback that forgets to answer refuses.
    if (verdict === true) return read.cookies.length > 0 ? throughWithCookies(request, read.cookies) : undefined
    return toSignIn(url, options.signInPage ?? configuredSignIn ?? `${basePath}/signin`, read.cookies)
  }
}
