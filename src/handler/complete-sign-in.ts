/**
 * The end of every sign-in, whatever the provider type: link through the adapter, ask the `signIn`
 * callback, build the token through the `jwt` callback, set the session cookie, fire events and
 * redirect to the saved destination.
 */
import { OAuthAccountNotLinkedError } from "../errors.js"
import { resolveSignIn } from "../oauth/resolve-sign-in.js"
import type { Account, Profile, User } from "../types.js"
import { fireEvent, type RequestContext } from "./config.js"
import { cookieNames, cookieOptions, requestCookies, setCookieHeaders } from "./cookies.js"
import { safeRedirect } from "./redirect.js"
import { redirect } from "./response.js"
import { applyJwtCallback, defaultClaims, readClaims, sessionCookies } from "./session.js"

/** A signed-in identity, before linking. */
export interface SignInOutcome {
  user: User
  account: Account
  profile?: Profile
  provider: { id: string; allowDangerousEmailAccountLinking?: boolean }
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

async function linkUser(context: RequestContext, outcome: SignInOutcome) {
  const adapter = context.config.adapter
  if (!adapter) return { user: outcome.user, isNewUser: undefined }
  const current = await readClaims(context)
  const linked = await resolveSignIn(adapter, { ...outcome, currentUserId: current?.sub ?? null })
  if (linked.isNewUser) await fireEvent(context, "createUser", { user: linked.user })
  if (linked.isNewAccount) await fireEvent(context, "linkAccount", { user: linked.user, account: linked.account })
  return { user: linked.user as User, isNewUser: linked.isNewUser }
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
  const token = { token: defaultClaims(linked.user), user: linked.user, account: outcome.account, profile: outcome.profile, isNewUser: linked.isNewUser }
  const claims = await applyJwtCallback(context, { ...token, trigger: "signIn" })
  if (!claims) return redirect(errorUrl(context, "AccessDenied"), extra)
  await fireEvent(context, "signIn", { user: linked.user, account: outcome.account, isNewUser: linked.isNewUser })
  const names = cookieNames(context.secure)
  const destination = await safeRedirect(context, requestCookies(context.request)[names.callbackUrl])
  const clearCallback = setCookieHeaders({ name: names.callbackUrl, value: null, options: cookieOptions(context.secure) })
  return redirect(destination, [...extra, ...(await sessionCookies(context, claims)), ...clearCallback])
}
