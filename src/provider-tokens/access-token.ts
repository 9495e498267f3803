/**
 * `getAccessToken(request, providerId)`: the provider access token of the request's session, fresh
 * (refreshed first when it is due, one refresh in flight), for server code that calls the
 * provider's API. It reads like `auth()` and, like it, sets no cookie: with JWT sessions a refresh
 * it makes is remembered by the coordinator until a cookie-writing read re-issues the session.
 */
import { InvalidOptionError } from "../errors.js"
import { readClaims } from "../adapters/jwt-session-token.js"
import { freshAccountOf } from "./account-refresh.js"
import { freshTokenClaim, openTokenCookie, stillLinked } from "./jwt-session.js"
import { tokensLiveInAccountRows } from "./token-home.js"
import type { HeldSession, ProviderTokensHost } from "./types.js"

/** An access token worth handing out: present, and not past its expiry. */
function usable(token: string | null | undefined, expiresAt: unknown): string | null {
  if (typeof token !== "string" || token === "") return null
  const expiry = Number(expiresAt)
  if (expiresAt !== null && expiresAt !== undefined && Number.isFinite(expiry) && expiry <= Date.now() / 1000) return null
  return token
}

/**
 * The fresh access token of the session's account at `providerId`, or null. `session` is the
 * session store's lent database session (null for none); JWT sessions read their own cookie.
 */
export async function accessTokenOf(context: ProviderTokensHost, providerId: string, session?: HeldSession | null): Promise<string | null> {
  if (!context.refresher) {
    throw new InvalidOptionError("providerTokens.refresh", "getAccessToken needs providerTokens({ refresh: true }): without it, access tokens are not kept fresh.")
  }
  if (typeof providerId !== "string" || !context.refresher.covers(providerId)) return null
  if (tokensLiveInAccountRows(context)) {
    if (!session) return null
    try {
      const account = await freshAccountOf(context, session, providerId)
      return account ? usable(account.access_token, account.expires_at) : null
    } catch (error) {
      context.logger.error(error as Error)
      return null
    }
  }
  const claims = await readClaims(context)
  if (!claims) return null
  // A due token is refreshed only for a session the shared version store confirms; one it no
  // longer confirms (revoked on another instance, whose copy this instance still holds) gets none.
  const fresh = await freshTokenClaim(context, claims)
  const claim = fresh.claim
  if ("refused" in fresh || !claim || claim.provider !== providerId || claim.error) return null
  // The one place a read with nothing due opens the token cookie: the app asked for the token. A
  // refresh asked whether the account is still linked; a hand-out without one asks here.
  if (fresh.tokens) return usable(fresh.tokens.access_token, fresh.tokens.expires_at)
  const tokens = await openTokenCookie(context, claim)
  return tokens && (await stillLinked(context, claims, claim.provider, tokens)) ? usable(tokens.access_token, tokens.expires_at) : null
}
