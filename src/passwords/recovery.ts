/**
 * The mailed links that prove an address: verifying it after sign-up (`GET password/verify-email`,
 * or `POST` with the password from another browser), and forgot → reset (`POST password/forgot`,
 * `POST password/reset`). Forgot answers "check your email" whatever the address, after a dummy
 * verify either way; a known one also gets the mail. A reset is checked against the rules before
 * its token is spent (a weak password leaves the link usable), ends every session of the user by
 * default, and signs this browser in.
 */
import { voidUnprovenPassword } from "../adapters/hide-password.js"
import type { User } from "../types.js"
import { addressOf, checkEmailUrl, refuse, routeUrl } from "./answers.js"
import { hasAddress, mailLink, newPasswordHash, replacePassword, userOfAddress, userOfLink, type RouteContext } from "./context.js"
import { verifyFor } from "./sign-in.js"
import { madeInBrowser, tokenUser } from "./tokens.js"

/**
 * A verification link, opened. A link proves the mailbox, not who chose the password: anyone can
 * sign up with someone else's address, and a mail scanner opens every link it sees. So the link
 * verifies at once only in the browser that proved the password (it names that browser); anywhere
 * else it shows the confirm page, where the password completes it (`confirmAddress`), and nothing
 * is spent until then. A scanner, or an address's owner who never made the account, cannot adopt a
 * password someone else set.
 */
export async function verifyEmail(route: RouteContext, openPage: () => Promise<Response>): Promise<Response> {
  const { host } = route
  const query = host.url.searchParams
  if (!madeInBrowser(query.get("token"), await host.browserBinding())) return openPage()
  return verifiedBy(route, query.get("token"), query.get("email"), query.get("callbackUrl"))
}

/** `POST password/verify-email`: the link's token with the account's password, from any browser. */
export async function confirmAddress(route: RouteContext, form: URLSearchParams): Promise<Response> {
  const { host, provider, adapter } = route
  const token = form.get("token")
  const back = routeUrl(host, "password/verify-email", { token, email: addressOf(provider, form.get("email")), callbackUrl: form.get("callbackUrl") })
  // The password first: a wrong one leaves the link usable. The token's user is only a claim until
  // useToken proves it (anyone can write a token naming an id), so the verify runs (against a dummy
  // without a password) whatever it names, and the password is checked only for a user who has the
  // form's address: the rate limit counts that address, so a guess meets the account's own budget.
  const userId = tokenUser(token)
  const [named, stored] = userId === undefined ? [null, null] : await Promise.all([adapter.getUser(userId), adapter.getUserPassword(userId)])
  const email = addressOf(provider, form.get("email"))
  const verdict = await verifyFor(route, form.get("password") ?? "", email && hasAddress(route, named, email) ? stored : null)
  if (verdict === "refused" || !verdict.valid) return refuse(host, "CredentialsSignin", back)
  return verifiedBy(route, token, form.get("email"), form.get("callbackUrl"))
}

/** Spends a verification token; the user's address is then verified, and this browser signed in. */
async function verifiedBy(route: RouteContext, token: string | null, rawEmail: string | null, callbackUrl: string | null): Promise<Response> {
  const { host, provider, adapter } = route
  const { email, user } = await userOfLink(route, "verify-email", token, rawEmail)
  if (!hasAddress(route, user, email!)) return refuse(host, "InvalidToken", host.signInUrl)
  const verified = await adapter.updateUser({ id: user.id, emailVerified: new Date() })
  await host.fireEvent("updateUser", { user: verified })
  return host.asAnswer(await host.completeSignIn({ user: verified as User, providerId: provider.id, isNewUser: true, callbackUrl }))
}

export async function forgotPassword(route: RouteContext, form: URLSearchParams): Promise<Response> {
  const { host, provider, adapter, hasher } = route
  const email = addressOf(provider, form.get("email"))
  // A look-alike's user (the store's collation folded the address) answers as an unknown address:
  // its reset link, mailed to the spelling typed, would reach whoever owns that mailbox.
  const user = email ? (await userOfAddress(route, email)).user : null
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
  // The link proves the address: a password set before anyone had, and the ways in added under it
  // (pre-hijacking with verification off), go first; the sessions end whatever the option says.
  const squatted = await voidUnprovenPassword(adapter, user)
  // The sessions end first: if that fails, the old password stays and no one is left signed in
  // behind a new one (a reset is often a thief's doing being undone).
  if (provider.revokeSessionsOnReset || squatted) await host.revokeSessions(user.id)
  await replacePassword(route, user.id, hash)
  // The link proved the address.
  const current = user.emailVerified ? user : await adapter.updateUser({ id: user.id, emailVerified: new Date() })
  return host.asAnswer(await host.completeSignIn({ user: current as User, providerId: provider.id, isNewUser: false, callbackUrl: form.get("callbackUrl") }))
}
