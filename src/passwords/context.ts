/**
 * What every password route works with: the host, the app's provider, the hasher, and the adapter
 * checked for the methods password accounts call (requirements.ts, `PASSWORD_METHODS`).
 */
import { withAdapterMethods, type AdapterUser, type AdapterWith } from "../adapters/adapter.js"
import { PASSWORD_METHODS } from "../adapters/requirements.js"
import { userWithAddress, type AddressLookup } from "../oauth/address-match.js"
import type { PasswordHasher } from "./hasher.js"
import type { PasswordHost, PasswordProvider } from "./host.js"
import { PasswordPolicyError } from "../errors.js"
import { addressOf, policyReason, refuse, send, siteOf } from "./answers.js"
import { mails } from "./mail.js"
import { endTokens, issueToken, useToken, type TokenKind } from "./tokens.js"

export type PasswordAdapter = AdapterWith<(typeof PASSWORD_METHODS)[number]>

export interface RouteContext {
  host: PasswordHost
  provider: PasswordProvider
  hasher: PasswordHasher
  adapter: PasswordAdapter
}

export function routeContext(host: PasswordHost, provider: PasswordProvider, hasher: PasswordHasher): RouteContext {
  return { host, provider, hasher, adapter: withAdapterMethods(host.adapter, PASSWORD_METHODS, `provider "${provider.id}" (password accounts)`) }
}

const LIFETIME = { "verify-email": "verifyEmail", reset: "reset", "change-email": "changeEmail" } as const
const LINK_ROUTE = { "verify-email": "password/verify-email", reset: "password/reset", "change-email": "password/confirm-email" } as const

/**
 * Sets a new password and ends the links a takeover would still hold: a pending change of address
 * (asked by whoever knew the old password, and confirmable after the owner took the account back)
 * and any reset link older than this moment.
 */
export async function replacePassword({ adapter }: RouteContext, userId: string, hash: string): Promise<void> {
  await adapter.setUserPassword(userId, hash)
  await Promise.all([endTokens(adapter, "change-email", userId), endTokens(adapter, "reset", userId)])
}

/**
 * Issues a token of `kind` for the user and mails its link to `to`; nothing when `notWithinMs` is
 * given and the newest link of that kind is younger than it.
 */
export async function mailLink(route: RouteContext, kind: TokenKind, user: AdapterUser, to: string, callbackUrl?: string | null, notWithinMs?: number): Promise<void> {
  const { host, provider, adapter } = route
  // A verification link names the browser that proved the password (sign-up, or a sign-in before
  // verifying): opened there it verifies at once; anywhere else the password confirms it (recovery.ts).
  const browser = kind === "verify-email" ? await host.browserBinding() : undefined
  const token = await issueToken(adapter, host.secret, kind, user.id, to, provider.tokenMaxAge[LIFETIME[kind]], { browser, notWithinMs })
  if (token === undefined) return
  const url = new URL(`${host.baseUrl}/${LINK_ROUTE[kind]}`)
  url.searchParams.set("token", token)
  url.searchParams.set("email", to)
  if (callbackUrl) url.searchParams.set("callbackUrl", callbackUrl)
  const site = siteOf(host)
  const mail = kind === "verify-email" ? mails.verifyEmail(to, url.href, site) : kind === "reset" ? mails.reset(to, url.href, site) : mails.changeEmail(to, url.href, site)
  await send(host, provider, mail)
}

/**
 * The user whose stored address is `email` (normalised as the provider does), and the user a store
 * whose collation folds addresses answered for it instead (`lookAlike`): never to be mailed about,
 * signed in or reset as this address's (oauth/address-match.ts).
 */
export function userOfAddress({ adapter, provider, host }: RouteContext, email: string): Promise<AddressLookup<AdapterUser>> {
  return userWithAddress(adapter, email, provider.normalizeIdentifier, host.logger)
}

/** Whether the user's stored address is `email` (both normalised as the provider does). */
export function hasAddress(route: RouteContext, user: AdapterUser | null, email: string): user is AdapterUser {
  return user !== null && addressOf(route.provider, user.email) === email
}

/**
 * The hash of a new password; or, when the rules refuse it, the `PasswordPolicy` answer (with its
 * reason) that sends the user back to `back`. Nothing is spent or written before it: a refused
 * password leaves a reset link usable.
 */
export async function newPasswordHash({ host, hasher }: RouteContext, password: string | null, back: string): Promise<string | Response> {
  try {
    return await hasher.hash(password ?? "")
  } catch (error) {
    if (error instanceof PasswordPolicyError) return refuse(host, "PasswordPolicy", back, policyReason(host, error))
    throw error
  }
}

/**
 * Spends a mailed link's token: the address it was sent to (normalised) and the user it was made
 * for, or null when the token is unknown, used, expired, superseded or another kind's.
 */
export async function userOfLink({ host, provider, adapter }: RouteContext, kind: TokenKind, token: string | null, rawEmail: string | null): Promise<{ email: string | undefined; user: AdapterUser | null }> {
  const email = addressOf(provider, rawEmail)
  const userId = await useToken(adapter, host.secret, kind, token, email)
  return { email, user: userId === undefined ? null : await adapter.getUser(userId) }
}
