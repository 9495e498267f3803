/**
 * Email ("magic link") sign-in: a single-use token, stored only as a hash through the adapter,
 * valid until the provider's `maxAge`, sent as a link to the callback. The stored hash and the
 * user handling are Auth.js's, so links sent by either library before a deploy (or a rollback)
 * still sign in, and the adapter is asked for what Auth.js asks for: no account row is written.
 */
import { withAdapterMethods, type AdapterUser } from "../adapters/adapter.js"
import { EMAIL_METHODS } from "../adapters/requirements.js"
import { encodeBase64url } from "../lib/base64url.js"
import { normalizeEmailAddress } from "../lib/email-address.js"
import { AddressCollationError } from "../errors.js"
import { userWithAddress } from "../oauth/address-match.js"
import type { EmailConfig, AppProvider } from "../providers/types.js"
import type { User } from "../types.js"
import { fireEvent } from "../adapters/events.js"
import { voidUnprovenPassword } from "../adapters/hide-password.js"
import { ownRow } from "../adapters/token-rows.js"
import type { RequestContext } from "./context.js"
import { sha256, sha256Hex } from "../jwt/digest.js"
import { revokeSessions, type SignInOutcome } from "./complete-sign-in.js"

/**
 * What is stored of a link's token, as Auth.js stores it: the lower-case hex SHA-256 of the token
 * followed by the secret (Auth.js appends its secret list joined by commas, which for one secret is
 * the secret itself). Never the token.
 */
function storedTokenHash(token: string, secrets: readonly string[]): string | Promise<string> {
  return sha256Hex(`${token}${secrets.join(",")}`)
}

/**
 * Every stored form a valid link's token may have, newest first: Auth.js's (what is written now);
 * the same with each secret alone, for a link sent before a secret was added; and the base64url
 * form latchkey wrote before it matched Auth.js, so a link sent by an older latchkey still works.
 */
async function storedTokenCandidates(token: string, secrets: readonly string[]): Promise<string[]> {
  const forms = [await storedTokenHash(token, secrets)]
  if (secrets.length > 1) for (const secret of secrets) forms.push(await sha256Hex(`${token}${secret}`))
  forms.push(await sha256(`${token}${secrets[0]}`))
  return [...new Set(forms)]
}

/**
 * The address in normalised form with the provider's `normalizeIdentifier`, or undefined when it
 * is not exactly one plain address: the rules passkey sign-up applies too (see
 * `lib/email-address.ts`).
 */
export function normalizeEmail(provider: Pick<EmailConfig, "normalizeIdentifier">, raw: string | null): string | undefined {
  return normalizeEmailAddress(raw, provider.normalizeIdentifier)
}

function adapterOf(context: RequestContext, provider: EmailConfig) {
  return withAdapterMethods(context.adapter, EMAIL_METHODS, `provider "${provider.id}" (email sign-in)`)
}

/**
 * The secrets a link's stored hash is keyed with: the provider's own `secret` when it has one (as
 * Auth.js reads it, so links in flight keep working across a move), else the app's.
 */
function linkSecrets(context: RequestContext, provider: EmailConfig): readonly string[] {
  return provider.secret === undefined ? context.secret : [provider.secret]
}

/** The user whose stored address is `email` (never one the store's collation folded into it), and whether it folded one. */
function userOfAddress(context: RequestContext, provider: EmailConfig, email: string) {
  return userWithAddress(adapterOf(context, provider), email, provider.normalizeIdentifier, context.logger)
}

/**
 * Who a link request is for, as the `signIn` callback is told before anything is sent: the user
 * with the address, else the user a followed link would create (a fresh id, not yet verified).
 * Nothing is written. A look-alike's link is sent like any other, and refused when followed.
 */
export async function emailRequestUser(context: RequestContext, provider: EmailConfig, email: string): Promise<User> {
  const user: AdapterUser = (await userOfAddress(context, provider, email)).user ?? { id: crypto.randomUUID(), email, emailVerified: null }
  return user as User
}

/** Creates the token, stores its hash, and sends the link. */
export async function sendSignInLink(context: RequestContext, provider: EmailConfig & AppProvider, email: string, callbackUrl: string | undefined): Promise<void> {
  const adapter = adapterOf(context, provider)
  const token = provider.generateVerificationToken ? await provider.generateVerificationToken() : encodeBase64url(crypto.getRandomValues(new Uint8Array(32)))
  const expires = new Date(Date.now() + (provider.maxAge ?? 24 * 60 * 60) * 1000)
  await adapter.createVerificationToken({ identifier: email, token: await storedTokenHash(token, linkSecrets(context, provider)), expires })
  const url = new URL(provider.callbackUrl)
  url.searchParams.set("token", token)
  url.searchParams.set("email", email)
  if (callbackUrl) url.searchParams.set("callbackUrl", callbackUrl)
  await provider.sendVerificationRequest({ identifier: email, url: url.href, expires, provider, token, theme: context.theme ?? {}, request: context.request })
}

/** Uses up the stored token for `token`, in whichever form it was stored; undefined when none is valid. */
async function useStoredToken(context: RequestContext, provider: EmailConfig, email: string, token: string) {
  const adapter = adapterOf(context, provider)
  for (const hashed of await storedTokenCandidates(token, linkSecrets(context, provider))) {
    const stored = await adapter.useVerificationToken({ identifier: email, token: hashed })
    // The token's hash does not cover the address (Auth.js's format), and a collation that folds
    // finds a look-alike's row for it: a link mailed to ada@exämple.com, edited to name
    // ada@example.com, must not sign in as her. Only the row of the very address and token proves it.
    if (stored) return stored.expires.getTime() < Date.now() || !ownRow(stored, email, hashed) ? undefined : stored
  }
  return undefined
}

/**
 * The user a followed link signs in, as Auth.js finds it: the user with the address (whose
 * `emailVerified` is set now), else a new user. Runs only after the `signIn` callback agreed.
 * When the store's collation folds the address into another user's, the link proved neither that
 * user's mailbox nor one a new user could be written for: the sign-in is refused.
 */
async function emailUser(context: RequestContext, provider: EmailConfig, email: string): Promise<{ user: User; isNewUser: boolean }> {
  const adapter = adapterOf(context, provider)
  const { user: existing, lookAlike } = await userOfAddress(context, provider, email)
  if (lookAlike) throw new AddressCollationError(provider.id)
  if (existing) {
    // The link proves the address: a password set by someone who never proved it goes (pre-hijacking).
    if (await voidUnprovenPassword(adapter, existing)) await revokeSessions(context, existing.id)
    if (!adapter.updateUser) return { user: existing as User, isNewUser: false }
    const user = await adapter.updateUser({ id: existing.id, emailVerified: new Date() })
    await fireEvent(context, "updateUser", { user })
    return { user: user as User, isNewUser: false }
  }
  const creator = withAdapterMethods(adapter, ["createUser"], `provider "${provider.id}" (email sign-up)`)
  const created: AdapterUser = await creator.createUser({ id: crypto.randomUUID(), email, emailVerified: new Date() })
  await fireEvent(context, "createUser", { user: created })
  return { user: created as User, isNewUser: true }
}

/** Consumes the link's token; answers the sign-in, or undefined when the link is not valid. Only a GET may consume it. */
export async function verifySignInLink(context: RequestContext, provider: EmailConfig & AppProvider): Promise<SignInOutcome | undefined> {
  const { url } = context
  const token = url.searchParams.get("token")
  const email = normalizeEmail(provider, url.searchParams.get("email"))
  if (!token || !email || !(await useStoredToken(context, provider, email, token))) return undefined
  // Following the link proves the address, so an existing user with it is this user.
  const user = (await userOfAddress(context, provider, email)).user ?? { email, emailVerified: new Date() }
  return {
    user,
    account: { provider: provider.id, type: "email", providerAccountId: email },
    provider: { id: provider.id, type: "email", allowDangerousEmailAccountLinking: true },
    // As in Auth.js, no account row: the address on the user row is the link between them.
    resolveUser: () => emailUser(context, provider, email),
    // The link's own callbackUrl, for a link opened in a browser that has no callback-url cookie.
    callbackUrl: url.searchParams.get("callbackUrl") ?? undefined,
  }
}
