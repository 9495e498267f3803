/**
 * The end of every sign-in, whatever the provider type: link through the adapter, ask the `signIn`
 * callback, build the token through the `jwt` callback, set the session cookie, fire events and
 * redirect to the saved destination.
 *
 * Only an OAuth or OpenID Connect sign-in may link a new account to the user already signed in, and
 * only when that session is this browser's own and still has its database row (confirmed-session.ts). An emailed link signs in as the user with that
 * address and credentials sign in as the user `authorize` returns: neither ever joins the current
 * session, so opening an attacker's link, or a second person logging in on a shared browser, cannot
 * attach anything to the signed-in user.
 */
import { OAuthAccountNotLinkedError } from "../errors.js"
import { withAdapterMethods, type AdapterUser } from "../adapters/adapter.js"
import { resolveSignIn } from "../oauth/resolve-sign-in.js"
import type { Account, Profile, User } from "../types.js"
import { fireEvent, type RequestContext } from "./config.js"
import { confirmedUser } from "./confirmed-session.js"
import { createDatabaseSession } from "./database-session.js"
import { safeRedirect } from "./redirect.js"
import { redirect } from "./response.js"
import { applyJwtCallback, bindToBrowser, defaultClaims, sessionCookies } from "./session.js"

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
  /** Where this sign-in asked to go (checked again before it is used). */
  callbackUrl?: string
  /** Extra Set-Cookie values to send (such as cleared check cookies). */
  cookies?: string[]
}

/** The URL of the error page for a client code. */
export function errorUrl(context: RequestContext, code: string): string {
  const target = context.config.pages?.error ?? `${context.baseUrl}/error`
  const url = new URL(target, context.origin)
  url.searchParams.set("error", code)
  return url.href
}

/**
 * The signed-in user an OAuth sign-in may link to: this browser's own session's, confirmed against
 * its database row (a revoked session's cache copy links nothing), or none.
 */
async function linkingUserId(context: RequestContext, outcome: SignInOutcome): Promise<string | null> {
  if (outcome.provider.type !== "oauth" && outcome.provider.type !== "oidc") return null
  return (await confirmedUser(context))?.userId ?? null
}

async function linkUser(context: RequestContext, outcome: SignInOutcome) {
  if (outcome.resolveUser) return outcome.resolveUser()
  const adapter = context.config.adapter
  if (adapter && outcome.provider.type === "credentials" && context.sessionStrategy === "database") return credentialsUser(context, outcome)
  // Credentials sign in as the user authorize() returns, and are not stored, as in Auth.js.
  if (!adapter || outcome.provider.type === "credentials") return { user: outcome.user, isNewUser: undefined }
  const linked = await resolveSignIn(adapter, { ...outcome, currentUserId: await linkingUserId(context, outcome) })
  // With provider tokens kept fresh in account rows, a returning user's row gets this sign-in's tokens.
  if (context.sessionStrategy === "database") await context.providerTokens?.storeSignInTokens(context, linked.user.id, outcome.account, linked.isNewAccount)
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
  const adapter = withAdapterMethods(context.config.adapter, ["getUser", "createUser"], "credentials with database sessions")
  const { id, ...fields } = outcome.user
  const existing = id === undefined ? null : await adapter.getUser(id)
  if (existing) return { user: existing as User, isNewUser: false }
  const created = await adapter.createUser({ emailVerified: null, ...fields, email: fields.email ?? "", id: id ?? crypto.randomUUID() })
  await fireEvent(context, "createUser", { user: created })
  return { user: created as User, isNewUser: true }
}

/** Where a new user goes first: `pages.newUser`, carrying where they were headed; else there. */
function firstDestination(context: RequestContext, destination: string, isNewUser: boolean | undefined): string {
  const page = context.config.pages?.newUser
  if (!isNewUser || !page) return destination
  const target = new URL(page, context.origin)
  target.searchParams.set("callbackUrl", destination)
  return target.href
}

/** Finishes a sign-in and answers with the redirect that carries the session cookie. */
export async function completeSignIn(context: RequestContext, outcome: SignInOutcome): Promise<Response> {
  const extra = outcome.cookies ?? []
  const verdict = await context.config.callbacks?.signIn?.({ user: outcome.user, account: outcome.account, profile: outcome.profile })
  if (verdict === false) return redirect(errorUrl(context, "AccessDenied"), extra)
  if (typeof verdict === "string") return redirect(await safeRedirect(context, verdict), extra)
  let linked
  try {
    linked = await linkUser(context, outcome)
  } catch (error) {
    if (error instanceof OAuthAccountNotLinkedError) return redirect(errorUrl(context, "OAuthAccountNotLinked"), extra)
    throw error
  }
  if (context.sessionStrategy === "database") {
    // As in Auth.js, a database session runs no jwt callback: the row is the session.
    await fireEvent(context, "signIn", { user: linked.user, account: outcome.account, isNewUser: linked.isNewUser })
    const destination = firstDestination(context, await safeRedirect(context, outcome.callbackUrl), linked.isNewUser)
    return redirect(destination, [...extra, ...(await createDatabaseSession(context, linked.user as AdapterUser))])
  }
  const token = { token: defaultClaims(linked.user), user: linked.user, account: outcome.account, profile: outcome.profile, isNewUser: linked.isNewUser }
  // As in Auth.js: "signUp" when the adapter created the user in this sign-in.
  const claims = await applyJwtCallback(context, { ...token, trigger: linked.isNewUser ? "signUp" : "signIn" })
  if (!claims) return redirect(errorUrl(context, "AccessDenied"), extra)
  await fireEvent(context, "signIn", { user: linked.user, account: outcome.account, isNewUser: linked.isNewUser })
  const destination = firstDestination(context, await safeRedirect(context, outcome.callbackUrl), linked.isNewUser)
  const { browser, cookies: bindingCookies } = await bindToBrowser(context)
  const tokens = context.providerTokens?.tokenClaimForSignIn(context, outcome.account)
  return redirect(destination, [...extra, ...(await sessionCookies(context, claims, browser, tokens)), ...bindingCookies])
}
