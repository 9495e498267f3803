/**
 * What every passkey route needs to know about its request: the adapter (with the methods the
 * routes call, and its failures reported without the driver's message), the relying party (RP ID,
 * name and accepted origins) for this request, the user whose session this browser holds, and a
 * stored authenticator by credential id in either base64 form.
 */
import { AdapterError } from "../errors.js"
import { driverErrorHint } from "../lib/driver-errors.js"
import { base64urlToBase64, toBase64url } from "../lib/base64-forms.js"
import { withAdapterMethods, type Adapter, type AdapterAuthenticator, type AdapterUser, type AdapterWith } from "../adapters/adapter.js"
import { PASSKEY_METHODS } from "../adapters/requirements.js"
import type { WebAuthnConfig } from "../providers/types.js"
import type { PasskeyHost } from "./host.js"
import type { CeremonyRelyingParty, PasskeySummary } from "./types.js"

/** The adapter methods the passkey routes call (checked at start-up by `requireAdapterMethods`). */
export type PasskeyAdapter = AdapterWith<(typeof PASSKEY_METHODS)[number]>

/** The adapter, with the methods start-up checked a passkey provider has. */
export function passkeyAdapter(host: PasskeyHost): PasskeyAdapter {
  return reporting(withAdapterMethods(host.adapter, PASSKEY_METHODS, "passkeys"))
}

/**
 * The adapter with each failure reported as an `AdapterError` naming the method: a database error
 * quotes the values it was given (a credential's key, a user's address), and only its name and
 * code may reach the logger.
 */
function reporting<A extends Adapter>(adapter: A): A {
  return new Proxy(adapter, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver)
      if (typeof value !== "function") return value
      return async (...args: unknown[]) => {
        try {
          return await (value as (...params: unknown[]) => unknown).apply(target, args)
        } catch (error) {
          throw error instanceof AdapterError ? error : new AdapterError(String(key), error, driverErrorHint(error))
        }
      }
    },
  })
}

/**
 * The relying party for this request: the provider's fixed values, then what `getRelayingParty`
 * answers, then the defaults: the public origin's host name as the RP ID, the RP ID as the name,
 * the public origin as the one accepted origin.
 */
export async function relyingParty(host: PasskeyHost, provider: WebAuthnConfig): Promise<CeremonyRelyingParty> {
  const dynamic = provider.getRelayingParty ? await provider.getRelayingParty(host.request) : {}
  const merged = { ...provider.relayingParty }
  for (const [key, value] of Object.entries(dynamic ?? {})) if (value !== undefined) Object.assign(merged, { [key]: value })
  const id = merged.id ?? new URL(host.origin).hostname
  const origins = merged.origin === undefined ? [host.origin] : Array.isArray(merged.origin) ? merged.origin : [merged.origin]
  return { id, name: merged.name ?? id, origins }
}

/**
 * The user whose session this browser holds, or null. A session cookie made in another browser
 * (planted by a sibling subdomain) is not this browser's, and counts as signed out here: a
 * passkey is only ever added to the user who is signed in in this very browser.
 */
export async function browserUser(host: PasskeyHost, adapter: PasskeyAdapter): Promise<AdapterUser | null> {
  const signedIn = await host.signedInUser()
  if (!signedIn) return null
  return signedIn.user ?? adapter.getUser(signedIn.userId)
}

/** The stored authenticator for a credential id in base64url (WebAuthn's form): looked up as Auth.js stores it (base64), then as given. */
export async function findAuthenticator(adapter: PasskeyAdapter, credentialId: string): Promise<AdapterAuthenticator | null> {
  const standard = base64urlToBase64(credentialId)
  if (standard === undefined) return null
  const found = await adapter.getAuthenticator(standard)
  if (found || standard === credentialId) return found
  return adapter.getAuthenticator(credentialId)
}

/** A stored authenticator as the management API lists it. */
export function summarize(authenticator: AdapterAuthenticator): PasskeySummary {
  return {
    id: toBase64url(authenticator.credentialID) ?? authenticator.credentialID,
    name: authenticator.name ?? null,
    deviceType: authenticator.credentialDeviceType,
    backedUp: Boolean(authenticator.credentialBackedUp),
    transports: authenticator.transports ? authenticator.transports.split(",").filter((transport) => transport !== "") : [],
  }
}
