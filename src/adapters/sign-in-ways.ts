/**
 * Whether a user keeps a way to sign in once one is removed: the one rule behind unlinking an
 * account (`unlinkAccount` in `handler/accounts.ts`) and deleting a passkey (`webauthn/passkeys.ts`),
 * so the two cannot drift apart. Only ways this app still offers count: an address with an email
 * provider configured, a passkey whose account row is at a configured passkey provider (passkey
 * sign-in needs both), or an account at a configured OAuth provider.
 *
 * @module
 */
import type { ResolvedProvider } from "../providers/types.js"
import { sameAccount, type Adapter, type AdapterAccount, type AdapterAuthenticator, type AdapterUser } from "./adapter.js"

/** The way being removed: an account row, its passkey, or both (a passkey and its account row go together). */
export interface RemovedWay {
  account?: Pick<AdapterAccount, "provider" | "providerAccountId"> | undefined
  passkey?: AdapterAuthenticator | null | undefined
}

/**
 * Whether `user` can still sign in some other way than `removed`. An adapter that cannot list
 * accounts cannot show another one, so OAuth accounts then count for nothing; a passkey then
 * counts when its account row is found with `getAccount`.
 */
export async function hasAnotherSignInWay(
  adapter: Pick<Adapter, "listAccountsByUserId" | "listAuthenticatorsByUserId" | "getAccount">,
  providers: readonly Pick<ResolvedProvider, "id" | "type">[],
  user: { id: AdapterUser["id"]; email?: string | null | undefined },
  removed: RemovedWay
): Promise<boolean> {
  if (user.email && providers.some((provider) => provider.type === "email")) return true
  const userId = String(user.id)
  const accounts = adapter.listAccountsByUserId ? await adapter.listAccountsByUserId(userId) : undefined
  const kept = (account: Pick<AdapterAccount, "provider" | "providerAccountId" | "userId">) => !sameAccount(account, removed.account) && String(account.userId) === userId
  const passkeyProviders = providers.filter((provider) => provider.type === "webauthn").map((provider) => provider.id)
  if (adapter.listAuthenticatorsByUserId && passkeyProviders.length > 0) {
    const others = (await adapter.listAuthenticatorsByUserId(userId)).filter((passkey) => passkey.credentialID !== removed.passkey?.credentialID)
    for (const passkey of others) {
      const rows = accounts
        ? accounts.filter((account) => account.providerAccountId === passkey.providerAccountId)
        : await Promise.all(passkeyProviders.map(async (provider) => (await adapter.getAccount?.(passkey.providerAccountId, provider)) ?? null))
      if (rows.some((row) => row !== null && passkeyProviders.includes(row.provider) && kept(row))) return true
    }
  }
  if (!accounts) return false
  const redirecting = new Set(providers.filter((provider) => provider.type === "oauth" || provider.type === "oidc").map((provider) => provider.id))
  return accounts.some((account) => redirecting.has(account.provider) && kept(account))
}
