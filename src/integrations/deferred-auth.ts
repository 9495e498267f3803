/**
 * The `createAuth` instance a framework integration hands out before it may exist. While a
 * production build runs (`next build`, SvelteKit's post-build analysis) or the CLI reads `auth.ts`,
 * the configuration is checked at its first use instead of at once, because those runs often have
 * none of the app's run-time secrets. Every member forwards to the instance, made on first call, so
 * a configuration checked late fails as a rejected promise, like any other failure of the call.
 */
import { createAuth, type AccessTokenApi, type Auth, type AuthConfig } from "../handler/index.js"
import type { ProviderTokensEngine } from "../provider-tokens/types.js"
import type { JWT, Session } from "../types.js"

/** The members every integration hands out as `createAuth` has them, each forwarding to the instance. */
export type ForwardedMembers<S extends Session> = Pick<Auth<S>, "handler" | "authFromCookies" | "revokeSession" | "revokeSessions" | "unlinkAccount" | "deleteUser" | "clearLockout" | "basePath">

/** What {@link deferredAuth} answers: the instance (made on first call) and the members that forward to it. */
export interface DeferredAuth<S extends Session> {
  instance(): Auth<S> & Partial<AccessTokenApi>
  members: ForwardedMembers<S>
}

/**
 * `createAuth(config)` made at once, or at its first use when `deferred`. `members.basePath` is a
 * getter: spreading `members` would read it, and so make the instance; add to it in place.
 */
export function deferredAuth<J extends JWT, S extends Session, P extends ProviderTokensEngine | undefined>(config: AuthConfig<J, S> & { providerTokens?: P }, deferred: boolean): DeferredAuth<S> {
  let made: (Auth<S> & Partial<AccessTokenApi>) | undefined
  const instance = () => (made ??= createAuth<J, S, P>(config) as Auth<S> & Partial<AccessTokenApi>)
  if (!deferred) instance()
  const members: ForwardedMembers<S> = {
    handler: async (request) => instance().handler(request),
    authFromCookies: async (request) => instance().authFromCookies(request),
    revokeSession: async (sessionToken) => instance().revokeSession(sessionToken),
    revokeSessions: async (userId) => instance().revokeSessions(userId),
    unlinkAccount: async (userId, account) => instance().unlinkAccount(userId, account),
    deleteUser: async (userId) => instance().deleteUser(userId),
    clearLockout: async (identifier) => instance().clearLockout(identifier),
    get basePath() {
      return instance().basePath
    },
  }
  return { instance, members }
}

/**
 * Adds `getAccessToken` to an integration's members, in place, when the app passed provider tokens
 * that refresh: decided from the plug-in itself, so it holds while the checks are deferred.
 */
export function withAccessToken<T extends object>(members: T, config: { providerTokens?: ProviderTokensEngine | undefined }, instance: () => Partial<AccessTokenApi>): T {
  if (config.providerTokens?.refreshes === true) {
    const getAccessToken: AccessTokenApi["getAccessToken"] = async (request, providerId) => instance().getAccessToken!(request, providerId)
    Object.defineProperty(members, "getAccessToken", { value: getAccessToken, enumerable: true })
  }
  return members
}
