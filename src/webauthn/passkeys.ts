/**
 * The passkey management API under `basePath`, for an app's account page: `GET passkeys` lists the
 * signed-in user's passkeys; `POST passkeys` (CSRF-checked first) renames one
 * (`action=rename`, `id`, `name`) or deletes one (`action=delete`, `id`). Every call needs a
 * session made in this browser, and touches only that user's passkeys: another user's credential
 * id is answered as not found. Deleting refuses the user's last way to sign in. Renaming and
 * deleting need latchkey's adapter extensions (`renameAuthenticator`, `deleteAuthenticator`); an
 * adapter without them is answered `NotSupported`.
 */
import type { AdapterUser } from "../adapters/adapter.js"
import { hasAnotherSignInWay } from "../adapters/sign-in-ways.js"
import { browserUser, findAuthenticator, passkeyAdapter, summarize, type PasskeyAdapter } from "./context.js"
import type { PasskeyHost } from "./host.js"
import { passkeyError, passkeyName } from "./routes.js"

async function listed(host: PasskeyHost, adapter: PasskeyAdapter, user: AdapterUser): Promise<Response> {
  const passkeys = (await adapter.listAuthenticatorsByUserId(String(user.id))).map(summarize)
  return host.json({ passkeys })
}

/** GET passkeys. */
export async function listPasskeys(host: PasskeyHost): Promise<Response> {
  const adapter = passkeyAdapter(host)
  const user = await browserUser(host, adapter)
  return user ? listed(host, adapter, user) : passkeyError(host, "SessionRequired", 401)
}

/** POST passkeys, after the CSRF check. */
export async function changePasskey(host: PasskeyHost, form: URLSearchParams): Promise<Response> {
  const adapter = passkeyAdapter(host)
  const user = await browserUser(host, adapter)
  if (!user) return passkeyError(host, "SessionRequired", 401)
  const action = form.get("action")
  const id = form.get("id")
  if ((action !== "rename" && action !== "delete") || !id) return passkeyError(host, "InvalidRequest", 400)
  const stored = await findAuthenticator(adapter, id)
  // Someone else's passkey is answered exactly like one that does not exist.
  if (!stored || String(stored.userId) !== String(user.id)) return passkeyError(host, "NotFound", 404)
  if (action === "rename") {
    const name = passkeyName(form.get("name"))
    if (!name) return passkeyError(host, "InvalidRequest", 400)
    if (!adapter.renameAuthenticator) return passkeyError(host, "NotSupported", 501)
    await adapter.renameAuthenticator(stored.credentialID, name)
    return listed(host, adapter, user)
  }
  if (!adapter.deleteAuthenticator) return passkeyError(host, "NotSupported", 501)
  // Another passkey counts only when it still signs in (its account row at a passkey provider this app has).
  if (!(await hasAnotherSignInWay(adapter, host.providers, user, { passkey: stored }))) return passkeyError(host, "LastSignInMethod", 409)
  await adapter.deleteAuthenticator(stored.credentialID)
  // Then its webauthn account row, which signs nobody in without the authenticator.
  for (const provider of host.providers.filter((candidate) => candidate.type === "webauthn")) {
    const account = await adapter.getAccount(stored.providerAccountId, provider.id)
    if (account && String(account.userId) === String(user.id)) await adapter.unlinkAccount?.({ provider: provider.id, providerAccountId: stored.providerAccountId })
  }
  return listed(host, adapter, user)
}
