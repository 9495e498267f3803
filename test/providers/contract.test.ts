/// <reference types="vite/client" />
// The provider contract: every built-in OAuth 2.0 and OpenID Connect provider completes a full
// finishSignIn against a local server that answers with the provider's documented response shapes
// (test/fixtures/providers/<id>.json), and yields the fixture's expected User. OpenID Connect
// providers go through discovery, a JWKS and a signed id_token from that local issuer. The local
// token endpoint holds the exchange to the real provider's rules (see test/servers/provider-double.ts):
// the record's client authentication, the issued code once, PKCE and redirect_uri.
import { randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import { exportJWK, generateKeyPair, SignJWT } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clearDiscoveryCache } from "../../src/oauth/discovery.js"
import { finishSignIn } from "../../src/oauth/finish.js"
import { startSignIn } from "../../src/oauth/start.js"
import { resolveProvider } from "../../src/providers/core/resolve.js"
import type { OAuthConfig, ProviderConfig, ResolvedOAuthProvider } from "../../src/providers/types.js"
import { startProviderDouble, type ProviderDouble, type TokenRequestRules } from "../servers/provider-double.js"

/** The fixture schema. */
interface ProviderFixture {
  /** The provider documentation page the responses were modelled on. */
  source?: string
  /**
   * How the provider's token endpoint takes the code: the client authentication it documents, which
   * the record's token_endpoint_auth_method must match (the double refuses any other), and, only
   * for a record that replaces the token request with the provider's own (WeChat's GET, Notion's
   * JSON), how that request departs from RFC 6749.
   */
  tokenRequest: TokenRequestRules
  /** Extra factory options, such as the issuer of an instance-based provider. */
  options?: Record<string, unknown>
  /** The documented token response; access_token, token_type and expires_in are filled in. */
  token?: Record<string, unknown>
  /** OIDC: the id_token claims (and userinfo body). OAuth 2.0: the userinfo response body. */
  profile: Record<string, unknown>
  /** Further API answers by absolute URL or path, such as GitHub's /user/emails. */
  responses?: Record<string, unknown>
  /** Form fields the provider adds to a form_post callback, such as Apple's `user`. */
  callbackFields?: Record<string, string>
  /** The User the provider's profile mapping must produce. */
  user: Record<string, unknown>
  /**
   * Further documented shapes, one per branch of the profile mapping (a null avatar, a missing
   * name…): each is the base fixture with these fields laid over it, and must yield its `user`.
   */
  variants?: FixtureVariant[]
}

/** A branch of the profile mapping: changes to the base fixture, and the User they must yield. */
interface FixtureVariant {
  name: string
  /** Profile fields laid over the base profile; a field set to null stays null. */
  profile?: Record<string, unknown>
  /** Profile fields removed from the base profile. */
  omit?: string[]
  /** Replaces the base fixture's responses and callbackFields when given. */
  responses?: Record<string, unknown>
  callbackFields?: Record<string, string>
  user: Record<string, unknown>
}

/** The fixture of one variant: the base fixture with the variant's changes. */
function withVariant(fixture: ProviderFixture, variant: FixtureVariant): ProviderFixture {
  const profile: Record<string, unknown> = { ...fixture.profile, ...variant.profile }
  for (const field of variant.omit ?? []) delete profile[field]
  return {
    ...fixture,
    profile,
    responses: variant.responses ?? fixture.responses,
    callbackFields: variant.callbackFields ?? fixture.callbackFields,
    user: variant.user,
    variants: undefined,
  }
}

const modules = import.meta.glob<{ default: (options?: unknown) => ProviderConfig }>("../../src/providers/*.ts", { eager: true })
const oauthProviders = Object.values(modules)
  .filter((module) => typeof module.default === "function")
  .map((module) => module.default)
  .map((factory) => ({ factory, config: factory({ authorize: () => null }) }))
  .filter(({ config }) => config.type === "oauth" || config.type === "oidc")
  .map(({ factory, config }) => ({ id: config.id, factory: factory as (options?: unknown) => OAuthConfig }))
  .sort((a, b) => a.id.localeCompare(b.id))

/** The OAuthProviderId union of src/providers/ids.ts, read from the file. */
const OAUTH_PROVIDER_IDS = [
  ...readFileSync(new URL("../../src/providers/ids.ts", import.meta.url), "utf8")
    .split("export type BuiltInProviderType")[0]!
    .matchAll(/^\s+\| "([^"]+)"$/gm),
].map(([, id]) => id!).sort()

/** The providers most apps use: each fixture documents a variant for every branch of its mapping. */
const LARGE_PROVIDERS = ["apple", "discord", "facebook", "github", "gitlab", "google", "linkedin", "microsoft-entra-id", "slack", "twitter"]

const APP = "https://app.example.com"
const SECRET = "latchkey-test-secret-0123456789abcdef"
const CLIENT = { clientId: "contract-client", clientSecret: "contract-secret" }
let double: ProviderDouble
let signingKey: CryptoKey
let publicJwk: Record<string, unknown>
const outcomes = new Map<string, boolean>()

beforeAll(async () => {
  double = await startProviderDouble()
  const pair = await generateKeyPair("RS256")
  signingKey = pair.privateKey
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "contract-key", alg: "RS256", use: "sig" }
})

afterAll(async () => {
  await double.close()
  const passed = [...outcomes.values()].filter(Boolean).length
  console.log(`provider contract: ${passed} of ${oauthProviders.length} OAuth/OIDC providers passed`)
})

function fixtureFor(id: string): ProviderFixture {
  return JSON.parse(readFileSync(new URL(`../fixtures/providers/${id}.json`, import.meta.url), "utf8"))
}

const path = (url: string) => new URL(url).pathname
const TOKEN_PATH = "/__contract/token"
const USERINFO_PATH = "/__contract/userinfo"

/** Routes for an OpenID Connect provider: discovery, JWKS, token (with a signed id_token) and userinfo. */
function oidcRoutes(provider: ResolvedOAuthProvider, fixture: ProviderFixture, nonce: () => string | undefined) {
  const issuer = provider.issuer!
  const origin = new URL(issuer).origin
  const documentIssuer = provider.quirks.tenantIssuer ? issuer.replace(/\/(common|organizations|consumers)\//, "/{tenantid}/") : issuer
  const tokenIssuer = documentIssuer.replace("{tenantid}", String(fixture.profile.tid ?? ""))
  // As oauth4webapi builds it: the well-known suffix appended to the issuer's path.
  const issuerUrl = new URL(issuer)
  const discovery = provider.wellKnown ?? `${issuerUrl.origin}${issuerUrl.pathname.replace(/\/$/, "")}/.well-known/openid-configuration`
  double.routes.set(discovery.replace(/\?.*$/, ""), {
    issuer: documentIssuer,
    authorization_endpoint: `${origin}/__contract/authorize`,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    userinfo_endpoint: `${origin}${USERINFO_PATH}`,
    jwks_uri: `${origin}/__contract/jwks`,
    response_types_supported: ["code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    code_challenge_methods_supported: ["S256"],
  })
  double.routes.set(`${origin}/__contract/jwks`, { keys: [publicJwk] })
  const token = async () => {
    // The documented example's protocol claims belong to its own token; this issuer mints its own.
    const { iss: _iss, aud: _aud, exp: _exp, iat: _iat, nbf: _nbf, nonce: _nonce, at_hash: _atHash, c_hash: _cHash, ...profileClaims } = fixture.profile
    const claims = { ...profileClaims, iss: tokenIssuer, aud: provider.clientId, ...(nonce() ? { nonce: nonce() } : {}) }
    // A provider that declares an HMAC algorithm (LINE) gets id_tokens MACed with its client secret.
    const hmac = provider.client.id_token_signed_response_alg
    const idToken = typeof hmac === "string" && hmac.startsWith("HS")
      ? await new SignJWT(claims).setProtectedHeader({ alg: hmac }).setIssuedAt().setExpirationTime("5m").sign(new TextEncoder().encode(provider.clientSecret))
      : await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "contract-key" }).setIssuedAt().setExpirationTime("5m").sign(signingKey)
    return { access_token: "contract-access-token", token_type: "Bearer", expires_in: 3600, ...fixture.token, id_token: idToken }
  }
  return { token, userinfo: fixture.profile, tokenUrl: provider.token.url ?? `${origin}${TOKEN_PATH}`, userinfoUrl: provider.userinfo.url ?? `${origin}${USERINFO_PATH}` }
}

async function contract(id: string, factory: (options?: unknown) => OAuthConfig, fixture: ProviderFixture = fixtureFor(id)) {
  const config = factory({ ...CLIENT, ...fixture.options })
  const redirectUri = `${APP}/auth/callback/${id}`
  const provider = resolveProvider(config, { baseUrl: APP, env: {} }) as ResolvedOAuthProvider
  double.routes.clear()
  double.requests.length = 0
  double.rejections.length = 0
  clearDiscoveryCache(double.fetch)
  let authorization: URL | undefined
  const nonce = () => authorization?.searchParams.get("nonce") ?? undefined
  let tokenBody: () => Promise<unknown> | unknown
  let tokenUrl: string
  let userinfoUrl: string | undefined
  let userinfoBody: unknown = fixture.profile
  if (provider.type === "oidc") {
    const routes = oidcRoutes(provider, fixture, nonce)
    tokenBody = routes.token
    tokenUrl = routes.tokenUrl
    userinfoUrl = routes.userinfoUrl
  } else {
    tokenBody = () => ({ access_token: "contract-access-token", token_type: "bearer", expires_in: 3600, ...fixture.token })
    tokenUrl = provider.token.url!
    userinfoUrl = provider.userinfo.url
  }
  if (userinfoUrl) double.routes.set(userinfoUrl.replace(/\?.*$/, ""), userinfoBody)
  for (const [key, body] of Object.entries(fixture.responses ?? {})) double.routes.set(key, body)

  const started = await startSignIn(config, { redirectUri, secret: SECRET, fetch: double.fetch })
  authorization = started.url
  // The code this provider issues for this sign-in, and what its token endpoint will demand.
  const code = `contract-code-${randomUUID()}`
  const pkce = provider.checks.includes("pkce")
  if (pkce) expect(authorization.searchParams.get("code_challenge_method"), `${id} uses PKCE: the authorization request must carry an S256 challenge`).toBe("S256")
  const { clientAuth: _clientAuth, ...departures } = fixture.tokenRequest
  if (Object.keys(departures).length > 0) expect(provider.token.request, `${id}: only a record with its own token request may depart from RFC 6749`).toBeTypeOf("function")
  const grant = {
    rules: fixture.tokenRequest,
    clientId: CLIENT.clientId,
    clientSecret: CLIENT.clientSecret,
    code,
    redirectUri: authorization.searchParams.get("redirect_uri"),
    codeChallenge: pkce ? authorization.searchParams.get("code_challenge") ?? "" : undefined,
  }
  double.routes.set(tokenUrl.replace(/\?.*$/, ""), double.tokenEndpoint(grant, await tokenBody()))
  const callbackParams = new URLSearchParams({ code })
  const state = started.url.searchParams.get("state")
  if (state) callbackParams.set("state", state)
  if (provider.quirks.issParameter) callbackParams.set("iss", provider.quirks.issParameter)
  for (const [name, value] of Object.entries(fixture.callbackFields ?? {})) callbackParams.set(name, value)
  const cookie = started.cookies.map((line) => line.split(";")[0]).join("; ")
  const callback = provider.quirks.formPost
    ? new Request(redirectUri, { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: callbackParams })
    : new Request(`${redirectUri}?${callbackParams}`, { headers: { cookie } })
  const result = await finishSignIn(config, callback, { redirectUri, secret: SECRET, fetch: double.fetch }).catch((error: Error) => {
    throw new Error(`${id}: ${error.message} (the token endpoint refused: ${double.rejections.join("; ") || "nothing"})`, { cause: error })
  })
  const exchanges = double.requests.filter((request) => request.url.replace(/\?.*$/, "") === tokenUrl.replace(/\?.*$/, ""))
  return { provider, result, authorization: started.url, exchanges }
}

describe("provider contract", () => {
  it("covers every OAuth/OIDC provider of src/providers/ids.ts, all 116", () => {
    expect(OAUTH_PROVIDER_IDS).toHaveLength(116)
    expect(oauthProviders.map(({ id }) => id).sort()).toEqual(OAUTH_PROVIDER_IDS)
  })

  it("exercises every branch of the large providers' profile mappings through documented variants", () => {
    for (const id of LARGE_PROVIDERS) expect(fixtureFor(id).source, `${id}'s fixture cites the docs page it was modelled on`).toMatch(/^https:\/\//)
    const variantCounts = Object.fromEntries(LARGE_PROVIDERS.map((id) => [id, fixtureFor(id).variants?.length ?? 0]))
    expect(variantCounts).toEqual({ apple: 4, discord: 5, facebook: 2, github: 3, gitlab: 2, google: 2, linkedin: 1, "microsoft-entra-id": 2, slack: 1, twitter: 1 })
    // The other providers' documented variants, one per branch of their mappings (issue 13).
    const otherCounts = Object.fromEntries(OAUTH_PROVIDER_IDS.filter((id) => !LARGE_PROVIDERS.includes(id) && fixtureFor(id).variants?.length).map((id) => [id, fixtureFor(id).variants!.length]))
    expect(otherCounts).toEqual({
      "42-school": 4, amazon: 1, anilist: 2, asgardeo: 4, atlassian: 1, auth0: 4, authentik: 4, autodesk: 4, "azure-ad-b2c": 3, "azure-devops": 1, "bankid-no": 1, battlenet: 1,
      beyondidentity: 4, bitbucket: 3, box: 1, "boxyhq-saml": 3, bungie: 2, cognito: 4, coinbase: 3, concept2: 3, descope: 4, digitalocean: 1, dribbble: 2, dropbox: 1,
      "duende-identity-server6": 4, epicgames: 1, etsy: 2, eventbrite: 2, faceit: 2, figma: 1, fitbit: 3, foursquare: 1, freshbooks: 2, frontegg: 3, fusionauth: 4, gitea: 4,
      heroku: 1, huggingface: 4, "identity-server4": 4, instagram: 1, intuit: 2, kakao: 1, keycloak: 4, kick: 1, kinde: 4, lichess: 1, line: 4, linear: 1, logto: 3, mailchimp: 1,
      mailru: 2, mastodon: 1, mattermost: 3, medium: 2, mercadolibre: 2, myanimelist: 1, naver: 2, netsuite: 1, nextcloud: 1, okta: 4, onelogin: 4, osso: 1, osu: 1, passage: 4,
      patreon: 2, paypal: 2, "ping-id": 4, pinterest: 2, polar: 4, reddit: 1, roblox: 4, salesforce: 2, shikimori: 2, simplelogin: 1, spotify: 1, startgg: 3, threads: 1, tiktok: 1,
      todoist: 1, trakt: 2, tumblr: 1, twitch: 1, "united-effects": 4, vercel: 4, vipps: 1, vk: 2, webex: 1, wechat: 1, wikimedia: 3, wordpress: 1, xero: 2, yahoo: 4, yandex: 4,
      zitadel: 4, zoho: 3, zoom: 3,
    })
  })

  /** The provider's User as the flow answers it: the address lower-cased before linking, as Auth.js does (oauth/profile.ts). */
  const linkedUser = <U extends { email?: unknown }>(user: U): U => (typeof user.email === "string" ? { ...user, email: user.email.toLowerCase() } : user)

  describe.each(oauthProviders.map(({ id, factory }) => [id, factory] as const))("%s", (id, factory) => {
    it("completes finishSignIn against its documented responses and yields the expected User", async () => {
      outcomes.set(id, false)
      const { result, authorization, provider, exchanges } = await contract(id, factory)
      expect(double.rejections).toEqual([])
      expect(exchanges).toHaveLength(1)
      expect(result.user).toEqual(linkedUser(fixtureFor(id).user))
      expect(result.account).toMatchObject({ provider: id, type: provider.type, providerAccountId: String(fixtureFor(id).user.id) })
      expect(authorization.searchParams.get("client_id") ?? authorization.searchParams.get("client_key")).toBe(CLIENT.clientId)
      expect(double.requests.some((request) => path(request.url) === path(provider.token.url ?? `https://x${TOKEN_PATH}`) || request.url.endsWith(TOKEN_PATH))).toBe(true)
      outcomes.set(id, true)
    })

    // Defined only where the fixture documents variants; "variants cover…" below counts them.
    const variants = fixtureFor(id).variants ?? []
    if (variants.length > 0) it.for(variants.map((variant) => [variant.name, variant] as const))("yields the User for a documented variant: %s", async ([, variant]) => {
      const fixture = withVariant(fixtureFor(id), variant)
      const { result, exchanges } = await contract(id, factory, fixture)
      expect(double.rejections).toEqual([])
      expect(exchanges).toHaveLength(1)
      expect(result.user).toEqual(linkedUser(variant.user))
    })
  })
})
