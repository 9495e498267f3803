import { AdapterError, AddressCollationError, OAuthAccountNotLinkedError } from "../errors.js"
import type { Account, Profile, User } from "../types.js"
import { userWithAddress } from "./address-match.js"
import { LINKING_METHODS, withMethods, type AccountLinkingMethods, type AdapterAccount, type AdapterUser } from "./account-linking.js"

/**
 * What {@link resolveSignIn} takes: a finished sign-in, and who is signed in now, if anyone.
 *
 * @example
 * ```ts
 * import { getToken } from "latchkey/jwt"
 * import { finishSignIn, resolveSignIn, type ResolveSignInParams } from "latchkey/oauth"
 * const { user, account, profile } = await finishSignIn(github, request, { redirectUri })
 * const current = await getToken({ req: request }) // a signed-in user's id is the session token's `sub`
 * const params: ResolveSignInParams = { user, account, profile, provider: { id: "github" }, currentUserId: current?.sub }
 * const { user: stored } = await resolveSignIn(adapter, params)
 * ```
 */
export interface ResolveSignInParams {
  user: User
  account: Account
  profile?: Profile
  /** The provider: its `id` and whether it may link accounts by email. */
  provider: { id: string; allowDangerousEmailAccountLinking?: boolean }
  /** The id of the user already signed in, when linking a further account. */
  currentUserId?: string | null
  /** The account's user, when the caller has looked it up already (null: none); undefined: looked up here. */
  knownUser?: AdapterUser | null
}

/**
 * Who signed in, and what happened to the account table.
 *
 * @example
 * ```ts
 * import { resolveSignIn, type ResolveSignInResult } from "latchkey/oauth"
 * const result: ResolveSignInResult = await resolveSignIn(adapter, { user, account, provider: { id: "github" } })
 * if (result.isNewUser) console.info("welcome", result.user.email)
 * else if (result.isNewAccount) console.info(`linked ${result.account.provider} to user ${result.user.id}`)
 * ```
 */
export interface ResolveSignInResult {
  user: AdapterUser
  account: AdapterAccount
  /** A user was created for this sign-in. */
  isNewUser: boolean
  /** The account was linked during this sign-in. */
  isNewAccount: boolean
}

/**
 * Applies the account-linking rules to a finished sign-in:
 * - a known account signs in its user;
 * - a known account that belongs to a different signed-in user is refused;
 * - a new account while signed in is linked to the current user;
 * - a new account whose email matches an existing user is refused, unless the provider has
 *   `allowDangerousEmailAccountLinking` (then it is linked to that user) and the profile does not
 *   say `email_verified: false`;
 * - a new account whose email the store's collation folds into another user's (`ada@exämple.com`
 *   for `ada@example.com`) is refused: that user is someone else, and a new one would collide;
 * - otherwise a new user is created and the account linked to it.
 *
 * Exported from `latchkey/oauth`.
 *
 * @throws {@link index!OAuthAccountNotLinkedError} in the two refused cases; {@link index!AddressCollationError}
 * for a folded address; {@link index!AdapterError}
 * when linking the account fails in the adapter; {@link index!MissingAdapterMethodError}, before
 * anything is read or written, when the adapter lacks one of the linking methods.
 *
 * @example
 * ```ts
 * import { memoryAdapter } from "latchkey/adapters"
 * import { finishSignIn, resolveSignIn } from "latchkey/oauth"
 * const adapter = memoryAdapter()
 * const signIn = await finishSignIn(github, request, { redirectUri })
 * const { user, isNewUser } = await resolveSignIn(adapter, { ...signIn, provider: github, currentUserId: session?.sub })
 * ```
 */
export async function resolveSignIn(given: AccountLinkingMethods, params: ResolveSignInParams): Promise<ResolveSignInResult> {
  const { account, provider, currentUserId } = params
  const adapter = withMethods(given, LINKING_METHODS, `provider "${provider.id}" (account linking)`)
  // Only the account's identity: the adapter has no use for its tokens here.
  const known = params.knownUser !== undefined ? params.knownUser : await adapter.getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
  if (known) {
    // Compared as strings: some adapters (pg) answer numeric ids.
    if (currentUserId && String(known.id) !== String(currentUserId)) {
      throw new OAuthAccountNotLinkedError(provider.id, "this account is already linked to another user.")
    }
    return { user: known, account: { ...account, userId: known.id }, isNewUser: false, isNewAccount: false }
  }
  if (currentUserId) {
    const current = await adapter.getUser(currentUserId)
    if (!current) throw new OAuthAccountNotLinkedError(provider.id, "the signed-in user no longer exists.")
    return { user: current, account: await link(adapter, account, current.id), isNewUser: false, isNewAccount: true }
  }
  const email = params.user.email
  const { user: sameEmail, lookAlike } = email ? await userWithAddress(adapter, email) : { user: null, lookAlike: null }
  if (lookAlike) throw new AddressCollationError(provider.id)
  if (sameEmail) {
    if (!provider.allowDangerousEmailAccountLinking) {
      throw new OAuthAccountNotLinkedError(provider.id, "another user has this email; sign in with the provider used before, then link this one.")
    }
    // Linking by address trusts the provider to have proven it; one that says it has not is not trusted for it.
    if (saysUnverified(params.profile?.email_verified)) {
      throw new OAuthAccountNotLinkedError(provider.id, "another user has this email, and the provider says it has not verified it.")
    }
    return { user: sameEmail, account: await link(adapter, account, sameEmail.id), isNewUser: false, isNewAccount: true }
  }
  const { id: _providerUserId, ...fields } = params.user
  // The id is made here, as Auth.js does, so adapters whose tables have no id default work.
  const created = await adapter.createUser({ emailVerified: null, ...fields, id: crypto.randomUUID() })
  try {
    return { user: created, account: await link(adapter, account, created.id), isNewUser: true, isNewAccount: true }
  } catch (failure) {
    // Nothing half-written: a user left without the account would hold the email, and the retry
    // would be refused as OAuthAccountNotLinked. Removing it lets the retry start clean.
    await Promise.resolve(given.deleteUser?.(created.id)).catch(() => undefined)
    throw failure
  }
}

/**
 * Links the account. linkAccount is handed the account's tokens, and a database error may quote
 * what it was handed; such an error reaches the app's logger, so it is wrapped in an
 * AdapterError, which keeps only its name and code.
 */
async function link(adapter: Required<Pick<AccountLinkingMethods, "linkAccount">>, account: Account, userId: string): Promise<AdapterAccount> {
  const linked: AdapterAccount = { ...account, userId }
  try {
    return (await adapter.linkAccount(linked)) || linked
  } catch (failure) {
    throw new AdapterError("linkAccount", failure, (await import("../lib/driver-errors.js")).driverErrorHint(failure))
  }
}

/**
 * Whether a profile's `email_verified` says the address is not proven: any value but `true` (or
 * the string "true", which Apple's older tokens and some providers' userinfo send). Absent says
 * nothing, and links as Auth.js does; `"false"` must refuse as `false` does.
 */
function saysUnverified(claim: unknown): boolean {
  return claim !== undefined && claim !== null && claim !== true && String(claim).toLowerCase() !== "true"
}
