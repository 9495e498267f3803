/**
 * The passkey routes as the router sees them: which requests are passkey requests, and handing
 * each to the `webauthn` object the app passed (from `latchkey/webauthn`, where the routes live),
 * with the handler's capabilities. An app without it has no passkey routes.
 */
import type { ResolvedProvider } from "../providers/types.js"
import type { PasskeyProvider, PasskeyRequest } from "../webauthn/host.js"
import type { RequestContext } from "./context.js"
import { json } from "./response.js"
import { passkeyHost } from "./webauthn-host.js"

/** The path of the served passkey script, under `basePath`. */
export const PASSKEY_SCRIPT_ROUTE = "webauthn-client.js"

function isPasskeyProvider(provider: ResolvedProvider | undefined): provider is PasskeyProvider {
  return provider?.type === "webauthn"
}

/** Whether the router hands this request to the passkey routes. */
export function isWebAuthnRoute(action: string, provider: ResolvedProvider | undefined): boolean {
  if (action === PASSKEY_SCRIPT_ROUTE || action === "passkeys") return true
  return (action === "webauthn-options" || action === "callback") && isPasskeyProvider(provider)
}

const ROUTES: Record<string, PasskeyRequest["route"]> = { [PASSKEY_SCRIPT_ROUTE]: "script", passkeys: "passkeys", "webauthn-options": "options", callback: "callback" }

/** A passkey request (`form` for a POST), answered by the app's `webauthn`; 404 in JSON without it. */
export function webauthnRoute(context: RequestContext, action: string, provider: ResolvedProvider | undefined, form?: URLSearchParams): Promise<Response> {
  const ceremony = context.webauthn
  if (!ceremony) return Promise.resolve(json({ error: "NotFound" }, [], 404))
  return ceremony.handle(passkeyHost(context), { route: ROUTES[action]!, provider: isPasskeyProvider(provider) ? provider : undefined, form })
}
