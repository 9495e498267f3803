/**
 * Account management for server code: revoke one session or every session of a user, unlink an
 * account, delete a user. These give the adapter methods latchkey never calls while signing in
 * (`deleteSession`, `unlinkAccount`, `deleteUser`) their callers, with the checks an app would
 * otherwise forget: an account is unlinked only from its owner, and never when it is the user's
 * last way to sign in (counting only the ways this app still offers). A passkey's account row is
 * unlinked with its authenticator, as the passkeys route deletes a passkey, so none is left
 * half-removed (listed, but unable to sign in). Given a request instead of a
 * user id, a change applies to that request's user, confirmed against the session's database row
 * (the session store's `confirmedUser`): a revoked session's cache copy changes nothing.
 */
import { LastSignInMethodError, OAuthAccountNotLinkedError, SessionRequiredError } from "../errors.js"
import { sameAccount, withAdapterMethods, type AdapterAuthenticator } from "../adapters/adapter.js"
import { revokeVersions } from "../adapters/jwt-session-token.js"
import { hasAnotherSignInWay } from "../adapters/sign-in-ways.js"
import type { ResolvedProvider } from "../providers/types.js"
import type { SettledConfig } from "./context.js"

/**
 * What `createAuth` returns besides the handler, for account pages and admin tools.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * const { revokeSessions } = createAuth({ providers, adapter })
 * await revokeSessions(userId) // "sign out everywhere": the user's next request is signed out
 * ```
 */
export interface AccountApi {
  /** Ends one database session; its next request is signed out. */
  revokeSession(sessionToken: string): Promise<void>
  /** Ends every database session of a user ("sign out everywhere"); needs the adapter's `deleteSessionsByUserId`. */
  revokeSessions(user: AccountOwner): Promise<void>
  /**
   * Unlinks an account from its user; refuses one owned by another user, or the user's last way to
   * sign in. A passkey's account (`type: "webauthn"`) goes with its passkey, as deleting it through
   * the passkeys route does (needs the adapter's `deleteAuthenticator`).
   */
  unlinkAccount(user: AccountOwner, account: { provider: string; providerAccountId: string }): Promise<void>
  /**
   * Deletes a user with their accounts and sessions (as the adapter's `deleteUser` cascades), and
   * ends their JWT sessions and hybrid copies through the session versions (with `revocationStore: false`,
   * a JWT of theirs answers until it expires).
   */
  deleteUser(user: AccountOwner): Promise<void>
}

/**
 * Whose account a change is for: a user id (admin tools), or the request of the user's own
 * account page, whose session is then confirmed against its database row first (not the
 * `session.cache` copy, which a revoked session keeps for up to `cache.maxAge`). A request with no
 * confirmed session is refused with `SessionRequiredError`.
 *
 * @example
 * ```ts
 * import type { AccountOwner } from "latchkey"
 * const fromAccountPage = (request: Request): AccountOwner => request // unlinkAccount(request, account)
 * const fromAdminTool = (userId: string): AccountOwner => userId
 * ```
 */
export type AccountOwner = string | Request

/**
 * The account API over the settled configuration; `providers` says which ways to sign in exist,
 * `confirmedUserId` reads a request's confirmed session (the session store's `confirmedUser`).
 */
export function accountApi(settled: SettledConfig, providers: readonly ResolvedProvider[], confirmedUserId: (request: Request) => Promise<string | null>): AccountApi {
  const adapterWith = <M extends Parameters<typeof withAdapterMethods>[1][number]>(methods: readonly M[], feature: string) =>
    withAdapterMethods(settled.adapter, methods, feature)

  async function userIdOf(owner: AccountOwner): Promise<string> {
    if (typeof owner === "string") return owner
    // Typed a string, as Auth.js types ids, but SERIAL ids (@auth/pg-adapter) arrive as numbers at run time.
    if (typeof owner === "number" && Number.isFinite(owner)) return String(owner)
    const userId = await confirmedUserId(owner)
    if (userId === null) throw new SessionRequiredError()
    return userId
  }

  /**
   * The passkey a webauthn account row signs in with: the user's authenticator it names (by
   * `providerAccountId`, which is the credential id). Null for any other account.
   */
  async function passkeyOf(userId: string, account: { provider: string; providerAccountId: string }): Promise<AdapterAuthenticator | null> {
    const adapter = settled.adapter!
    let webauthnAccount = providers.some((provider) => provider.id === account.provider && provider.type === "webauthn")
    if (!webauthnAccount) {
      // A provider the app no longer configures: the row's own type says.
      const row = adapter.getAccount
        ? await adapter.getAccount(account.providerAccountId, account.provider)
        : (await adapter.listAccountsByUserId?.(userId))?.find((candidate) => sameAccount(candidate, account))
      webauthnAccount = row?.type === "webauthn"
    }
    if (!webauthnAccount) return null
    const names = (authenticator: AdapterAuthenticator) => authenticator.providerAccountId === account.providerAccountId || authenticator.credentialID === account.providerAccountId
    if (adapter.listAuthenticatorsByUserId) return (await adapter.listAuthenticatorsByUserId(userId)).find(names) ?? null
    const found = (await adapter.getAuthenticator?.(account.providerAccountId)) ?? null
    return found && String(found.userId) === String(userId) ? found : null
  }

  return {
    revokeSession: (sessionToken) => settled.sessions.revoke(settled, sessionToken),
    revokeSessions: (user) => settled.sessions.revokeUser(settled, () => userIdOf(user)),
    async unlinkAccount(user, account) {
      const adapter = adapterWith(["getUserByAccount", "unlinkAccount"], "unlinkAccount")
      const userId = await userIdOf(user)
      const owner = await adapter.getUserByAccount(account)
      if (!owner || String(owner.id) !== String(userId)) throw new OAuthAccountNotLinkedError(account.provider, "this account is not linked to that user.")
      const passkey = await passkeyOf(userId, account)
      const remaining = adapterWith(["getUser"], "unlinkAccount")
      const remainingUser = { id: userId, email: (await remaining.getUser(userId))?.email }
      if (!(await hasAnotherSignInWay(remaining, providers, remainingUser, { account, passkey }))) {
        throw new LastSignInMethodError(
          adapter.listAccountsByUserId ? undefined : "The adapter cannot list the user's accounts (add listAccountsByUserId), so this could be their last way to sign in."
        )
      }
      if (passkey) {
        // The passkey goes with its account row, authenticator first, as the passkeys route
        // deletes one: an authenticator left without its account is listed but cannot sign in.
        await adapterWith(["deleteAuthenticator"], "unlinkAccount of a passkey").deleteAuthenticator(passkey.credentialID)
      }
      await adapter.unlinkAccount(account)
    },
    async deleteUser(user) {
      const adapter = adapterWith(["deleteUser"], "deleteUser")
      const userId = await userIdOf(user)
      // Sessions first: if the adapter does not cascade, no session outlives its user. The rows
      // go, and the version every JWT and hybrid copy is read against is raised, as revokeSessions does.
      await adapter.deleteSessionsByUserId?.(userId)
      if (settled.sessionVersions) await revokeVersions(settled, settled.sessionVersions, userId)
      await adapter.deleteUser(userId)
    },
  }
}
