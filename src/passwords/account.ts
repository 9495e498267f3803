/**
 * Changes a signed-in user makes, each proven by the current password: a new password
 * (`POST password/change`, optionally ending every other session) and a new address
 * (`POST password/change-email`: a link to the new address, a notice to the old one, and the old
 * address signs in until the link is followed; `GET password/confirm-email`, in a session of that
 * account: anywhere else it asks for a sign-in first). A new address that
 * belongs to another user is answered like any other (its owner is told), and refused when the link
 * is followed. One the store's collation folds into another user's address is answered as a free
 * one (that user is not told: it is not their address), and refused when the link is followed.
 */
import type { AdapterUser } from "../adapters/adapter.js"
import { InvalidPasswordHashError, PasswordPolicyError } from "../errors.js"
import type { User } from "../types.js"
import { addressOf, checkEmailUrl, refuse, send, siteOf } from "./answers.js"
import { mailLink, newPasswordHash, replacePassword, userOfAddress, userOfLink, type RouteContext } from "./context.js"
import { mails } from "./mail.js"
import { endTokens, tokenUser } from "./tokens.js"

const YES = new Set(["true", "1", "on", "yes"])

/** The signed-in user whose current password is `password`, or the refusal to answer. */
async function provenUser(route: RouteContext, password: string | null, back: string): Promise<AdapterUser | Response> {
  const { host, adapter, hasher } = route
  const signedIn = await host.signedInUser()
  const user = signedIn ? (signedIn.user ?? (await adapter.getUser(signedIn.userId))) : null
  if (!user) return refuse(host, "SessionRequired", back)
  const stored = await adapter.getUserPassword(user.id)
  let valid = false
  try {
    valid = stored ? (await hasher.verify(password ?? "", stored)).valid : (await hasher.verifyDummy(password ?? "")).valid
  } catch (error) {
    if (error instanceof InvalidPasswordHashError) host.logger.error(error)
    else if (!(error instanceof PasswordPolicyError)) throw error
  }
  return valid ? user : refuse(host, "InvalidCurrentPassword", back)
}

export async function changePassword(route: RouteContext, form: URLSearchParams): Promise<Response> {
  const { host, provider, adapter } = route
  const back = await host.safeRedirect(form.get("callbackUrl"))
  const user = await provenUser(route, form.get("currentPassword"), back)
  if (user instanceof Response) return user
  const hash = await newPasswordHash(route, form.get("newPassword"), back)
  if (hash instanceof Response) return hash
  const everywhere = YES.has(form.get("revokeOtherSessions") ?? "")
  // Every session ends, this one too (this browser then gets a fresh one), before the password is
  // written: a failure leaves the old password, not a new one with the other sessions still in.
  if (everywhere) await host.revokeSessions(user.id)
  await replacePassword(route, user.id, hash)
  if (!everywhere) return host.go(back)
  return host.asAnswer(await host.completeSignIn({ user: user as User, providerId: provider.id, isNewUser: false, callbackUrl: back }))
}

export async function changeEmail(route: RouteContext, form: URLSearchParams): Promise<Response> {
  const { host, provider } = route
  const back = await host.safeRedirect(form.get("callbackUrl"))
  const user = await provenUser(route, form.get("password"), back)
  if (user instanceof Response) return user
  const newEmail = addressOf(provider, form.get("newEmail"))
  if (!newEmail || newEmail === addressOf(provider, user.email)) return refuse(host, "InvalidRequest", back)
  const site = siteOf(host)
  const { user: owner } = await userOfAddress(route, newEmail)
  if (owner && owner.id !== user.id) await send(host, provider, mails.signUpNotice(newEmail, site))
  else await mailLink(route, "change-email", user, newEmail, form.get("callbackUrl"))
  if (user.email) await send(host, provider, mails.emailChangedNotice(user.email, newEmail, site))
  return host.go(checkEmailUrl(host, "change-email"))
}

export async function confirmEmail(route: RouteContext): Promise<Response> {
  const { host, adapter } = route
  const query = host.url.searchParams
  // The link proves the new mailbox, not the account: a scanner, or the mailbox's puzzled owner,
  // opening it must not move someone else's account onto that address (which would then be theirs
  // to sign in to, verified). So it completes only in a session of the account it names, confirmed
  // against the store; anywhere else it asks for a sign-in and comes back, with nothing spent.
  const signedIn = await host.signedInUser()
  if (signedIn === null || String(signedIn.userId) !== tokenUser(query.get("token"))) {
    const signIn = new URL(host.signInUrl)
    signIn.searchParams.set("callbackUrl", host.url.href)
    return host.go(signIn.href)
  }
  const { email, user } = await userOfLink(route, "change-email", query.get("token"), query.get("email"))
  if (!user || !email) return refuse(host, "InvalidToken", host.signInUrl)
  // A look-alike the store's collation folds into this address holds its row as an owner would:
  // only the user's own row may take the new spelling.
  const { user: owner, lookAlike } = await userOfAddress(route, email)
  const holder = owner ?? lookAlike
  if (holder && holder.id !== user.id) return refuse(host, "InvalidToken", host.signInUrl)
  const changed = await adapter.updateUser({ id: user.id, email, emailVerified: new Date() })
  // A reset link mailed to the old address stays in that mailbox: it must not work again if the
  // account ever comes back to the address within the link's hour.
  await endTokens(adapter, "reset", user.id)
  await host.fireEvent("updateUser", { user: changed })
  // The browser that follows the link, when it is the user's, shows the new address at once.
  return host.go(await host.safeRedirect(query.get("callbackUrl")), await host.refreshSession(changed))
}
