// The provider-side checks a mutation run removed without any test noticing, each attacked through
// createAuth().handler with a browser's cookie jar and a real oidc-provider (or the GitHub-like
// OAuth 2.0 server): a configured issuer's discovery document naming another issuer, a required
// RFC 9207 `iss` left off the callback, a nonce in an id_token nobody asked one of, check values
// reused across sign-ins, and id_token algorithms outside the allowlist (HMAC above all).
import { decodeJwt, SignJWT } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import Asgardeo from "../../src/providers/asgardeo.js"
import Auth0 from "../../src/providers/auth0.js"
import Authentik from "../../src/providers/authentik.js"
import BeyondIdentity from "../../src/providers/beyondidentity.js"
import Cognito from "../../src/providers/cognito.js"
import Descope from "../../src/providers/descope.js"
import DuendeIdentityServer6 from "../../src/providers/duende-identity-server6.js"
import Frontegg from "../../src/providers/frontegg.js"
import FusionAuth from "../../src/providers/fusionauth.js"
import Gitea from "../../src/providers/gitea.js"
import GitLab from "../../src/providers/gitlab.js"
import IdentityServer4 from "../../src/providers/identity-server4.js"
import Keycloak from "../../src/providers/keycloak.js"
import Kinde from "../../src/providers/kinde.js"
import Logto from "../../src/providers/logto.js"
import Okta from "../../src/providers/okta.js"
import OneLogin from "../../src/providers/onelogin.js"
import OryHydra from "../../src/providers/ory-hydra.js"
import Passage from "../../src/providers/passage.js"
import PingId from "../../src/providers/ping-id.js"
import UnitedEffects from "../../src/providers/united-effects.js"
import Zitadel from "../../src/providers/zitadel.js"
import type { OAuthConfig, OIDCConfig } from "../../src/providers/types.js"
import { TestBrowser } from "../servers/browser.js"
import { startGitHubLike, type GitHubLike } from "../servers/github-like.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { csrfOf, jarOf, ORIGIN, post, secureApp, sessionOf } from "../security/support.js"

/** Every provider whose issuer is the instance URL the app configures (`quirks.instanceIssuer`: a trailing slash is forgiven). */
const INSTANCE_PROVIDERS = { asgardeo: Asgardeo, beyondidentity: BeyondIdentity, cognito: Cognito, descope: Descope, "duende-identity-server6": DuendeIdentityServer6, frontegg: Frontegg, fusionauth: FusionAuth, gitea: Gitea, gitlab: GitLab, "identity-server4": IdentityServer4, keycloak: Keycloak, kinde: Kinde, logto: Logto, onelogin: OneLogin, passage: Passage, "ping-id": PingId, "united-effects": UnitedEffects, zitadel: Zitadel }
/** Providers whose issuer the app configures too, compared exactly. */
const OPTION_ISSUER_PROVIDERS = { auth0: Auth0, authentik: Authentik, okta: Okta, hydra: OryHydra }
const CONFIGURED_ISSUER_PROVIDERS = { ...INSTANCE_PROVIDERS, ...OPTION_ISSUER_PROVIDERS }
const IDS = ["corp", "custom", ...Object.keys(CONFIGURED_ISSUER_PROVIDERS)]
const CLIENT = { client_id: "app", client_secret: "app-secret", redirect_uris: IDS.map((id) => `${ORIGIN}/auth/callback/${id}`), grant_types: ["authorization_code"] }
const ATTACKER = { sub: "attacker", email: "attacker@evil.example", name: "Attacker" }
const OCTO = { id: 7, login: "octo", name: "Octo Cat", email: "octo@example.com", avatar_url: "https://example.com/octo.png", emails: [] }

let op: OidcServer
let hmacOp: OidcServer
let withIss: GitHubLike
let withoutIss: GitHubLike

beforeAll(async () => {
  op = await startOidcServer({ clients: [CLIENT], accounts: [ATTACKER] })
  // Signs id_tokens with HS256 (the client secret as the key) and advertises HS256 beside RS256.
  hmacOp = await startOidcServer({ clients: [{ ...CLIENT, id_token_signed_response_alg: "HS256" }], accounts: [ATTACKER], configuration: { enabledJWA: { idTokenSigningAlgValues: ["RS256", "HS256"] } } })
  withIss = await startGitHubLike({ clientId: "app", clientSecret: "app-secret", user: OCTO })
  withoutIss = await startGitHubLike({ clientId: "app", clientSecret: "app-secret", user: OCTO, omitIss: true })
})

afterAll(async () => {
  await Promise.all([op.close(), hmacOp.close(), withIss.close(), withoutIss.close()])
})

const corp = (overrides: Partial<OIDCConfig> = {}, issuer = op.issuer): OIDCConfig => ({ id: "corp", name: "Corp", type: "oidc", issuer, clientId: "app", clientSecret: "app-secret", ...overrides })

/** A sign-in through the app's own form, followed to where it lands. */
async function signInThrough(site: ReturnType<typeof secureApp>, provider: string, browser = site.browser()) {
  const { url } = await post(browser, `/auth/signin/${provider}`, { csrfToken: await csrfOf(browser) })
  return { url, session: await sessionOf(browser) }
}

function expectRefused(outcome: { url: URL; session: unknown }): void {
  expect(outcome.url.origin + outcome.url.pathname).toBe(`${ORIGIN}/auth/error`)
  expect(outcome.session).toBeNull()
}

describe("a configured issuer's discovery document that names another issuer", () => {
  const INSTANCE = "https://login.victim.example/tenant-a"
  const DISCOVERY = "/.well-known/openid-configuration"

  /**
   * The app's provider fetch, with every discovery request under `base` (whatever path a record
   * puts its document at) answered by the attacker's provider's own document: valid, but naming
   * the attacker's issuer and endpoints.
   */
  const attackersDocumentFor =
    (base: string): typeof fetch =>
    (input, init) => {
      const url = String(input)
      if (url.startsWith(`${base}/`) && url.endsWith(DISCOVERY)) return fetch(`${op.issuer}${DISCOVERY}`, init)
      return fetch(input, init)
    }

  it.each(Object.entries(CONFIGURED_ISSUER_PROVIDERS))("%s refuses it, and no sign-in starts", async (id, factory) => {
    const site = secureApp({ providers: [factory({ issuer: INSTANCE, clientId: "app", clientSecret: "app-secret" })], fetch: attackersDocumentFor(INSTANCE), logger: { error: () => {} } })
    const outcome = await signInThrough(site, id)
    expectRefused(outcome)
    expect(outcome.url.searchParams.get("error")).toBe("Configuration")
  })

  it.each(Object.entries(CONFIGURED_ISSUER_PROVIDERS))("%s configured with the attacker's own issuer signs in (the control)", async (id, factory) => {
    const site = secureApp({ providers: [factory({ issuer: op.issuer, clientId: "app", clientSecret: "app-secret" })], fetch: attackersDocumentFor(op.issuer) })
    // Some records ask for no email scope (BeyondIdentity: openid alone), so a session is the proof.
    const { url, session } = await signInThrough(site, id)
    expect(url.href).toBe(`${ORIGIN}/`)
    expect(session).toMatchObject({ user: expect.any(Object) })
  })
})

describe("a required RFC 9207 iss missing from the callback", () => {
  /** A hand-written OAuth 2.0 provider that declares the iss its server sends. */
  const custom = (server: GitHubLike): OAuthConfig => ({
    id: "custom",
    name: "Custom",
    type: "oauth",
    authorization: `${server.baseUrl}/login/oauth/authorize`,
    token: `${server.baseUrl}/login/oauth/access_token`,
    userinfo: `${server.baseUrl}/api/v3/user`,
    clientId: "app",
    clientSecret: "app-secret",
    quirks: { issParameter: `${server.baseUrl}/login/oauth` },
  })

  it("is refused for a provider whose config declares its iss (not optional)", async () => {
    const site = secureApp({ providers: [custom(withoutIss)], logger: { error: () => {} } })
    expectRefused(await signInThrough(site, "custom"))
  })

  it("while the same provider signs in when its server sends the iss (the control)", async () => {
    const site = secureApp({ providers: [custom(withIss)] })
    expect((await signInThrough(site, "custom")).session).toMatchObject({ user: { email: OCTO.email } })
  })

  /** A browser whose trip back to the app loses the callback's iss, as a mix-up attacker's redirect would. */
  function issStripped(site: ReturnType<typeof secureApp>, strip: boolean): TestBrowser {
    return new TestBrowser(undefined, (input, init) => {
      const url = new URL(String(input))
      if (strip && url.origin === ORIGIN && url.pathname.startsWith("/auth/callback/")) {
        expect(url.searchParams.has("iss")).toBe(true)
        url.searchParams.delete("iss")
      }
      return site.dispatch(url, init)
    })
  }

  it("is refused for an OpenID provider whose metadata says authorization_response_iss_parameter_supported", async () => {
    const metadata = (await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true)
    const site = secureApp({ providers: [corp()], logger: { error: () => {} } })
    expectRefused(await signInThrough(site, "corp", issStripped(site, true)))
    expect((await signInThrough(site, "corp", issStripped(site, false))).session).toMatchObject({ user: { email: ATTACKER.email } })
  })
})

/**
 * The app's provider fetch, with each token response's id_token re-signed by the provider's own
 * key after `change`: what a token minted for another authorization request looks like.
 */
function reissued(change: (claims: Record<string, unknown>) => Record<string, unknown>): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init)
    if (!String(input).endsWith("/token")) return response
    const body = (await response.json()) as { id_token: string }
    const claims = change(decodeJwt(body.id_token) as Record<string, unknown>)
    const idToken = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "test-signing-key" }).sign(op.signingKey)
    return Response.json({ ...body, id_token: idToken })
  }
}

describe("an id_token carrying a nonce in a PKCE-only flow", () => {
  it("is refused: no nonce was sent, so the token answers another request", async () => {
    const site = secureApp({ providers: [corp({ checks: ["pkce"] })], fetch: reissued((claims) => ({ ...claims, nonce: "from-another-sign-in" })), logger: { error: () => {} } })
    expectRefused(await signInThrough(site, "corp"))
  })

  it("while the same token re-signed without a nonce signs in (the control)", async () => {
    const site = secureApp({ providers: [corp({ checks: ["pkce"] })], fetch: reissued((claims) => claims) })
    expect((await signInThrough(site, "corp")).session).toMatchObject({ user: { email: ATTACKER.email } })
  })
})

describe("fresh state, nonce and PKCE values on every sign-in", () => {
  /** The state, nonce and code_challenge of one sign-in start in `browser`, read from the redirect to the provider. */
  async function startValues(site: ReturnType<typeof secureApp>, browser: TestBrowser): Promise<string[]> {
    const csrfToken = await csrfOf(browser)
    const cookie = Object.entries(jarOf(browser)).map(([name, value]) => `${name}=${value}`).join("; ")
    const response = await site.handler(new Request(`${ORIGIN}/auth/signin/corp`, { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken }).toString() }))
    // The browser keeps this start's check cookies, so a later start in it sees them.
    browser.acceptCookies(ORIGIN, response.headers.getSetCookie())
    const authorize = new URL(response.headers.get("location")!)
    expect(authorize.origin).toBe(op.issuer)
    return ["state", "nonce", "code_challenge"].map((name) => authorize.searchParams.get(name) ?? expect.fail(`no ${name}`))
  }

  it("two sign-ins in one browser, and one in another, share no value", async () => {
    const site = secureApp({ providers: [corp({ checks: ["pkce", "state", "nonce"] })] })
    const first = site.browser()
    const values = [...(await startValues(site, first)), ...(await startValues(site, first)), ...(await startValues(site, site.browser()))]
    expect(Object.keys(jarOf(first))).toEqual(expect.arrayContaining(["__Host-authjs.state", "__Host-authjs.nonce", "__Host-authjs.pkce.code_verifier"]))
    expect(values).toHaveLength(9)
    for (const value of values) expect(value.length).toBeGreaterThanOrEqual(43)
    expect(new Set(values).size).toBe(9)
  })
})

describe("id_token algorithms outside the allowlist", () => {
  /** The app's provider fetch through `change`, counting the requests for the provider's key set. */
  function countingJwks(change: (url: URL, response: Response) => Promise<Response> | Response = (_, response) => response) {
    const seen = { jwks: 0 }
    const recording: typeof fetch = async (input, init) => {
      const url = new URL(String(input))
      if (url.pathname === "/jwks") seen.jwks++
      return change(url, await fetch(input, init))
    }
    return { seen, recording }
  }

  /** Errors the app logs, to read why a sign-in was refused. */
  function errorLog() {
    const errors: Error[] = []
    return { errors, logger: { error: (error: Error) => void errors.push(error) } }
  }

  /**
   * A provider that advertises ML-DSA-44 beside RS256 (oauth4webapi knows it; latchkey's allowlist
   * does not), and a token response whose id_token names ML-DSA-44 over the provider's real claims.
   */
  const advertisesMlDsa = async (url: URL, response: Response): Promise<Response> => {
    if (url.pathname === "/.well-known/openid-configuration") {
      const metadata = (await response.json()) as { id_token_signing_alg_values_supported: string[] }
      return Response.json({ ...metadata, id_token_signing_alg_values_supported: [...metadata.id_token_signing_alg_values_supported, "ML-DSA-44"] })
    }
    if (url.pathname !== "/token") return response
    const body = (await response.json()) as { id_token: string }
    const [, payload, signature] = body.id_token.split(".")
    const header = Buffer.from(JSON.stringify({ alg: "ML-DSA-44", kid: "test-signing-key" })).toString("base64url")
    return Response.json({ ...body, id_token: `${header}.${payload}.${signature}` })
  }

  it("an id_token whose alg the provider advertises but the allowlist lacks (ML-DSA-44) is refused before any JWKS fetch", async () => {
    const { seen, recording } = countingJwks(advertisesMlDsa)
    const site = secureApp({ providers: [corp()], fetch: recording, logger: { error: () => {} } })
    expectRefused(await signInThrough(site, "corp"))
    expect(seen.jwks).toBe(0)
  })

  it("an HS256 id_token (MACed with the client secret) is refused where the config allows no symmetric alg, before any JWKS fetch", async () => {
    const { seen, recording } = countingJwks()
    const site = secureApp({ providers: [corp({}, hmacOp.issuer)], fetch: recording, logger: { error: () => {} } })
    expectRefused(await signInThrough(site, "corp"))
    expect(seen.jwks).toBe(0)
  })

  it("HS256 is never counted as asymmetric: a provider advertising only HS256 offers nothing to verify against its JWKS", async () => {
    const onlyHs256 = async (url: URL, response: Response) =>
      url.pathname === "/.well-known/openid-configuration" ? Response.json({ ...((await response.json()) as object), id_token_signing_alg_values_supported: ["HS256"] }) : response
    const { seen, recording } = countingJwks(onlyHs256)
    const { errors, logger } = errorLog()
    const site = secureApp({ providers: [corp({}, hmacOp.issuer)], fetch: recording, logger })
    expectRefused(await signInThrough(site, "corp"))
    expect(errors.map((error) => error.message)).toEqual([expect.stringContaining("offers no asymmetric id_token signing algorithm")])
    expect(seen.jwks).toBe(0)
  })

  it("an HS256 id_token is accepted where the config declares HS256, verified with the secret and never against the JWKS", async () => {
    const { seen, recording } = countingJwks()
    const site = secureApp({ providers: [corp({ client: { id_token_signed_response_alg: "HS256" } }, hmacOp.issuer)], fetch: recording })
    expect((await signInThrough(site, "corp")).session).toMatchObject({ user: { email: ATTACKER.email } })
    expect(seen.jwks).toBe(0)
  })

  it("an RS256 id_token is verified against the JWKS (the control: the counter sees key-set fetches)", async () => {
    const { seen, recording } = countingJwks()
    const site = secureApp({ providers: [corp()], fetch: recording })
    expect((await signInThrough(site, "corp")).session).toMatchObject({ user: { email: ATTACKER.email } })
    expect(seen.jwks).toBe(1)
  })
})
