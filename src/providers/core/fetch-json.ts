/**
 * The JSON request behind every custom userinfo step a provider defines: one GET whose
 * failure (non-2xx, or a body that is not JSON) becomes an {@link OAuthProfileError} with the
 * status, never a silent `undefined` profile.
 */
import { OAuthProfileError } from "../../errors.js"

/** What {@link fetchJson} needs. */
export interface FetchJsonOptions {
  fetch: typeof fetch
  provider: string
  url: string
  /** The token response; its `access_token` is sent as the Bearer credential. */
  tokens: { access_token?: string }
  headers?: Record<string, string>
}

/** GETs JSON with the access token as a Bearer credential. */
export async function fetchJson<T>(options: FetchJsonOptions): Promise<T> {
  const { provider, url, tokens, headers } = options
  const accessToken = tokens.access_token
  if (typeof accessToken !== "string" || accessToken === "") throw new OAuthProfileError(provider, "no access_token to fetch the profile with.")
  const response = await options.fetch(url, {
    headers: { accept: "application/json", "user-agent": "latchkey", ...headers, authorization: `Bearer ${accessToken}` },
  })
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
