// The OpenID Connect flow against a real oidc-provider on 127.0.0.1.
import { decodeJwt, generateKeyPair, SignJWT } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { finishSignIn } from "../../src/oauth/finish.js"
import { refreshTokens, revokeToken } from "../../src/oauth/tokens.js"
import Apple from "../../src/providers/apple.js"
import type { OIDCConfig } from "../../src/providers/types.js"
import { DEFAULT_ACCOUNT, startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { APP, callbackFor, reachCallback, rejection, SECRET, signIn } from "./support.js"

const IDS = ["test-oidc", "other-oidc", "apple"]
const redirect_uris = IDS.map(callbackFor)
let server: OidcServer
let subOnly: OidcServer
let hmacServer: OidcServer

beforeAll(async () => {
  const clients = [
    { client_id: "basic-client", client_secret: "basic-secret", token_endpoint_auth_method: "client_secret_basic", redirect_uris, grant_types: ["authorization_code", "refresh_token"] },
    { client_id: "post-client", client_secret: "post-secret", token_endpoint_auth_method: "client_secret_post", redirect_uris, grant_types: ["authorization_code", "refresh_token"] },
  ] as const
  server = await startOidcServer({ clients: [...clients] as never })
  subOnly = await startOidcServer({ clients: [...clients] as never, claimsInIdToken: false })
  hmacServer = await startOidcServer({
    clients: [{ ...clients[0], id_token_signed_response_alg: "HS256" }] as never,
    configuration: { enabledJWA: { idTokenSigningAlgValues: ["RS256", "HS256"] } },
  })
})

afterAll(async () => {
  await Promise.all([server.close(), subOnly.close(), hmacServer.close()])
})

function oidc(overrides: Partial<OIDCConfig> = {}, issuer = () => server.issuer): OIDCConfig {
  return {
    id: "test-oidc",
    name: "Test OIDC",
    type: "oidc",
    issuer: issuer(),
    clientId: "basic-client",
    clientSecret: "basic-secret",
    authorization: { params: { scope: "openid email profile" } },
    ...overrides,
  } as OIDCConfig
}

const expectedUser = { id: DEFAULT_ACCOUNT.sub, email: DEFAULT_ACCOUNT.email, name: DEFAULT_ACCOUNT.name, image: DEFAULT_ACCOUNT.picture }
const CHECK_SETS: ("pkce" | "state" | "nonce")[][] = [["pkce"], ["state"], ["nonce"], ["pkce", "state"], ["pkce", "nonce"], ["state", "nonce"], ["pkce", "state", "nonce"]]
const AUTH_METHODS = [
  ["client_secret_basic", "basic-client", "basic-secret"],
  ["client_secret_post", "post-client", "post-secret"],
] as const

describe("OIDC sign-in against oidc-provider", () => {
  describe.each(AUTH_METHODS)("%s", (method, clientId, clientSecret) => {
    it.each(CHECK_SETS.map((checks) => [checks.join("+"), checks] as const))("signs in with checks %s", async (_, checks) => {
      const provider = oidc({ clientId, clientSecret, checks: [...checks], client: { token_endpoint_auth_method: method } })
      const { authorizationUrl, result } = await signIn(provider, "test-oidc")
      expect(authorizationUrl.searchParams.has("code_challenge")).toBe(checks.includes("pkce"))
      expect(authorizationUrl.searchParams.has("state")).toBe(checks.includes("state"))
      expect(authorizationUrl.searchParams.has("nonce")).toBe(checks.includes("nonce"))
      expect(result.user).toEqual(expectedUser)
      expect(result.account).toMatchObject({ provider: "test-oidc", type: "oidc", providerAccountId: DEFAULT_ACCOUNT.sub, token_type: "bearer" })
      expect(typeof result.account.access_token).toBe("string")
      expect(result.account.expires_at).toBeGreaterThan(Date.now() / 1000)
      expect(decodeJwt(result.tokens.id_token!).aud).toBe(clientId)
    })
  })

  it("builds the authorization URL from the provider's parameters without letting them override the flow's", async () => {
    const provider = oidc({ authorization: { params: { scope: "openid email", client_id: "evil", redirect_uri: "https://evil.example", prompt: "login" } } })
    const { authorizationUrl } = await reachCallback(provider, "test-oidc", { params: { login_hint: "ada@example.com", response_type: "token" } })
    expect(authorizationUrl.searchParams.get("client_id")).toBe("basic-client")
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(callbackFor("test-oidc"))
    expect(authorizationUrl.searchParams.get("response_type")).toBe("code")
    expect(authorizationUrl.searchParams.get("prompt")).toBe("login")
    expect(authorizationUrl.searchParams.get("login_hint")).toBe("ada@example.com")
    expect(authorizationUrl.searchParams.get("scope")).toBe("openid email")
  })

  it("seals each check in its own cookie, SameSite=Lax, HttpOnly, Secure for an https app", async () => {
    const { checkCookies } = await reachCallback(oidc({ checks: ["pkce", "state", "nonce"] }), "test-oidc")
    expect(checkCookies.map((line) => line.split("=")[0])).toEqual(["__Host-authjs.pkce.code_verifier", "__Host-authjs.state", "__Host-authjs.nonce"])
    expect(checkCookies).toHaveLength(3)
    for (const line of checkCookies) expect(line).toMatch(/; Max-Age=900; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
  })

  it("clears the check cookies when the sign-in finishes", async () => {
    const { result } = await signIn(oidc({ checks: ["pkce", "state"] }), "test-oidc")
    expect(result.cookies).toHaveLength(2)
    for (const line of result.cookies) expect(line).toMatch(/^__Host-authjs\.(pkce\.code_verifier|state)=; Max-Age=0;/)
  })

  it("idToken: false takes the profile from userinfo", async () => {
    const { result } = await signIn(oidc({ idToken: false }, () => subOnly.issuer), "test-oidc")
    expect(result.user).toEqual(expectedUser)
    expect(result.profile.sub).toBe(DEFAULT_ACCOUNT.sub)
  })

  it("a provider whose id_token holds only sub: the id_token has no email, userinfo does", async () => {
    const { result } = await signIn(oidc({}, () => subOnly.issuer), "test-oidc")
    expect(decodeJwt(result.tokens.id_token!).email).toBeUndefined()
    expect(result.user).toEqual({ id: DEFAULT_ACCOUNT.sub, email: null, name: null, image: null })
    const viaUserinfo = await signIn(oidc({ idToken: false }, () => subOnly.issuer), "test-oidc")
    expect(viaUserinfo.result.user.email).toBe(DEFAULT_ACCOUNT.email)
  })

  it("refreshes tokens and revokes them", async () => {
    const provider = oidc()
    const { result } = await signIn(provider, "test-oidc")
    expect(typeof result.tokens.refresh_token).toBe("string")
    const refreshed = await refreshTokens(provider, result.tokens.refresh_token!)
    expect(refreshed.access_token).not.toBe(result.tokens.access_token)
    expect(refreshed.expires_at).toBeGreaterThan(Date.now() / 1000)
    await revokeToken(provider, refreshed.access_token!, { tokenTypeHint: "access_token" })
    const userinfo = await fetch(`${server.issuer}/me`, { headers: { authorization: `Bearer ${refreshed.access_token}` } })
    expect(userinfo.status).toBe(401)
  })

  it("caches discovery per issuer", async () => {
    let discoveries = 0
    const counting: typeof fetch = (input, init) => {
      if (String(input).endsWith("/.well-known/openid-configuration")) discoveries++
      return fetch(input, init)
    }
    await signIn(oidc(), "test-oidc", { fetch: counting })
    await signIn(oidc(), "test-oidc", { fetch: counting })
    expect(discoveries).toBe(1)
  })

  it("honours wellKnown instead of the default discovery path", async () => {
    const requested: string[] = []
    const remap: typeof fetch = (input, init) => {
      const url = String(input)
      requested.push(url)
      return fetch(url.replace("/custom/discovery.json", "/.well-known/openid-configuration"), init)
    }
    const { result } = await signIn(oidc({ wellKnown: `${server.issuer}/custom/discovery.json` }), "test-oidc", { fetch: remap })
    expect(result.user.id).toBe(DEFAULT_ACCOUNT.sub)
    expect(requested).toContain(`${server.issuer}/custom/discovery.json`)
    expect(requested.some((url) => url.endsWith("/.well-known/openid-configuration"))).toBe(false)
  })

  it("falls back to nonce when the server advertises no S256, never skipping the check silently", async () => {
    const noS256: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (!String(input).endsWith("/.well-known/openid-configuration")) return response
      return Response.json({ ...(await response.json()), code_challenge_methods_supported: ["plain"] })
    }
    const { authorizationUrl, result } = await signIn(oidc({ checks: ["pkce"] }), "test-oidc", { fetch: noS256 })
    expect(authorizationUrl.searchParams.has("code_challenge")).toBe(false)
    expect(authorizationUrl.searchParams.has("nonce")).toBe(true)
    expect(result.user.id).toBe(DEFAULT_ACCOUNT.sub)
  })

  it("verifies an HS256 id_token with the client secret when the provider declares HS256 (LINE-style)", async () => {
    const provider = oidc({ client: { id_token_signed_response_alg: "HS256" } }, () => hmacServer.issuer)
    const { result } = await signIn(provider, "test-oidc")
    expect(result.user.id).toBe(DEFAULT_ACCOUNT.sub)
    // A token MACed with HS256 is refused when the record declares another algorithm.
    const { callback } = await reachCallback(provider, "test-oidc")
    const declaresHs384 = oidc({ client: { id_token_signed_response_alg: "HS384" } }, () => hmacServer.issuer)
    expect(await rejection(finishSignIn(declaresHs384, callback, { redirectUri: callbackFor("test-oidc"), secret: SECRET }))).toMatchObject({ code: "ERR_OAUTH_PROTOCOL" })
  })

  it("accepts an instance issuer typed with a trailing slash", async () => {
    const { result } = await signIn(oidc({ quirks: { instanceIssuer: true } }, () => `${server.issuer}/`), "test-oidc")
    expect(result.user.id).toBe(DEFAULT_ACCOUNT.sub)
  })

  it("Apple-style form_post: POST callback with a first-sign-in user field, check cookies SameSite=None", async () => {
    // Apple's own scope is "name email"; oidc-provider insists on openid, so the test asks for it.
    const apple = Apple({ issuer: server.issuer, clientId: "post-client", clientSecret: "post-secret", authorization: { params: { scope: "openid email" } } })
    const run = await reachCallback(apple, "apple")
    expect(run.authorizationUrl.searchParams.get("response_mode")).toBe("form_post")
    expect(run.checkCookies.length).toBeGreaterThan(0)
    for (const line of run.checkCookies) expect(line).toMatch(/; Secure; SameSite=None$/)
    expect(run.callback.method).toBe("POST")
    const form = new URLSearchParams(await run.callback.clone().text())
    form.set("user", JSON.stringify({ name: { firstName: "Ada", lastName: "Lovelace" }, email: DEFAULT_ACCOUNT.email }))
    const callback = new Request(run.callback.url, { method: "POST", headers: run.callback.headers, body: form })
    const { user, profile } = await finishSignIn(apple, callback, { redirectUri: callbackFor("apple"), secret: SECRET })
    expect(user).toEqual({ id: DEFAULT_ACCOUNT.sub, name: "Ada Lovelace", email: DEFAULT_ACCOUNT.email, image: null })
    expect(profile.user).toEqual({ name: { firstName: "Ada", lastName: "Lovelace" }, email: DEFAULT_ACCOUNT.email })
  })

  describe("refuses", () => {
    const finish = (provider: OIDCConfig, request: Request, fetchImplementation?: typeof fetch) =>
      finishSignIn(provider, request, { redirectUri: callbackFor(provider.id), secret: SECRET, fetch: fetchImplementation })

    it("a missing check cookie", async () => {
      const provider = oidc({ checks: ["pkce", "state"] })
      const { callback } = await reachCallback(provider, "test-oidc")
      const headers = new Headers(callback.headers)
      headers.set("cookie", headers.get("cookie")!.split("; ").filter((pair) => !pair.startsWith("__Host-authjs.state=")).join("; "))
      expect(await rejection(finish(provider, new Request(callback.url, { headers })))).toMatchObject({ code: "ERR_INVALID_CHECK", check: "state", reason: "missing" })
    })

    it("a tampered check cookie", async () => {
      const provider = oidc({ checks: ["pkce"] })
      const { callback } = await reachCallback(provider, "test-oidc")
      const original = callback.headers.get("cookie")!
      const cookie = original.replace(/(__Host-authjs\.pkce\.code_verifier=[^;]{40})(.)/, (_, head, char) => head + (char === "A" ? "B" : "A"))
      expect(cookie).not.toBe(original)
      const error = await rejection(finish(provider, new Request(callback.url, { headers: { cookie } })))
      expect(error).toMatchObject({ code: "ERR_INVALID_CHECK", check: "pkce", reason: "invalid" })
    })

    it("a check cookie minted for another provider", async () => {
      const other = oidc({ id: "other-oidc", checks: ["pkce", "state"] })
      const target = oidc({ checks: ["pkce", "state"] })
      const foreign = await reachCallback(other, "other-oidc")
      const own = await reachCallback(target, "test-oidc")
      const request = new Request(own.callback.url, { headers: { cookie: foreign.callback.headers.get("cookie")! } })
      expect(await rejection(finish(target, request))).toMatchObject({ code: "ERR_INVALID_CHECK", reason: "invalid" })
    })

    it("a state that does not match its cookie", async () => {
      const provider = oidc({ checks: ["state"] })
      const { callback } = await reachCallback(provider, "test-oidc")
      const url = new URL(callback.url)
      url.searchParams.set("state", "forged")
      expect(await rejection(finish(provider, new Request(url, { headers: callback.headers })))).toMatchObject({ check: "state", reason: "mismatch" })
    })

    it("a replayed authorization code", async () => {
      const provider = oidc()
      const { callback } = await reachCallback(provider, "test-oidc")
      await finish(provider, callback.clone())
      expect(await rejection(finish(provider, callback))).toMatchObject({ code: "ERR_OAUTH_TOKEN", error: "invalid_grant", status: 400 })
    })

    it("a wrong client secret", async () => {
      const provider = oidc({ clientSecret: "wrong" })
      const { callback } = await reachCallback(provider, "test-oidc")
      expect(await rejection(finish(provider, callback))).toMatchObject({ code: "ERR_OAUTH_TOKEN", error: "invalid_client", status: 401 })
    })

    it("an id_token signed by a key that is not in the JWKS", async () => {
      const provider = oidc()
      const { privateKey } = await generateKeyPair("RS256")
      const resign: typeof fetch = async (input, init) => {
        const response = await fetch(input, init)
        if (!String(input).endsWith("/token")) return response
        const body = (await response.json()) as { id_token: string }
        const claims = decodeJwt(body.id_token)
        const forged = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "test-signing-key" }).sign(privateKey)
        return Response.json({ ...body, id_token: forged })
      }
      const { callback } = await reachCallback(provider, "test-oidc", { fetch: resign })
      const error = await rejection(finish(provider, callback, resign))
      expect(error).toMatchObject({ code: "ERR_OAUTH_PROTOCOL" })
      expect(String(error.message)).toMatch(/signature/)
    })

    it("a provider error response, carrying its fields", async () => {
      const provider = oidc()
      const { callback } = await reachCallback(provider, "test-oidc")
      const url = new URL(callback.url)
      url.search = "?error=access_denied&error_description=The+user+said+no&error_uri=https%3A%2F%2Fidp.example%2Fhelp"
      expect(await rejection(finish(provider, new Request(url, { headers: callback.headers })))).toMatchObject({
        code: "ERR_OAUTH_CALLBACK",
        error: "access_denied",
        error_description: "The user said no",
        error_uri: "https://idp.example/help",
      })
    })
  })
})
