/**
 * The mailed links that prove an address: verifying it after sign-up (`GET password/verify-email`),
 * and forgot → reset (`POST password/forgot`, `POST password/reset`). Forgot answers "check your
 * email" whatever the address, after a dummy verify either way; a known one also gets the mail. A reset is
 * checked against the rules before its token is spent (a weak password leaves the link usable),
 * ends every session of the user by default, and signs this browser in.
 */
import type { User } from "../types.js"
import { addressOf, checkEmailUrl, refuse, routeUrl } from "./answers.js"
import { hasAddress, mailLink, newPasswordHash, replacePassword, userOfLink, type RouteContext } from "./context.js"

export async function verifyEmail(route: RouteContext): Promise<Response> {
  const { host, provider, adapter } = route
  const query = host.url.searchParams
  const { email, user } = await userOfLink(route, "verify-email", query.get("token"), query.get("email"))
  if (!hasAddress(route, user, email!)) return refuse(host, "InvalidToken", host.signInUrl)
  const verified = await adapter.updateUser({ id: user.id, emailVerified: new Date() })
  await host.fireEvent("updateUser", { user: verified })
  return host.asAnswer(await host.completeSignIn({ user: verified as User, providerId: provider.id, isNewUser: true, callbackUrl: query.get("callbackUrl") }))
}

export async function forgotPassword(route: RouteContext, form: URLSearchParams): Promise<Response> {
  const { host, provider, adapter, hasher } = route
  const email = addressOf(provider, form.get("email"))
  const user = email ? await adapter.getUserByEmail(email) : null
  const resettable = user !== null && (provider.allowLinkingToExistingUser || Boolean(await adapter.getUserPassword(user.id)))
  // The same derivation on both paths: without it a known address answered in a mail's time and an
  // unknown one in a derivation's, which is an address check by stopwatch.
  await hasher.verifyDummy("an address with no password")
  if (resettable) await mailLink(route, "reset", user, email!, form.get("callbackUrl"))
  return host.go(checkEmailUrl(host, "reset"))
}

export async function resetPassword(route: RouteContext, form: URLSearchParams): Promise<Response> {
  const { host, provider, adapter } = route
  const token = form.get("token")
  const back = routeUrl(host, "password/reset", { token, email: addressOf(provider, form.get("email")) })
  const hash = await newPasswordHash(route, form.get("password"), back)
  if (hash instanceof Response) return hash
  const { email, user } = await userOfLink(route, "reset", token, form.get("email"))
  if (!hasAddress(route, user, email!)) return refuse(host, "InvalidToken", back)
  await replacePassword(route, user.id, hash)
  // The link proved the address.
  const current = user.emailVerified ? user : await adapter.updateUser({ id: user.id, emailVerified: new Date() })
  if (provider.revokeSessionsOnReset) await host.revokeSessions(user.id)
  return host.asAnswer(await host.completeSignIn({ user: current as User, providerId: provider.id, isNewUser: false, callbackUrl: form.get("callbackUrl") }))
}
