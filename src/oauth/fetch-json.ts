/**
 * The JSON request behind every profile call the flow makes for a provider: the OAuth 2.0
 * userinfo GET, and whatever a provider's custom `userinfo.request` asks for through the
 * `fetchJson` it is handed. The access token goes in as a Bearer credential (unless the caller
 * sets `authorization`); a non-2xx answer or a body that is not JSON is an
 * {@link index!OAuthProfileError} with the status, never a silent `undefined` profile.
 */
import { OAuthProfileError } from "../errors.js"

/** A JSON request bound to one sign-in's provider, token and fetch. */
export type ProfileFetch = <T = unknown>(url: string, init?: RequestInit) => Promise<T>

/** Binds a {@link ProfileFetch} to a provider, a token response and a fetch. */
export function profileFetch(provider: string, tokens: { access_token?: string }, fetchImplementation: typeof fetch): ProfileFetch {
  return async <T>(url: string, init: RequestInit = {}) => {
    const accessToken = tokens.access_token
    if (typeof accessToken !== "string" || accessToken === "") throw new OAuthProfileError(provider, "no access_token to fetch the profile with.")
    const headers = new Headers({ accept: "application/json", "user-agent": "latchkey", authorization: `Bearer ${accessToken}` })
    new Headers(init.headers).forEach((value, name) => headers.set(name, value))
    const response = await fetchImplementation(url, { ...init, headers })
    if (!response.ok) {
      await response.body?.cancel()
      throw new OAuthProfileError(provider, `profile request failed with HTTP ${response.status}.`, { status: response.status })
    }
    try {
      return (await response.json()) as T
    } catch (cause) {
      throw new OAuthProfileError(provider, "profile response is not JSON.", { status: response.status, cause })
    }
  }
}
