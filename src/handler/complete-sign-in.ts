/**
 * The end of every sign-in, whatever the provider type: link through the adapter, ask the `signIn`
 * callback, build the token through the `jwt` callback, set the session cookie, fire events and
 * redirect to the saved destination.
 *
 * Only an OAuth or OpenID Connect sign-in may link a new account to the user already signed in, and
 * only when that session is this browser's own and still has its database row (the session store's
 * `confirmedUser`). An emailed link signs in as the user with that
 * address and credentials sign in as the user `authorize` returns: neither ever joins the current
 * session, so opening an attacker's link, or a second person logging in on a shared browser, cannot
 * attach anything to the signed-in user.
 */
import { InvalidOptionError, OAuthAccountNotLinkedError } from "../errors.js"
import { withAdapterMethods, type AdapterUser } from "../adapters/adapter.js"
import { fireEvent } from "../adapters/events.js"
import { voidUnprovenPassword } from "../adapters/hide-password.js"
import { resolveSignIn } from "../oauth/resolve-sign-in.js"
import { runsNoCheck } from "../oauth/checks.js"
import type { Account, Profile, User } from "../types.js"
import type { RequestContext } from "./context.js"
import { safeRedirect } from "./redirect.js"
import { redirect } from "./response.js"

/** A signed-in identity, before linking. */
export interface SignInOutcome {
  user: User
  account: Account
  profile?: Profile
  provider: { id: string; type: "oauth" | "oidc" | "email" | "credentials" | "webauthn"; allowDangerousEmailAccountLinking?: boolean }
  /**
   * For a sign-in that finds or creates its own user (a passkey's, an emailed link's): called instead of account
   * linking, after the `signIn` callback agreed, so a refused sign-up writes nothing.
   */
  resolveUser?: () => Promise<{ user: User; isNewUser: boolean }>
  /** A credentials sign-in's submitted fields, shown to the `signIn` callback as Auth.js shows them. */
  credentials?: Record<string, unknown>
  /** Where this sign-in asked to go (checked again before it is used). */
  callbackUrl?: string
  /** Extra Set-Cookie values to send (such as cleared check cookies). */
  cookies?: string[]
}

/** The URL of the error page for a client code. */
export function errorUrl(context: RequestContext, code: string): string {
  const target = context.pages.error ?? `${context.baseUrl}/error`
  const url = new URL(target, context.origin)
  url.searchParams.set("error", code)
  return url.href
}

/**
 * The signed-in user an OAuth sign-in may link to: this browser's own session's, confirmed against
 * its database row (a revoked session's cache copy links nothing), or none.
 */
async function linkingUserId(context: RequestContext, outcome: SignInOutcome): Promise<string | null> {
  if (!isOAuth(outcome)) return null
  // A flow with no check may be a callback someone else started: it never links into this browser's user.
  const provider = context.providers.find(({ id }) => id === outcome.provider.id)
  if (provider && "checks" in provider && runsNoCheck(provider)) return null
  return (await context.sessions.confirmedUser(context))?.userId ?? null
}

const isOAuth = (outcome: SignInOutcome) => outcome.provider.type === "oauth" || outcome.provider.type === "oidc"

/**
 * Who signs in, before linking, as the `signIn` callback is shown it (Auth.js's rule): a returning
 * OAuth account's stored user, so an app's rule on a stored field (a ban, a role) holds; else the
 * user the provider described. With no adapter an OAuth user's id is `<provider>:<account id>`:
 * stable across sign-ins, and never one person's at one provider and another's at the next (GitHub
 * and GitLab both number their accounts). `known` is the stored user looked up (null: none).
 */
async function signingInUser(context: RequestContext, outcome: SignInOutcome): Promise<{ user: User; known?: AdapterUser | null }> {
  if (!isOAuth(outcome)) return { user: outcome.user }
  const { provider, providerAccountId } = outcome.account
  if (!context.adapter) return { user: { ...outcome.user, id: `${provider}:${providerAccountId}` } }
  const known = await withAdapterMethods(context.adapter, ["getUserByAccount"], `provider "${provider}" (account linking)`).getUserByAccount({ provider, providerAccountId })
  return { user: known ?? outcome.user, known }
}

async function linkUser(context: RequestContext, outcome: SignInOutcome, signingIn: { user: User; known?: AdapterUser | null }) {
  if (outcome.resolveUser) return outcome.resolveUser()
  const adapter = context.adapter
  // One of the two questions about the store asked outside it: a session row needs a user row, so
  // credentials with database sessions look their user up (and create it); JWT sessions need none.
  if (adapter && outcome.provider.type === "credentials" && context.sessions.rows) return credentialsUser(context, outcome)
  // Credentials sign in as the user authorize() returns, and are not stored, as in Auth.js.
  if (!adapter || outcome.provider.type === "credentials") return { user: signingIn.user, isNewUser: undefined }
  const currentUserId = await linkingUserId(context, outcome)
  const linked = await resolveSignIn(adapter, { ...outcome, currentUserId, knownUser: signingIn.known })
  // Joined by address (allowDangerousEmailAccountLinking): the provider proved the address, so a
  // password nobody proved it for is an attacker's way in, and goes (with the sessions it opened).
  const byAddress = !linked.isNewUser && linked.isNewAccount && currentUserId === null
  if (byAddress && (await voidUnprovenPassword(adapter, linked.user, outcome.account))) await revokeSessions(context, linked.user.id)
  // With provider tokens kept in account rows (database sessions), a returning user's row gets this sign-in's tokens.
  await context.providerTokens?.storeSignInTokens(context, linked.user.id, outcome.account, linked.isNewAccount)
  if (linked.isNewUser) await fireEvent(context, "createUser", { user: linked.user })
  if (linked.isNewAccount) await fireEvent(context, "linkAccount", { user: linked.user, account: linked.account })
  return { user: linked.user as User, isNewUser: linked.isNewUser }
}

/**
 * Credentials with database sessions (which Auth.js refuses): a session row needs a user row, so
 * the user `authorize` returned is looked up by id, and created when the adapter has none. No
 * account is linked, and nothing links to the current session.
 */
async function credentialsUser(context: RequestContext, outcome: SignInOutcome) {
  const adapter = withAdapterMethods(context.adapter, ["getUser", "createUser"], "credentials with database sessions")
  const { id, ...fields } = outcome.user
  const existing = id === undefined ? null : await adapter.getUser(id)
  if (existing) return { user: existing as User, isNewUser: false }
  const created = await adapter.createUser({ emailVerified: null, ...fields, email: fields.email ?? "", id: id ?? crypto.randomUUID() })
  await fireEvent(context, "createUser", { user: created })
  return { user: created as User, isNewUser: true }
}

/**
 * Ends every session of a user. A session store that cannot (JWT sessions without a per-user
 * session version) says so in the log instead of failing the reset that asked: the password has
 * changed already, and the old sessions last until they expire.
 */
export async function revokeSessions(context: RequestContext, userId: string): Promise<void> {
  try {
    await context.sessions.revokeUser(context, async () => userId)
  } catch (error) {
    if (context.sessions.rows || !(error instanceof InvalidOptionError)) throw error
    context.logger.warn("PASSWORD_SESSIONS_NOT_REVOKED", { message: "a password reset or change, or a password voided at sign-in, could not end the user's other JWT sessions: they last until they expire. Use database sessions to end them at once." })
  }
}

/** Where a new user goes first: `pages.newUser`, carrying where they were headed; else there. */
function firstDestination(context: RequestContext, destination: string, isNewUser: boolean | undefined): string {
  const page = context.pages.newUser
  if (!isNewUser || !page) return destination
  const target = new URL(page, context.origin)
  target.searchParams.set("callbackUrl", destination)
  return target.href
}

/** An app's own page (`pages.*`) on the origin, with the request's `query` carried over, as Auth.js sends it there. */
export function appPageWith(context: RequestContext, page: string, query: URLSearchParams): URL {
  const target = new URL(page, context.origin)
  query.forEach((value, key) => target.searchParams.set(key, value))
  return target
}

/** The sign-in page (the app's own, or the built-in one) with `error` (and `code`) for it to show. */
export function signInUrl(context: RequestContext, error: string, code?: string): string {
  const target = new URL(context.pages.signIn ?? `${context.baseUrl}/signin`, context.origin)
  target.searchParams.set("error", error)
  if (code !== undefined) target.searchParams.set("code", code)
  return target.href
}

/** Finishes a sign-in and answers with the redirect that carries the session cookie. */
export async function completeSignIn(context: RequestContext, outcome: SignInOutcome): Promise<Response> {
  const extra = outcome.cookies ?? []
  const signingIn = await signingInUser(context, outcome)
  const verdict = await context.callbacks.signIn?.({ user: signingIn.user, account: outcome.account, profile: outcome.profile, credentials: outcome.credentials })
  if (verdict === false) return redirect(errorUrl(context, "AccessDenied"), extra)
  if (typeof verdict === "string") return redirect(await safeRedirect(context, verdict), extra)
  let linked
  try {
    linked = await linkUser(context, outcome, signingIn)
  } catch (error) {
    // A sign-in error, as in Auth.js: the sign-in page shows it (a custom one reads `?error=` there).
    if (error instanceof OAuthAccountNotLinkedError) return redirect(signInUrl(context, "OAuthAccountNotLinked"), extra)
    throw error
  }
  const tokens = context.providerTokens?.tokenClaimForSignIn(context, outcome.account)
  const session = { user: linked.user, account: outcome.account, profile: outcome.profile, isNewUser: linked.isNewUser, tokens }
  const cookies = await context.sessions.issue(context, session)
  // The jwt callback refused the session (database sessions run none: the row is the session).
  if (!cookies) return redirect(errorUrl(context, "AccessDenied"), extra)
  context.signedIn = true
  await fireEvent(context, "signIn", { user: linked.user, account: outcome.account, isNewUser: linked.isNewUser })
  const destination = firstDestination(context, await safeRedirect(context, outcome.callbackUrl), linked.isNewUser)
  return redirect(destination, [...extra, ...cookies])
}
