/**
 * The password routes as the router sees them: which requests are password requests
 * (`callback/<password provider>` and `password/*`), handing each to the `passwords` plug-in the app
 * passed (from `latchkey/passwords`, where the routes live) with the handler's capabilities, and
 * what `createAuth` checks once about a password provider. An app without the plug-in has no
 * password routes.
 */
import { InvalidProviderError } from "../errors.js"
import type { PasswordProvider, PasswordRequest } from "../passwords/host.js"
import type { ResolvedProvider } from "../providers/types.js"
import type { RequestContext, SettledConfig } from "./context.js"
import { passwordHost } from "./password-host.js"
import { json } from "./response.js"

/** The action every password route but sign-in lives under: `<basePath>/password/<route>`. */
export const PASSWORD_ACTION = "password"

const SUB_ROUTES = new Set<string>(["sign-up", "verify-email", "forgot", "reset", "change", "change-email", "confirm-email"])

function isPasswordProvider(provider: ResolvedProvider | undefined): provider is PasswordProvider {
  return provider?.type === "password"
}

/** The app's password provider (at most one: checked at start-up), which `password/*` routes act for. */
export function passwordProviderOf(providers: readonly ResolvedProvider[]): PasswordProvider | undefined {
  return providers.find(isPasswordProvider)
}

/** Whether the router hands this request (a POST when `post`) to the password routes. */
export function isPasswordRoute(action: string, provider: ResolvedProvider | undefined, post = false): boolean {
  // latchkey/client's signIn(id) posts to signin/<id> whatever the provider's type: for a password
  // provider that is the same sign-in as the page's form posting to callback/<id>.
  return action === PASSWORD_ACTION || ((action === "callback" || (post && action === "signin")) && isPasswordProvider(provider))
}

/** The route named after `password/` in the path, such as `sign-up`; undefined for none. */
export function passwordSubRoute(context: Pick<RequestContext, "url" | "basePath">): string | undefined {
  const segment = context.url.pathname.slice(context.basePath.length + 1).split("/")[1]
  return segment !== undefined && SUB_ROUTES.has(segment) ? segment : undefined
}

/** A password request (`form` for a POST), answered by the app's `passwords`; 404 in JSON without it. */
export function passwordRoute(context: RequestContext, action: string, provider: ResolvedProvider | undefined, form?: URLSearchParams): Promise<Response> {
  const plugIn = context.passwords
  const passwordProvider = isPasswordProvider(provider) ? provider : passwordProviderOf(context.providers)
  const route: PasswordRequest["route"] | undefined =
    action === "verify-request" ? "check-email" : action === "callback" || action === "signin" ? (form ? "sign-in" : undefined) : (passwordSubRoute(context) as PasswordRequest["route"] | undefined)
  if (!plugIn || !passwordProvider || route === undefined) return Promise.resolve(json({ error: "NotFound" }, [], 404))
  return plugIn.handle(passwordHost(context), { route, provider: passwordProvider, form })
}

const ADD_PLUG_IN = 'add `import { passwords } from "latchkey/passwords"` and pass it to createAuth: createAuth({ providers, adapter, passwords }).'

/** Throws for a password setup that cannot work: no plug-in, or no way to send the mails. */
export function checkPasswordsAtStartup(settled: SettledConfig, providers: readonly ResolvedProvider[]): void {
  const found = providers.filter(isPasswordProvider)
  if (found.length > 1) throw new InvalidProviderError(found[1]!.id, "type", "only one password provider may be configured.")
  for (const provider of found) {
    if (!settled.passwords) throw new InvalidProviderError(provider.id, "passwords", `a password provider needs the password routes: ${ADD_PLUG_IN}`)
    if (typeof provider.sendEmail !== "function") {
      throw new InvalidProviderError(provider.id, "sendEmail", "a password provider needs sendEmail: it mails verification links, reset links and change-of-address links.")
    }
  }
}
