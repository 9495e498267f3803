/**
 * `latchkey/sveltekit`: latchkey for SvelteKit. `Latchkey(config)` gives a `handle` hook that
 * answers every request under `basePath` with the handler and puts `locals.auth()` (the session,
 * read once per request and only when asked) on every other request, and `signIn`/`signOut`
 * form actions. SvelteKit's shapes are typed structurally here, so the package needs no
 * `@sveltejs/kit` types; the form actions load `@sveltejs/kit` (the app's own) to redirect.
 *
 * @module
 */
import { readEnv } from "../../env.js"
import { brandWithConfig, readingConfig } from "../../handler/config-brand.js"
import type { AccessTokenApiOf, Auth, AuthConfig } from "../../handler/index.js"
import type { ProviderTokensEngine } from "../../provider-tokens/types.js"
import type { JWT, Session } from "../../types.js"
import { deferredAuth, withAccessToken } from "../deferred-auth.js"
import { eventActions, type KitActionEvent, type KitActionFailure, type PasswordFormError } from "./actions.js"

export type { KitActionEvent, KitActionFailure, KitCookies, PasswordFormError } from "./actions.js"

/**
 * What `handle` adds to `event.locals`: `auth()`, the request's session or null, read on first
 * call and shared by later calls in the same request. Declare it in `src/app.d.ts`:
 * `interface Locals extends LatchkeyLocals {}`.
 *
 * Exported from `latchkey/sveltekit`.
 *
 * @example
 * ```ts
 * // src/app.d.ts
 * import type { LatchkeyLocals } from "latchkey/sveltekit"
 * declare global {
 *   namespace App {
 *     interface Locals extends LatchkeyLocals {}
 *   }
 * }
 * export {}
 * ```
 */
export interface LatchkeyLocals<S extends Session = Session> {
  auth: () => Promise<S | null>
}

/**
 * The `handle` hook's input, structurally: SvelteKit's `{ event, resolve }`.
 *
 * Exported from `latchkey/sveltekit`.
 *
 * @example
 * ```ts
 * import type { KitHandleInput } from "latchkey/sveltekit"
 * // SvelteKit's own `handle` input fits it: what latchkey's hook reads of a request.
 * const pathOf = ({ event }: KitHandleInput) => event.url.pathname
 * ```
 */
export interface KitHandleInput {
  event: { request: Request; url: URL; locals: object }
  resolve: (event: never) => Response | Promise<Response>
}

/**
 * What {@link Latchkey} returns: `createAuth`'s members (with `getAccessToken` when a
 * `providerTokens` plug-in refreshes), and
 *
 * - `handle`: the server hook (`export const handle = ...` in `src/hooks.server.ts`, or one step
 *   of `sequence(...)`).
 * - `signIn`, `signOut`: form actions. `signIn` reads `providerId` and `redirectTo` (and any
 *   provider fields, such as `email`) from the form; `signOut` reads `redirectTo`. Each redirects
 *   with `303`; a refused sign-in goes to the error or sign-in page with its `error` code.
 * - `signUp`, `requestPasswordReset`, `resetPassword`, `changePassword`, `changeEmail`: the
 *   password form actions ({@link PasswordFormAction}); each reads its route's fields and
 *   `redirectTo` from the form.
 *
 * Exported from `latchkey/sveltekit`.
 *
 * @example
 * ```ts
 * // src/auth.ts
 * import { Latchkey, type SvelteKitAuthInstance } from "latchkey/sveltekit"
 * import GitHub from "latchkey/providers/github"
 * export const { handle, signIn, signOut }: SvelteKitAuthInstance = Latchkey({ providers: [GitHub] })
 * ```
 */
export interface SvelteKitAuthInstance<S extends Session = Session> extends Auth<S> {
  handle: (input: KitHandleInput) => Promise<Response>
  signIn: (event: KitActionEvent) => Promise<never>
  signOut: (event: KitActionEvent) => Promise<never>
  signUp: PasswordFormAction
  requestPasswordReset: PasswordFormAction
  resetPassword: PasswordFormAction
  changePassword: PasswordFormAction
  changeEmail: PasswordFormAction
}

/**
 * A password form action (`export const actions = { default: signUp }`): it posts the form's
 * fields to its route and redirects (303) where the handler sends the browser next, or returns
 * SvelteKit's `fail(status, { error, reason?, retryAfter? })` for the page to show.
 *
 * Exported from `latchkey/sveltekit`.
 *
 * @example
 * ```ts
 * import type { PasswordFormAction } from "latchkey/sveltekit"
 * declare const signUp: PasswordFormAction
 * export const actions = { default: signUp }
 * ```
 */
export type PasswordFormAction = (event: KitActionEvent) => Promise<KitActionFailure<PasswordFormError>>

/**
 * latchkey for SvelteKit: `createAuth(config)` plus a `handle` hook and `signIn`/`signOut` form
 * actions. The counterpart of Auth.js's `SvelteKitAuth(config)`; see docs/frameworks/sveltekit.md.
 *
 * While `vite build` runs SvelteKit's post-build analysis and prerendering, the configuration is
 * checked at its first use instead of here, so an app built without the run-time secrets still
 * builds; at run time a missing secret, provider id or issuer throws here, as the app loads
 * `auth.ts`. The `latchkey` CLI defers the checks the same way while it reads `auth.ts`.
 *
 * Exported from `latchkey/sveltekit`.
 *
 * @throws {@link index!MissingSecretError} with no secret; {@link index!InvalidOptionError} for a
 * malformed config (as `createAuth`).
 *
 * @example
 * ```ts
 * // src/auth.ts
 * import { Latchkey } from "latchkey/sveltekit"
 * import GitHub from "latchkey/providers/github"
 * export const { handle, signIn, signOut } = Latchkey({ providers: [GitHub] })
 *
 * // src/hooks.server.ts
 * export { handle } from "./auth"
 *
 * // src/routes/+layout.server.ts
 * export const load = async ({ locals }) => ({ session: await locals.auth() })
 *
 * // src/routes/signout/+page.server.ts
 * export const actions = { default: signOut }
 * ```
 */
export function Latchkey<J extends JWT = JWT, S extends Session = Session, P extends ProviderTokensEngine | undefined = undefined>(
  config: AuthConfig<J, S> & { providerTokens?: P },
): SvelteKitAuthInstance<S> & AccessTokenApiOf<P> {
  const { instance, members: forwarded } = deferredAuth(config, checksDeferred())
  const { handler } = forwarded
  const auth = async (request: Request) => instance().auth(request)
  const pages = {
    get basePath() {
      return instance().basePath
    },
    signIn: config.pages?.signIn,
    error: config.pages?.error,
  }
  const actions = eventActions({ handler }, pages)

  async function handle({ event, resolve }: KitHandleInput): Promise<Response> {
    const { basePath } = instance()
    const { pathname } = event.url
    if (pathname === basePath || pathname.startsWith(`${basePath}/`)) return handler(event.request)
    let session: Promise<S | null> | undefined
    const locals = event.locals as Partial<LatchkeyLocals<S>>
    locals.auth = () => (session ??= auth(event.request))
    return resolve(event as never)
  }

  // In place: a spread would read the forwarded `basePath` getter, and so check the configuration now.
  const members: SvelteKitAuthInstance<S> = Object.assign(forwarded, { auth, handle, ...actions })
  // Apps export these destructured (init writes `{ handle, signIn, signOut }`): each carries the
  // config for the CLI to find, as createAuth's own members do.
  brandWithConfig(config, handler, auth, handle, actions.signIn, actions.signOut, members)
  return withAccessToken(members, config, instance) as SvelteKitAuthInstance<S> & AccessTokenApiOf<P>
}

/**
 * Whether to check the configuration at its first use instead of in {@link Latchkey}: while
 * `vite build` runs SvelteKit's post-build analysis and prerendering, which import `auth.ts` in a
 * worker SvelteKit marks with `SVELTEKIT_FORK=true` (the `building` of `$app/environment`, which a
 * package built once for every host cannot import), because a CI or Docker build often has none
 * of the secrets the app only gets at run time; and while the `latchkey` CLI reads `auth.ts`, so
 * `doctor` reports each missing variable on its own line.
 */
function checksDeferred(): boolean {
  return readEnv("SVELTEKIT_FORK") === "true" || readingConfig()
}
