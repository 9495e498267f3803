/**
 * `latchkey/next`: latchkey for the Next.js App Router. `Latchkey(config)` is `createAuth(config)`
 * shaped the way a Next app uses it, and the way Auth.js v5's `NextAuth(config)` is shaped:
 * `handlers` for `app/auth/[...latchkey]/route.ts`, `auth()` that reads the session in server
 * components, route handlers and server actions (from `next/headers`), `signIn`/`signOut` for
 * server actions that answer values instead of throwing redirects, and `proxy()` for `proxy.ts`.
 *
 * @module
 */
import { brandWithConfig, readingConfig } from "../../handler/config-brand.js"
import type { AccessTokenApiOf, Auth, AuthConfig } from "../../handler/index.js"
import type { ProviderTokensEngine } from "../../provider-tokens/types.js"
import type { JWT, Session } from "../../types.js"
import { deferredAuth, withAccessToken } from "../deferred-auth.js"
import type { ActionResult } from "../run-action.js"
import { serverActions, type PasswordActionFields, type PasswordActionOptions, type PasswordActionResult, type SignInOptions, type SignOutOptions } from "./actions.js"
import { cookieHeader, requestUrl } from "./incoming.js"
import { createProxy, type Proxy, type ProxyOptions } from "./proxy.js"

export type { ActionResult } from "../run-action.js"
export type { PasswordActionFields, PasswordActionOptions, PasswordActionResult, SignInOptions, SignOutOptions } from "./actions.js"
export type { AuthorizedParams, Proxy, ProxyOptions } from "./proxy.js"

/**
 * What {@link Latchkey} returns. Next to `createAuth`'s own members (`handler`, `authFromCookies`,
 * `basePath`, the account API, and `getAccessToken` when a `providerTokens` plug-in refreshes):
 *
 * - `handlers`: `{ GET, POST }` for the catch-all route at `app/<basePath>/[...latchkey]/route.ts`.
 * - `auth()`: the session, or null. With no argument it reads the request Next is handling
 *   (server components, route handlers, server actions); `auth(request)` reads that request.
 *   It never sets cookies.
 * - `signIn(providerId, options)` / `signOut(options)`: for server actions. They write the cookies
 *   and answer an {@link ActionResult}; the action then calls `redirect(result.url)`, outside any
 *   try/catch. They never throw to redirect.
 * - `signUp`, `requestPasswordReset`, `resetPassword`, `changePassword`, `changeEmail`: the password
 *   account calls for server actions, answering a {@link PasswordActionResult}.
 * - `proxy(options)`: the function to export from `proxy.ts` (or `middleware.ts`).
 *
 * Exported from `latchkey/next`.
 *
 * @example
 * ```ts
 * // auth.ts
 * import { Latchkey, type NextAuthInstance } from "latchkey/next"
 * import GitHub from "latchkey/providers/github"
 * export const { handlers, auth, signIn, signOut, proxy }: NextAuthInstance = Latchkey({ providers: [GitHub] })
 * ```
 */
export interface NextAuthInstance<S extends Session = Session> extends Omit<Auth<S>, "auth"> {
  handlers: { GET: (request: Request) => Promise<Response>; POST: (request: Request) => Promise<Response> }
  auth: (request?: Request) => Promise<S | null>
  signIn: (providerId: string, options?: SignInOptions | FormData) => Promise<ActionResult>
  signOut: (options?: SignOutOptions) => Promise<ActionResult>
  /** Creates a password account (`Password()` and the `passwords` plug-in): `email`, `password`, `name` and the app's sign-up fields. */
  signUp: (fields: PasswordActionFields | FormData, options?: PasswordActionOptions) => Promise<PasswordActionResult>
  /** Mails a reset link when the address has an account; the answer is the same either way. */
  requestPasswordReset: (email: string | FormData, options?: PasswordActionOptions) => Promise<PasswordActionResult>
  /** Sets a new password with a reset link's `token` and `email`, and signs this browser in. */
  resetPassword: (fields: PasswordActionFields | FormData, options?: PasswordActionOptions) => Promise<PasswordActionResult>
  /** The signed-in user's new password, proven by `currentPassword`; `revokeOtherSessions` ends every other session. */
  changePassword: (fields: PasswordActionFields | FormData) => Promise<PasswordActionResult>
  /** Starts changing the signed-in user's address, proven by `password`: a link goes to `newEmail`. */
  changeEmail: (fields: PasswordActionFields | FormData) => Promise<PasswordActionResult>
  proxy: (options?: ProxyOptions<S>) => Proxy
}

/**
 * Next's `headers()` and `cookies()`, loaded when first needed: this module then loads anywhere
 * (a proxy bundle, a test, a Node script that imports every subpath), and the bundler still sees
 * the import.
 */
const headers = async () => (await import("next/headers.js")).headers()
const cookies = async () => (await import("next/headers.js")).cookies()
const connection = async () => (await import("next/server.js")).connection()

/**
 * The request Next is handling, as latchkey reads it: its headers and its (possibly just written)
 * cookies. First `connection()`: reading a session checks expiry times against the clock, which
 * Cache Components allows only once the render is marked as per request (cookies alone may be
 * read ahead of time, in a runtime prefetch). It also makes the caller dynamic without Cache Components.
 */
async function currentRequest(): Promise<Request> {
  await connection()
  const incoming = new Headers(await headers())
  incoming.set("cookie", cookieHeader(await cookies()))
  return new Request(requestUrl(incoming), { headers: incoming })
}

/**
 * Whether `next build` is running. It loads every module to collect page data, and a CI or Docker
 * build often has none of the secrets the app only gets at run time.
 */
function buildingTheApp(): boolean {
  return typeof process !== "undefined" && process.env?.NEXT_PHASE === "phase-production-build"
}

/**
 * latchkey for the Next.js App Router: `createAuth(config)` with `handlers`, an `auth()` that reads
 * `next/headers`, server-action `signIn`/`signOut`, and a `proxy()` route gate. The counterpart of
 * Auth.js v5's `NextAuth(config)`; see docs/frameworks/nextjs.md for the mapping.
 *
 * While `next build` runs (`NEXT_PHASE` is `phase-production-build`), the configuration is checked
 * at its first use instead of here, so an image built without the run-time secrets still builds;
 * at run time a missing secret, provider id or issuer throws here, as the app loads `auth.ts`.
 * The `latchkey` CLI defers the checks the same way while it reads `auth.ts`, and finds the
 * configuration on every member (`handlers`, `auth`, `signIn`, `signOut`, `proxy`, ...).
 *
 * Exported from `latchkey/next`.
 *
 * @throws {@link index!MissingSecretError} with no secret; {@link index!InvalidOptionError} for a
 * malformed config (as `createAuth`).
 *
 * @example
 * ```ts
 * // auth.ts
 * import { Latchkey } from "latchkey/next"
 * import GitHub from "latchkey/providers/github"
 * export const { handlers, auth, signIn, signOut, proxy } = Latchkey({ providers: [GitHub] })
 *
 * // app/auth/[...latchkey]/route.ts
 * export const { GET, POST } = handlers
 *
 * // app/page.tsx (a server component)
 * const session = await auth()
 *
 * // a server action
 * const result = await signOut({ redirectTo: "/" })
 * redirect(result.url ?? "/") // from next/navigation, outside any try/catch
 * ```
 */
export function Latchkey<J extends JWT = JWT, S extends Session = Session, P extends ProviderTokensEngine | undefined = undefined>(
  config: AuthConfig<J, S> & { providerTokens?: P },
): NextAuthInstance<S> & AccessTokenApiOf<P> {
  const { instance, members: forwarded } = deferredAuth(config, buildingTheApp() || readingConfig())
  const { handler } = forwarded
  const pages = {
    get basePath() {
      return instance().basePath
    },
    signIn: config.pages?.signIn,
    error: config.pages?.error,
  }
  const actions = serverActions({ handler }, pages, { headers, cookies })
  // In place: a spread would read the forwarded `basePath` getter, and so check the configuration now.
  const members: NextAuthInstance<S> = Object.assign(forwarded, {
    handlers: { GET: handler, POST: handler },
    // The request is read before anything else (see currentRequest).
    auth: async (request?: Request) => {
      const read = request ?? (await currentRequest())
      return instance().auth(read)
    },
    signIn: actions.signIn,
    signOut: actions.signOut,
    signUp: actions.signUp,
    requestPasswordReset: actions.requestPasswordReset,
    resetPassword: actions.resetPassword,
    changePassword: actions.changePassword,
    changeEmail: actions.changeEmail,
    proxy: (options: ProxyOptions<S> = {}) => createProxy(instance, options, config.pages?.signIn),
  })
  // Apps export these destructured (init writes `{ handlers, auth, signIn, signOut, proxy }`): each
  // carries the config for the CLI to find, as createAuth's own members do.
  brandWithConfig(config, handler, members.handlers, members.auth, members.signIn, members.signOut, members.proxy, members)
  return withAccessToken(members, config, instance) as NextAuthInstance<S> & AccessTokenApiOf<P>
}
