/**
 * The passkey routes, in the Auth.js style: `GET webauthn-options/:id?action=register|authenticate`
 * answers the ceremony's options as JSON and sets the sealed challenge cookie; `POST callback/:id`
 * (`action`, `data`, `csrfToken`, CSRF-checked by the router) verifies the browser's response,
 * signs the user in (or adds the passkey to the signed-in user) and answers `{ url }` to go to.
 * `GET webauthn-client.js` serves the browser script. Refusals answer `{ error: <code> }`. The
 * handler lends what it owns (the session, finishing a sign-in, the events) through the host.
 *
 * Who a passkey is registered to is decided here, never by the request: the user signed in in
 * this browser, or, with `allowSignUp`, a new user for an address no user has. An address that
 * belongs to someone is never registered onto by anyone but that someone's own session.
 */
import { WebAuthnError, type WebAuthnErrorReason } from "../errors.js"
import { encodeBase64url } from "../lib/base64url.js"
import { base64urlToBase64, toBase64url } from "../lib/base64-forms.js"
import type { AdapterAccount, AdapterAuthenticator, AdapterUser } from "../adapters/adapter.js"
import type { Account, User } from "../types.js"
import { challengeLifetime, clearChallenge, newChallenge, sealChallenge, useChallenge, type Registrant } from "./challenge.js"
import { browserUser, findAuthenticator, passkeyAdapter, relyingParty, summarize, type PasskeyAdapter } from "./context.js"
import type { PasskeyHost, PasskeyProvider } from "./host.js"
import type { PasskeyErrorCode, RegisteredCredential, Verifier } from "./types.js"

const REFUSALS: Record<WebAuthnErrorReason, [PasskeyErrorCode, number]> = {
  challenge_missing: ["InvalidChallenge", 400],
  challenge_invalid: ["InvalidChallenge", 400],
  challenge_replayed: ["InvalidChallenge", 400],
  challenge_mismatch: ["InvalidChallenge", 400],
  invalid_response: ["InvalidRequest", 400],
  verification_failed: ["VerificationFailed", 400],
  unknown_credential: ["UnknownCredential", 400],
  // A clone is not told why: it is the same answer as a bad signature.
  counter_rollback: ["VerificationFailed", 400],
  credential_exists: ["CredentialExists", 409],
  sign_up_disabled: ["SignUpDisabled", 403],
  account_exists: ["AccountExists", 409],
  session_required: ["SessionRequired", 401],
}

/** A passkey route's JSON refusal. */
export function passkeyError(host: PasskeyHost, code: PasskeyErrorCode, status: number, cookies: string[] = []): Response {
  return host.json({ error: code }, cookies, status)
}

/** A refused ceremony: logged with its reason (never the challenge or response), answered with its code. */
export function refusal(host: PasskeyHost, error: WebAuthnError, cookies: string[] = []): Response {
  if (error.reason === "counter_rollback") host.logger.error(error)
  else host.logger.warn("ERR_WEBAUTHN", { message: `${error.reason}: ${error.message}` })
  const [code, status] = REFUSALS[error.reason]
  return passkeyError(host, code, status, cookies)
}

const requiresUserVerification = (provider: PasskeyProvider) => provider.userVerification === "required"

/** GET webauthn-options/:id: the options for one ceremony, and its challenge cookie. */
export async function webauthnOptions(ceremony: Verifier, host: PasskeyHost, provider: PasskeyProvider): Promise<Response> {
  const adapter = passkeyAdapter(host)
  const requested = host.url.searchParams.get("action")
  if (requested !== null && requested !== "register" && requested !== "authenticate") return passkeyError(host, "InvalidRequest", 400)
  const rp = await relyingParty(host, provider)
  const challenge = newChallenge()
  const lifetime = challengeLifetime(provider.timeout)
  // Signing in needs no session read; as in Auth.js, with no action a signed-in user adds a passkey and anyone else signs in with one.
  const signedIn = requested === "authenticate" ? null : await browserUser(host, adapter)
  const action = requested ?? (signedIn ? "register" : "authenticate")
  if (action === "authenticate") {
    const options = await ceremony.authenticationOptions({ rp, challenge, userVerification: provider.userVerification, timeout: provider.timeout })
    return host.json({ action, options }, await sealChallenge(host, { challenge, ceremony: action, provider: provider.id }, lifetime))
  }
  let registrant: Registrant
  let userName: string
  let displayName: string
  let exclude: { id: string; transports?: string[] }[] = []
  if (signedIn) {
    registrant = { userId: String(signedIn.id) }
    userName = signedIn.email || signedIn.name || String(signedIn.id)
    displayName = signedIn.name || userName
    exclude = (await adapter.listAuthenticatorsByUserId(String(signedIn.id))).map((stored) => ({
      id: toBase64url(stored.credentialID) ?? stored.credentialID,
      transports: stored.transports ? stored.transports.split(",") : undefined,
    }))
  } else {
    const signUp = await signUpRegistrant(host, provider, adapter)
    if (signUp instanceof Response) return signUp
    registrant = signUp
    userName = signUp.email
    displayName = signUp.name
  }
  const userHandle = encodeBase64url(crypto.getRandomValues(new Uint8Array(32)))
  const options = await ceremony.registrationOptions({
    rp,
    challenge,
    userHandle,
    userName,
    userDisplayName: displayName,
    excludeCredentials: exclude,
    userVerification: provider.userVerification,
    timeout: provider.timeout,
  })
  return host.json({ action, options }, await sealChallenge(host, { challenge, ceremony: "register", provider: provider.id, registrant }, lifetime))
}

/** Who a sign-up registers: a new address, when the provider allows sign-up and no user has it. */
async function signUpRegistrant(host: PasskeyHost, provider: PasskeyProvider, adapter: PasskeyAdapter): Promise<Registrant & { email: string; name: string } | Response> {
  if (!provider.allowSignUp) return passkeyError(host, "SignUpDisabled", 403)
  const email = host.normalizeEmail(host.url.searchParams.get("email"))
  if (!email) return passkeyError(host, "InvalidEmail", 400)
  if (await adapter.getUserByEmail!(email)) return passkeyError(host, "AccountExists", 409)
  const info = provider.getUserInfo ? await provider.getUserInfo({ email }) : { name: email }
  if (!info) return passkeyError(host, "SignUpDisabled", 403)
  return { email, name: info.displayName || info.name || email }
}

/** The `data` field: the browser's PublicKeyCredential in its JSON form. */
function parseResponse(form: URLSearchParams): unknown {
  const data = form.get("data")
  try {
    return data === null ? undefined : JSON.parse(data)
  } catch {
    throw new WebAuthnError("invalid_response", "The passkey response is not JSON.")
  }
}

/** POST callback/:id, after the CSRF check: verify, then sign in or add the passkey. */
export async function webauthnCallback(ceremony: Verifier, host: PasskeyHost, provider: PasskeyProvider, form: URLSearchParams): Promise<Response> {
  const cleared = clearChallenge(host)
  const action = form.get("action")
  if (action !== "register" && action !== "authenticate") return passkeyError(host, "InvalidRequest", 400, cleared)
  try {
    return action === "authenticate" ? await authenticate(ceremony, host, provider, form, cleared) : await register(ceremony, host, provider, form, cleared)
  } catch (error) {
    if (error instanceof WebAuthnError) return refusal(host, error, cleared)
    throw error
  }
}

/** A sign-in's redirect as the JSON a script follows: `{ url }`, with the same cookies. */
function asJson(host: PasskeyHost, response: Response, cookies: string[]): Response {
  return host.json({ url: response.headers.get("location") }, [...cookies, ...response.headers.getSetCookie()])
}

async function authenticate(ceremony: Verifier, host: PasskeyHost, provider: PasskeyProvider, form: URLSearchParams, cleared: string[]): Promise<Response> {
  const adapter = passkeyAdapter(host)
  const { challenge } = await useChallenge(host, "authenticate", provider.id)
  const response = parseResponse(form)
  const id = (response as { id?: unknown } | undefined)?.id
  if (typeof id !== "string" || id.length > 1400) throw new WebAuthnError("invalid_response", "The passkey response has no credential id.")
  const stored = await findAuthenticator(adapter, id)
  if (!stored) throw new WebAuthnError("unknown_credential", "No passkey with this credential id is registered.")
  const account = await adapter.getAccount(stored.providerAccountId, provider.id)
  const user = account && String(account.userId) === String(stored.userId) ? await adapter.getUser(String(stored.userId)) : null
  if (!user) throw new WebAuthnError("unknown_credential", `The passkey's account or user is missing (provider "${provider.id}").`)
  const credential = { id: toBase64url(stored.credentialID) ?? id, publicKey: toBase64url(stored.credentialPublicKey) ?? "", counter: stored.counter, transports: stored.transports?.split(",") }
  const verified = await ceremony.verifyAuthentication({ rp: await relyingParty(host, provider), challenge, response, credential, requireUserVerification: requiresUserVerification(provider) })
  // A counter that does not move forward (once either side has one) means a cloned authenticator.
  if ((verified.counter > 0 || stored.counter > 0) && verified.counter <= stored.counter) {
    throw new WebAuthnError("counter_rollback", `A passkey of user "${String(user.id).slice(0, 64)}" signed with counter ${verified.counter}, not above the stored ${stored.counter}: it may be cloned.`)
  }
  if (verified.counter !== stored.counter) await adapter.updateAuthenticatorCounter(stored.credentialID, verified.counter)
  const signIn: Account = { provider: provider.id, type: "webauthn", providerAccountId: stored.providerAccountId }
  const completed = await host.completeSignIn({
    user: user as User,
    account: signIn,
    providerId: provider.id,
    callbackUrl: form.get("callbackUrl") ?? undefined,
    resolveUser: async () => ({ user: user as User, isNewUser: false }),
  })
  return asJson(host, completed, cleared)
}

/** The Auth.js rows for a new credential: its webauthn account and its authenticator. */
function rowsFor(provider: PasskeyProvider, userId: string, created: RegisteredCredential): { account: AdapterAccount; authenticator: AdapterAuthenticator } {
  const credentialID = base64urlToBase64(created.id)
  const credentialPublicKey = base64urlToBase64(created.publicKey)
  if (credentialID === undefined || credentialPublicKey === undefined) throw new WebAuthnError("invalid_response", "The new credential's id or key is not base64url.")
  return {
    account: { userId, provider: provider.id, type: "webauthn", providerAccountId: credentialID },
    authenticator: {
      userId,
      providerAccountId: credentialID,
      credentialID,
      credentialPublicKey,
      counter: created.counter,
      credentialDeviceType: created.deviceType,
      credentialBackedUp: created.backedUp,
      transports: created.transports?.length ? created.transports.join(",") : null,
    },
  }
}

/**
 * Stores a new credential for `user`: the account row, then the authenticator. When the second
 * write fails, the first is undone (where the adapter can unlink), so no half-registered passkey
 * is left behind.
 */
async function storeCredential(host: PasskeyHost, adapter: PasskeyAdapter, user: AdapterUser, rows: ReturnType<typeof rowsFor>, name: string | null): Promise<AdapterAuthenticator> {
  await adapter.linkAccount(rows.account)
  let stored: AdapterAuthenticator
  try {
    stored = await adapter.createAuthenticator(rows.authenticator)
  } catch (error) {
    await Promise.resolve(adapter.unlinkAccount?.(rows.account)).catch(() => undefined)
    throw error
  }
  await host.fireEvent("linkAccount", { user, account: rows.account })
  if (name && adapter.renameAuthenticator) return adapter.renameAuthenticator(rows.authenticator.credentialID, name)
  return stored ?? rows.authenticator
}

const MAX_NAME_LENGTH = 64

/** A passkey name as given, trimmed; null when absent or empty. */
export function passkeyName(raw: string | null): string | null {
  const name = raw?.trim().slice(0, MAX_NAME_LENGTH)
  return name ? name : null
}

async function register(ceremony: Verifier, host: PasskeyHost, provider: PasskeyProvider, form: URLSearchParams, cleared: string[]): Promise<Response> {
  const adapter = passkeyAdapter(host)
  const { challenge, registrant } = await useChallenge(host, "register", provider.id)
  if (!registrant) throw new WebAuthnError("challenge_invalid", "The registration challenge names no user.")
  const signedIn = await browserUser(host, adapter)
  if ("userId" in registrant) {
    // Issued to a signed-in user: only that user, still signed in in this browser, can finish it.
    if (!signedIn) throw new WebAuthnError("session_required", "Adding a passkey needs the session it was started in.")
    if (String(signedIn.id) !== registrant.userId) throw new WebAuthnError("challenge_mismatch", "The registration was started by another user.")
  } else if (!provider.allowSignUp) {
    throw new WebAuthnError("sign_up_disabled", `Provider "${provider.id}" does not allow sign-up.`)
  }
  const created = await ceremony.verifyRegistration({ rp: await relyingParty(host, provider), challenge, response: parseResponse(form), requireUserVerification: requiresUserVerification(provider) })
  if (await findAuthenticator(adapter, created.id)) throw new WebAuthnError("credential_exists", "This passkey is registered already.")
  const name = passkeyName(form.get("name"))
  if ("userId" in registrant) {
    const stored = await storeCredential(host, adapter, signedIn!, rowsFor(provider, registrant.userId, created), name)
    return host.json({ url: await host.safeRedirect(form.get("callbackUrl")), passkey: summarize(stored) }, cleared)
  }
  const newUser: User = { email: registrant.email, name: registrant.name }
  const completed = await host.completeSignIn({
    user: newUser,
    account: { provider: provider.id, type: "webauthn", providerAccountId: base64urlToBase64(created.id)! },
    providerId: provider.id,
    callbackUrl: form.get("callbackUrl") ?? undefined,
    resolveUser: () => createUserWithPasskey(host, adapter, provider, registrant, created, name),
  })
  return asJson(host, completed, cleared)
}

/** A sign-up: the address is checked again (another sign-up may have taken it meanwhile), then the user and the passkey are written. */
async function createUserWithPasskey(host: PasskeyHost, adapter: PasskeyAdapter, provider: PasskeyProvider, registrant: { email: string; name: string }, created: RegisteredCredential, name: string | null) {
  if (await adapter.getUserByEmail!(registrant.email)) throw new WebAuthnError("account_exists", "A user with this email exists: they sign in and add the passkey themselves.")
  const user = await adapter.createUser({ email: registrant.email, name: registrant.name, emailVerified: null })
  try {
    await storeCredential(host, adapter, user, rowsFor(provider, String(user.id), created), name)
  } catch (error) {
    await Promise.resolve(adapter.deleteUser?.(String(user.id))).catch(() => undefined)
    throw error
  }
  await host.fireEvent("createUser", { user })
  return { user: user as User, isNewUser: true }
}

/** GET webauthn-client.js: the passkey script, cached for a year when asked for by its version. */
export function webauthnScript(ceremony: Verifier, host: PasskeyHost): Response {
  const versioned = host.url.searchParams.get("v") === ceremony.scriptVersion
  const cache = versioned ? "public, max-age=31536000, immutable" : "public, max-age=300"
  return host.text(ceremony.script, 200, { "content-type": "text/javascript; charset=utf-8", "cache-control": cache, etag: `"${ceremony.scriptVersion}"` })
}
