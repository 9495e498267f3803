// Issue 13, "an Auth.js app moves over and just works": provider configurations written by hand the
// way Auth.js's docs show them, each driven to a signed-in user against a real oidc-provider,
// through the flow functions and through createAuth().handler. Every default such a config relies
// on (scope, checks, client authentication, profile mapping, userinfo, discovery, name) is used
// here without being spelled out.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { InvalidProviderError } from "../../src/errors.js"
import type { OAuthConfig } from "../../src/providers/types.js"
import { app as handlerApp, APP as HANDLER_APP, csrf, postForm, session } from "../handler/support.js"
import { startGitHubLike, type GitHubLike } from "../servers/github-like.js"
import { DEFAULT_ACCOUNT, startOidcServer, type OidcServer, type TestAccount } from "../servers/oidc-provider.js"
import { callbackFor, rejection, signIn } from "./support.js"

const IDS = ["corp", "corp-oauth", "corp-post"]
const redirect_uris = IDS.flatMap((id) => [callbackFor(id), `${HANDLER_APP}/auth/callback/${id}`])
const PROFILE_CLAIMS = { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "nickname", "preferred_username", "picture"] }
/** A user who left the display name empty, as identity servers allow. */
const NAMELESS = { sub: "user-2", email: "grace@example.com", preferred_username: "grace" } as TestAccount

let server: OidcServer
let namelessServer: OidcServer
/** A plain OAuth 2.0 server (no discovery, no RFC 9207 iss), for configs given by endpoints alone. */
let oauthServer: GitHubLike
const OCTO = { id: 7, login: "octo", name: "Octo Cat", email: "octo@example.com", avatar_url: "https://example.com/octo.png", emails: [] }

beforeAll(async () => {
  const clients = [
    { client_id: "corp-client", client_secret: "corp-secret", redirect_uris, grant_types: ["authorization_code"] },
    { client_id: "corp-post-client", client_secret: "corp-post-secret", token_endpoint_auth_method: "client_secret_post", redirect_uris, grant_types: ["authorization_code"] },
  ]
  server = await startOidcServer({ clients: clients as never, configuration: { claims: PROFILE_CLAIMS } })
  namelessServer = await startOidcServer({ clients: clients as never, accounts: [NAMELESS], configuration: { claims: PROFILE_CLAIMS } })
  oauthServer = await startGitHubLike({ clientId: "corp-client", clientSecret: "corp-secret", user: OCTO, omitIss: true })
})

afterAll(async () => {
  await Promise.all([server.close(), namelessServer.close(), oauthServer.close()])
})

/** A custom OIDC provider as Auth.js's custom-provider guide writes it: no scope, checks, client or profile. */
function corp(overrides: Record<string, unknown> = {}, issuer = server.issuer): OAuthConfig {
  return { id: "corp", name: "Corp", type: "oidc", issuer, clientId: "corp-client", clientSecret: "corp-secret", ...overrides } as unknown as OAuthConfig
}

/** A custom OAuth 2.0 provider with its three endpoints as plain strings, and nothing else. */
function corpOAuth(base = oauthServer.baseUrl, paths = ["/login/oauth/authorize", "/login/oauth/access_token", "/api/v3/user"]): OAuthConfig {
  const [authorization, token, userinfo] = paths.map((path) => `${base}${path}`)
  return { id: "corp-oauth", name: "Corp OAuth", type: "oauth", authorization, token, userinfo, clientId: "corp-client", clientSecret: "corp-secret" }
}

const OIDC_PROVIDER_PATHS = ["/auth", "/token", "/me"]

const ADA = { id: DEFAULT_ACCOUNT.sub, name: DEFAULT_ACCOUNT.name, email: DEFAULT_ACCOUNT.email, image: DEFAULT_ACCOUNT.picture }

describe("hand-written provider configurations against oidc-provider", () => {
  describe("startSignIn / finishSignIn", () => {
    it("a bare OIDC config with no scope signs in, asking for openid profile email (regression: invalid_request)", async () => {
      const { authorizationUrl, result } = await signIn(corp(), "corp")
      expect(authorizationUrl.searchParams.get("scope")).toBe("openid profile email")
      // The default checks: PKCE alone.
      expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256")
      expect(authorizationUrl.searchParams.has("state")).toBe(false)
      expect(authorizationUrl.searchParams.has("nonce")).toBe(false)
      // The default client authentication (client_secret_basic) and the default profile mapping.
      expect(result.user).toEqual(ADA)
      expect(result.account).toMatchObject({ provider: "corp", type: "oidc", providerAccountId: DEFAULT_ACCOUNT.sub })
    })

    it("a bare OAuth 2.0 config with string endpoints signs in, its profile from the userinfo URL", async () => {
      const { authorizationUrl, result } = await signIn(corpOAuth(), "corp-oauth")
      expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${oauthServer.baseUrl}/login/oauth/authorize`)
      expect(authorizationUrl.searchParams.get("scope")).toBe("openid profile email")
      // The default profile: id from `id`, and no picture claim to take an image from.
      expect(result.user).toEqual({ id: "7", name: "Octo Cat", email: "octo@example.com", image: null })
      expect(result.account).toMatchObject({ provider: "corp-oauth", type: "oauth", providerAccountId: "7" })
    })

    it("an endpoints-only OAuth 2.0 config against a server that sends RFC 9207 iss is refused until it names the issuer", async () => {
      // With no issuer configured there is nothing to compare the callback's iss with, and the flow
      // skips no check silently (Auth.js fails here too, against its placeholder issuer).
      const bare = corpOAuth(server.issuer, OIDC_PROVIDER_PATHS)
      expect(await rejection(signIn(bare, "corp-oauth"))).toMatchObject({ code: "ERR_OAUTH_PROTOCOL" })
      const { result } = await signIn({ ...bare, issuer: server.issuer }, "corp-oauth")
      expect(result.user).toEqual(ADA)
    })

    it("a config with issuer and wellKnown signs in", async () => {
      const { result } = await signIn(corp({ wellKnown: `${server.issuer}/.well-known/openid-configuration` }), "corp")
      expect(result.user).toEqual(ADA)
    })

    it("a config with wellKnown alone (Auth.js v4 style) signs in, its issuer read back from the URL", async () => {
      const { result } = await signIn(corp({ issuer: undefined, wellKnown: `${server.issuer}/.well-known/openid-configuration` }), "corp")
      expect(result.user).toEqual(ADA)
    })

    it("authorization: { params: { scope } } is the scope that is asked for", async () => {
      const { authorizationUrl, result } = await signIn(corp({ authorization: { params: { scope: "openid email" } } }), "corp")
      expect(authorizationUrl.searchParams.get("scope")).toBe("openid email")
      expect(result.user).toEqual({ id: DEFAULT_ACCOUNT.sub, name: null, email: DEFAULT_ACCOUNT.email, image: null })
    })

    it("a top-level scope (Auth.js v3/v4) is refused before any request, naming where it goes", async () => {
      const error = await rejection(signIn(corp({ scope: "openid email" }), "corp"))
      expect(error).toBeInstanceOf(InvalidProviderError)
      expect(error).toMatchObject({ code: "ERR_INVALID_PROVIDER", provider: "corp", field: "scope" })
    })

    it("client: { token_endpoint_auth_method: 'client_secret_post' } is honoured", async () => {
      const config = corp({ id: "corp-post", clientId: "corp-post-client", clientSecret: "corp-post-secret", client: { token_endpoint_auth_method: "client_secret_post" } })
      expect((await signIn(config, "corp-post")).result.user).toEqual(ADA)
    })

    it("the default profile names a user with no name by preferred_username, as Auth.js does", async () => {
      const { result } = await signIn(corp({}, namelessServer.issuer), "corp")
      expect(result.user).toEqual({ id: NAMELESS.sub, name: "grace", email: NAMELESS.email, image: null })
    })
  })

  describe("createAuth().handler", () => {
    it("a bare OIDC config with no scope signs in to a session", async () => {
      const { browser } = handlerApp({ providers: [corp()] })
      const page = await (await browser.open(`${HANDLER_APP}/auth/signin`)).response.text()
      expect(page).toContain("Sign in with Corp")
      const { url } = await postForm(browser, "/auth/signin/corp", { csrfToken: await csrf(browser), callbackUrl: "/dashboard" })
      expect(url.href).toBe(`${HANDLER_APP}/dashboard`)
      expect(await session(browser)).toMatchObject({ user: { name: ADA.name, email: ADA.email, image: ADA.image } })
    })

    it("a bare OAuth 2.0 config with string endpoints signs in to a session", async () => {
      const { browser } = handlerApp({ providers: [corpOAuth()] })
      await postForm(browser, "/auth/signin/corp-oauth", { csrfToken: await csrf(browser) })
      expect(await session(browser)).toMatchObject({ user: { name: OCTO.name, email: OCTO.email } })
    })

    it("a config without a name or style gets a button named by its id", async () => {
      const { browser } = handlerApp({ providers: [corp({ name: undefined })] })
      const page = await (await browser.open(`${HANDLER_APP}/auth/signin`)).response.text()
      expect(page).toContain("Sign in with corp")
      await postForm(browser, "/auth/signin/corp", { csrfToken: await csrf(browser) })
      expect(await session(browser)).toMatchObject({ user: { email: ADA.email } })
    })
  })
})
