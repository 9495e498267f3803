/**
 * From tokens to a profile, and from a profile to the user and account. The profile comes from the
 * provider's custom userinfo request when it has one, else from the id_token (OpenID Connect),
 * from the userinfo endpoint with its `sub` checked against the id_token's (`idToken: false`), or
 * from a GET to the userinfo endpoint (OAuth 2.0). A signed userinfo answer is worth its claims
 * only once its signature verifies against the provider's published keys.
 */
import * as oauth from "oauth4webapi"
import { OAuthProfileError, OAuthProtocolError } from "../errors.js"
import type { ResolvedOAuthProvider } from "../providers/types.js"
import type { Account, Profile, TokenSet, User } from "../types.js"
import type { FlowContext } from "./context.js"
import { profileFetch } from "./fetch-json.js"
import { providerFetch, requestOptions, type HttpOptions } from "./http.js"
import { asymmetricAlgorithms, verifyWithProviderKeys } from "./jwks.js"
import { jwsHeader, unverifiedPayload } from "./jwt-parts.js"
import { translateError } from "./translate-error.js"

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/** Apple's first-sign-in `user` form field, when it is a JSON object; anything else is ignored. */
function firstSignInUser(params: URLSearchParams): Record<string, unknown> | undefined {
  const raw = params.get("user")
  if (raw === null) return undefined
  try {
    const parsed: unknown = JSON.parse(raw)
    return isObject(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

function isSignedUserinfo(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase() === "application/jwt"
}

/**
 * A signed userinfo response (OpenID Connect Core §5.3.2) is worth its claims only once its
 * signature verifies (§5.3.4): oauth4webapi's processing checks its algorithm and claims, not its
 * signature. It is verified against the provider's JWKS with the algorithm the client registered
 * (`userinfo_signed_response_alg`), else one the provider advertises, asymmetric only.
 * `response` is the userinfo response oauth4webapi processed; `jwt` is its body.
 */
async function verifySignedUserinfo(context: FlowContext, response: Response, jwt: string, options: HttpOptions): Promise<void> {
  const { provider, server } = context
  const configured = provider.client.userinfo_signed_response_alg
  const algorithms = asymmetricAlgorithms(configured ? [configured] : (server.userinfo_signing_alg_values_supported ?? []))
  if (algorithms.length === 0) throw new OAuthProtocolError(provider.id, "the userinfo response is signed, and no asymmetric algorithm is registered or advertised to verify it with.")
  const jwksUri = server.jwks_uri
  if (jwksUri === undefined) throw new OAuthProtocolError(provider.id, "the userinfo response is signed, and the provider publishes no jwks_uri to verify it with.")
  const refused = "the signed userinfo response does not verify against the provider's published keys."
  await verifyWithProviderKeys({ provider: provider.id, server, jwksUri, response, alg: jwsHeader(jwt)?.alg, algorithms, refused }, options)
}

/** Whether `issuer` is an URL on the origin (scheme, host and port) of `endpoint`. */
function onOriginOf(issuer: unknown, endpoint: string | undefined): boolean {
  if (typeof issuer !== "string" || endpoint === undefined) return false
  try {
    return new URL(issuer).origin === new URL(endpoint).origin
  } catch {
    return false
  }
}

/**
 * The userinfo answer and server metadata for a provider whose userinfo service issues its own
 * JWT (`quirks.userinfoIssuedByEndpoint`, BankID Norway). A body that is a compact JWS is labelled
 * `application/jwt` whatever its content type said, so it cannot skip the signed path. The `iss`
 * expected of it is its own when that is an URL on the userinfo endpoint's origin, else the
 * issuer's. With no userinfo algorithms advertised, the id_token's are allowed: the provider
 * documents that the keys of its `jwks_uri` sign both. The signature is still checked below.
 */
async function endpointIssued(context: FlowContext, response: Response): Promise<{ response: Response; server: oauth.AuthorizationServer }> {
  const { server } = context
  const body = response.ok ? (await response.clone().text()).trim() : ""
  if (jwsHeader(body) === undefined) return { response, server }
  const headers = new Headers(response.headers)
  headers.set("content-type", "application/jwt")
  const iss = unverifiedPayload(body)?.iss
  return {
    response: new Response(body, { status: response.status, statusText: response.statusText, headers }),
    server: {
      ...server,
      issuer: onOriginOf(iss, server.userinfo_endpoint) ? (iss as string) : server.issuer,
      userinfo_signing_alg_values_supported: server.userinfo_signing_alg_values_supported ?? server.id_token_signing_alg_values_supported ?? ["RS256"],
    },
  }
}

async function userinfoProfile(context: FlowContext, tokens: TokenSet, subject: string, options: HttpOptions): Promise<Profile> {
  const { provider, client } = context
  try {
    const requested = await oauth.userInfoRequest(context.server, client, tokens.access_token ?? "", requestOptions(context.server.userinfo_endpoint, options, provider.id))
    const { response, server } = provider.quirks.userinfoIssuedByEndpoint ? await endpointIssued(context, requested) : { response: requested, server: context.server }
    const signed = response.ok && isSignedUserinfo(response) ? await response.clone().text() : undefined
    const profile = (await oauth.processUserInfoResponse(server, client, subject, response)) as Profile
    if (signed !== undefined) await verifySignedUserinfo({ ...context, server }, response, signed, options)
    return profile
  } catch (error) {
    throw translateError(provider.id, error, "userinfo")
  }
}

function withQuery(url: string, params: Record<string, string>): string {
  const target = new URL(url)
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value)
  return target.href
}

/** The raw profile for this sign-in. */
export async function obtainProfile(
  context: FlowContext,
  tokens: TokenSet,
  claims: oauth.IDToken | undefined,
  params: URLSearchParams,
  options: HttpOptions
): Promise<Profile> {
  const { provider, server } = context
  const fetchImplementation = providerFetch(options, provider.id)
  const fetchJson = profileFetch(provider.id, tokens, fetchImplementation)
  let profile: Profile
  if (provider.userinfo.request) {
    const custom: unknown = await provider.userinfo.request({ tokens, provider, fetch: fetchImplementation, fetchJson })
    if (!isObject(custom)) throw new OAuthProfileError(provider.id, "the custom userinfo request returned no profile object.")
    if (claims && !provider.idToken && custom.sub !== claims.sub) throw new OAuthProtocolError(provider.id, "the userinfo sub differs from the id_token sub.")
    profile = custom as Profile
  } else if (claims && provider.idToken) {
    profile = { ...claims } as Profile
  } else if (claims) {
    profile = await userinfoProfile(context, tokens, claims.sub, options)
  } else {
    if (server.userinfo_endpoint === undefined) throw new OAuthProfileError(provider.id, "there is no userinfo endpoint to fetch the profile from.")
    const url = withQuery(server.userinfo_endpoint, provider.userinfo.params)
    profile = await fetchJson<Profile>(url)
    if (!isObject(profile)) throw new OAuthProfileError(provider.id, "the userinfo response is not a JSON object.")
  }
  const user = provider.quirks.firstSignInUserField ? firstSignInUser(params) : undefined
  return user === undefined ? profile : { ...profile, user }
}

/** The user and account for a profile, through the provider's callbacks. */
export async function mapProfile(provider: ResolvedOAuthProvider, profile: Profile, tokens: TokenSet): Promise<{ user: User; account: Account }> {
  let user: User
  let accountFields: Partial<Account> | TokenSet | undefined | void
  try {
    user = await provider.profile(profile, tokens)
    accountFields = await provider.account(tokens)
  } catch (cause) {
    throw new OAuthProfileError(provider.id, "the profile or account callback threw.", { cause })
  }
  if (!isObject(user) || user.id === undefined || user.id === null || user.id === "") {
    throw new OAuthProfileError(provider.id, "the profile callback returned a user without an id.")
  }
  const account: Account = { ...(accountFields ?? {}), provider: provider.id, type: provider.type, providerAccountId: String(user.id) }
  // Lower-cased as Auth.js does before linking: SQL adapters find an address exactly as written, and
  // `ADA@Example.com` must meet `ada@example.com`'s account rules, not become a second user.
  const email = typeof user.email === "string" ? user.email.toLowerCase() : (user.email as User["email"])
  return { user: { ...user, id: String(user.id), email }, account }
}
