/**
 * The passkey routes' entry, called by the handler for a request it recognised as a passkey
 * request: POSTs are CSRF-checked first (answered in JSON: their callers are scripts), each route
 * gets its request, and anything that goes wrong unexpectedly is logged and answered in JSON.
 */
import { changePasskey, listPasskeys } from "./passkeys.js"
import type { PasskeyHost, PasskeyRequest } from "./host.js"
import { passkeyError, webauthnCallback, webauthnOptions, webauthnScript } from "./routes.js"
import type { Verifier } from "./types.js"

async function guarded(host: PasskeyHost, route: () => Promise<Response>): Promise<Response> {
  try {
    return await route()
  } catch (error) {
    host.logger.error(error as Error)
    return host.json({ error: "Configuration" }, [], 500)
  }
}

/** Answers one passkey request; `ceremony` is the cryptography the routes call. */
export function handlePasskeyRequest(ceremony: Verifier, host: PasskeyHost, request: PasskeyRequest): Promise<Response> {
  const { route, provider, form } = request
  return guarded(host, async () => {
    // Only an app with a passkey provider has passkey routes.
    if (!host.providers.some((candidate) => candidate.type === "webauthn")) return passkeyError(host, "NotFound", 404)
    if (form === undefined) {
      if (route === "script") return webauthnScript(ceremony, host)
      if (route === "passkeys") return listPasskeys(host)
      if (route === "options" && provider) return webauthnOptions(ceremony, host, provider)
      return passkeyError(host, "NotFound", 404)
    }
    if (!(await host.verifyCsrf(form.get("csrfToken")))) return passkeyError(host, "MissingCSRF", 403)
    if (route === "callback" && provider) return webauthnCallback(ceremony, host, provider, form)
    if (route === "passkeys") return changePasskey(host, form)
    return passkeyError(host, "NotFound", 404)
  })
}
