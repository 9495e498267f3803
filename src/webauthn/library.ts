/**
 * Loads `@simplewebauthn/server`, the library the ceremony runs on. It is an optional peer
 * dependency: only apps with passkeys install it, so nothing imports it statically. Importing
 * `latchkey/webauthn` starts the load; the first ceremony step awaits it, and an app that has not
 * installed the package gets a `MissingDependencyError` naming the install line there, instead of
 * the runtime's module-not-found error.
 */
import { MissingDependencyError } from "../errors.js"

const PACKAGE = "@simplewebauthn/server"

/** The parts of the library the ceremony uses. */
export interface WebAuthnLibrary {
  server: typeof import("@simplewebauthn/server")
  helpers: typeof import("@simplewebauthn/server/helpers")
}

/**
 * The package named on its own (quoted, or between spaces), as a module-not-found message names
 * the specifier it could not resolve; a path inside an installed copy (`…/@simplewebauthn/server/esm/…`)
 * does not match.
 */
const NAMED = /(^|["'`\s])@simplewebauthn\/server(\/helpers)?(["'`\s]|$)/

/**
 * Whether `error` says that the package itself could not be found (Node: `ERR_MODULE_NOT_FOUND`,
 * bundlers: `MODULE_NOT_FOUND` or their own wording), as opposed to a failure inside an installed
 * copy, such as one of its own dependencies missing, which is passed on unchanged.
 */
function isMissing(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (typeof message !== "string" || !NAMED.test(message)) return false
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND" || /cannot find|could not resolve|failed to (load|resolve)/i.test(message)
}

async function load(): Promise<WebAuthnLibrary> {
  try {
    const [server, helpers] = await Promise.all([import("@simplewebauthn/server"), import("@simplewebauthn/server/helpers")])
    return { server, helpers }
  } catch (error) {
    throw isMissing(error) ? new MissingDependencyError("latchkey/webauthn (passkeys)", PACKAGE, { cause: error }) : error
  }
}

let loading: Promise<WebAuthnLibrary> | undefined

/** The library, loaded once; rejects with a `MissingDependencyError` when it is not installed. */
export function webauthnLibrary(): Promise<WebAuthnLibrary> {
  if (loading === undefined) {
    loading = load()
    // Started before anyone awaits it: the rejection is reported where it is awaited, not as unhandled.
    loading.catch(() => {})
  }
  return loading
}
