/**
 * Sign-in with an address and a password: `POST callback/password`. An unknown address, a user
 * with no password, a wrong password and a password too long to hash all answer the same
 * `CredentialsSignin`, after the same work (an unknown user's password is verified against a dummy
 * hash). Only a correct password learns `EmailNotVerified`. A hash written with older parameters,
 * or by a legacy verifier, is replaced by today's on success.
 */
import { InvalidPasswordHashError, PasswordPolicyError } from "../errors.js"
import type { User } from "../types.js"
import { addressOf, refuse } from "./answers.js"
import { mailLink, userOfAddress, type RouteContext } from "./context.js"
import type { PasswordVerification } from "./hasher.js"

/** The hasher's verdict on `password` against `stored` (a dummy verify without one), or "refused". */
export async function verifyFor(route: RouteContext, password: string, stored: string | null | undefined): Promise<PasswordVerification | "refused"> {
  try {
    return stored ? await route.hasher.verify(password, stored) : await route.hasher.verifyDummy(password)
  } catch (error) {
    // Too long (refused before any hashing, for every address alike), or a damaged stored hash.
    if (error instanceof PasswordPolicyError) return "refused"
    if (error instanceof InvalidPasswordHashError) {
      route.host.logger.error(error)
      return "refused"
    }
    throw error
  }
}

/** Stores a fresh hash of a password that just verified; a failure is logged, and the sign-in goes on. */
async function rehash(route: RouteContext, userId: string, password: string): Promise<void> {
  try {
    await route.adapter.setUserPassword(userId, await route.hasher.rehash(password))
  } catch (error) {
    route.host.logger.warn("PASSWORD_REHASH_FAILED", { message: `the password hash of a user could not be upgraded (${error instanceof Error ? error.name : "error"}); it is tried again at the next sign-in` })
  }
}

/**
 * How old the newest verification link must be before a sign-in mails another: at most five an
 * hour, the send budget of every route that mails an address (docs/rate-limits.md).
 */
const RESEND_INTERVAL_MS = 12 * 60 * 1000

export async function passwordSignIn(route: RouteContext, form: URLSearchParams): Promise<Response> {
  const { host, provider, adapter } = route
  const email = addressOf(provider, form.get("email"))
  const password = form.get("password") ?? ""
  // A look-alike's user (the store's collation folded the address) is no one's: as an unknown address.
  const user = email ? (await userOfAddress(route, email)).user : null
  const stored = user ? await adapter.getUserPassword(user.id) : null
  const verdict = await verifyFor(route, password, stored)
  if (!user || verdict === "refused" || !verdict.valid) return refuse(host, "CredentialsSignin", host.signInUrl)
  if (verdict.needsRehash) await rehash(route, user.id, password)
  if (provider.requireEmailVerification && !user.emailVerified) {
    // The right password proves the person: a fresh link, in case the first one was lost or expired.
    // Not while the newest is under RESEND_INTERVAL_MS old: anyone can sign up with another's address
    // and so knows the password, and each attempt would otherwise mail that inbox.
    await mailLink(route, "verify-email", user, email!, form.get("callbackUrl"), RESEND_INTERVAL_MS)
    return refuse(host, "EmailNotVerified", host.signInUrl)
  }
  return host.asAnswer(await host.completeSignIn({ user: user as User, providerId: provider.id, isNewUser: false, callbackUrl: form.get("callbackUrl") }))
}
