import { describe, expect, it } from "vitest"
import { InvalidProviderError } from "../../src/errors.js"
import { envName, resolveProvider, resolveProviders } from "../../src/providers/core/resolve.js"
import Resend from "../../src/providers/email/resend.js"
import GitHub from "../../src/providers/github.js"
import Google from "../../src/providers/google.js"
import Frontegg from "../../src/providers/frontegg.js"
import Keycloak from "../../src/providers/keycloak.js"
import Mattermost from "../../src/providers/mattermost.js"
import Shikimori from "../../src/providers/shikimori.js"
import type { OAuthConfig, ResolvedOAuthProvider } from "../../src/providers/types.js"

const app = { baseUrl: "https://app.example.com", env: {} }
const creds = { clientId: "id", clientSecret: "secret" }

function oauth(provider: Parameters<typeof resolveProvider>[0], options: Partial<Parameters<typeof resolveProvider>[1]> = {}) {
  return resolveProvider(provider, { ...app, ...options }) as ResolvedOAuthProvider
}

function invalid(run: () => unknown): InvalidProviderError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidProviderError)
    return error as InvalidProviderError
  }
  throw new Error("expected InvalidProviderError")
}

/** A minimal custom OAuth 2.0 provider, as a user would write one. */
function custom(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return {
    id: "acme",
    name: "Acme",
    type: "oauth",
    authorization: "https://auth.acme.dev/authorize?scope=read",
    token: "https://auth.acme.dev/token",
    userinfo: "https://api.acme.dev/me",
    clientId: "id",
    ...overrides,
  } as OAuthConfig
}

describe("resolveProviders", () => {
  describe("merge", () => {
    it("replaces arrays instead of merging them index by index", () => {
      expect(oauth(Google({ ...creds, checks: ["state"] })).checks).toEqual(["state"])
      expect(oauth(Google({ ...creds, checks: ["pkce", "nonce", "state"] })).checks).toEqual(["pkce", "nonce", "state"])
    })

    it("never lets undefined override, or reach a URL as the string 'undefined'", () => {
      const github = oauth(GitHub({ ...creds, name: undefined, authorization: { params: { scope: undefined, prompt: "consent" } } }))
      expect(github.name).toBe("GitHub")
      expect(github.authorization.params).toEqual({ scope: "read:user user:email", prompt: "consent" })
      expect(JSON.stringify(github)).not.toContain("undefined")
    })

    it("lets functions override", () => {
      const profile = () => ({ id: "mine" })
      expect(oauth(GitHub({ ...creds, profile })).profile).toBe(profile)
    })

    it("a string endpoint replaces the URL and keeps the default parameters", () => {
      const github = oauth(GitHub({ ...creds, authorization: "https://proxy.example.com/authorize" }))
      expect(github.authorization).toEqual({ url: "https://proxy.example.com/authorize", params: { scope: "read:user user:email" } })
    })

    it("query parameters in an endpoint URL become parameters, and the user's win", () => {
      const github = oauth(GitHub({ ...creds, authorization: "https://github.com/login/oauth/authorize?scope=repo&allow_signup=false" }))
      expect(github.authorization).toEqual({ url: "https://github.com/login/oauth/authorize", params: { scope: "repo", allow_signup: "false" } })
      expect(oauth(custom()).authorization).toEqual({ url: "https://auth.acme.dev/authorize", params: { scope: "read" } })
    })

    it("an endpoint object merges parameters and replaces request functions", () => {
      const request = async () => ({ id: "1" })
      const github = oauth(GitHub({ ...creds, userinfo: { request } }))
      expect(github.userinfo.url).toBe("https://api.github.com/user")
      expect(github.userinfo.request).toBe(request)
    })

    it("merges nested objects key by key", () => {
      const github = oauth(GitHub({ ...creds, style: { logo: "/github.svg" }, client: { token_endpoint_auth_method: "client_secret_post" } }))
      expect(github.style).toEqual({ brandColor: "#181717", logo: "/github.svg", mark: expect.any(Function) })
      expect(github.client).toEqual({ token_endpoint_auth_method: "client_secret_post" })
    })

    it("user id and name overrides allow two instances of one provider", () => {
      const [first, second] = resolveProviders(
        [GitHub(creds), GitHub({ ...creds, id: "github-enterprise", name: "GitHub Enterprise", enterprise: { baseUrl: "https://github.acme.dev/" } })],
        app
      ) as ResolvedOAuthProvider[]
      expect(first!.callbackUrl).toBe("https://app.example.com/auth/callback/github")
      expect(second!.callbackUrl).toBe("https://app.example.com/auth/callback/github-enterprise")
      expect(second!.authorization.url).toBe("https://github.acme.dev/login/oauth/authorize")
      expect(second!.userinfo.url).toBe("https://github.acme.dev/api/v3/user")
      expect(second!.quirks.issParameter).toBe("https://github.acme.dev/login/oauth")
    })
  })

  describe("environment", () => {
    it("fills client id, secret and issuer from AUTH_<ID>_*", () => {
      const env = { AUTH_KEYCLOAK_ID: "kc-id", AUTH_KEYCLOAK_SECRET: "kc-secret", AUTH_KEYCLOAK_ISSUER: "https://sso.acme.dev/realms/staff/" }
      const keycloak = oauth(Keycloak(), { env })
      expect([keycloak.clientId, keycloak.clientSecret, keycloak.issuer]).toEqual(["kc-id", "kc-secret", "https://sso.acme.dev/realms/staff"])
    })

    it("works from the environment alone when the factory is passed uncalled", () => {
      const [github] = resolveProviders([GitHub], { ...app, env: { AUTH_GITHUB_ID: "gh-id", AUTH_GITHUB_SECRET: "gh-secret" } }) as ResolvedOAuthProvider[]
      expect([github!.clientId, github!.clientSecret]).toEqual(["gh-id", "gh-secret"])
    })

    it("upper-cases the id and turns - into _", () => {
      expect(envName("microsoft-entra-id", "ID")).toBe("AUTH_MICROSOFT_ENTRA_ID_ID")
      const entra = oauth(custom({ id: "my-idp" }), { env: { AUTH_MY_IDP_SECRET: "s" } })
      expect(entra.clientSecret).toBe("s")
    })

    it("explicit options win over the environment", () => {
      expect(oauth(GitHub({ clientId: "explicit" }), { env: { AUTH_GITHUB_ID: "env" } }).clientId).toBe("explicit")
    })

    it("fills an email provider's API key from AUTH_<ID>_KEY", () => {
      const resend = resolveProvider(Resend({ from: "a@b.c" }), { ...app, env: { AUTH_RESEND_KEY: "re_123" } })
      expect(resend).toMatchObject({ apiKey: "re_123", callbackUrl: "https://app.example.com/auth/callback/resend" })
    })
  })

  describe("checks", () => {
    it("defaults to pkce", () => {
      expect(oauth(custom()).checks).toEqual(["pkce"])
    })

    it("adds state when a redirect proxy is configured on the provider or the app", () => {
      expect(oauth(custom({ redirectProxyUrl: "https://proxy.example.com/auth" })).checks).toEqual(["pkce", "state"])
      expect(oauth(custom(), { redirectProxyUrl: "https://proxy.example.com/auth" }).checks).toEqual(["pkce", "state"])
      expect(oauth(custom({ checks: ["state"] }), { redirectProxyUrl: "https://proxy.example.com/auth" }).checks).toEqual(["state"])
    })

    it.each([
      [{ type: "oauth", checks: ["nonce"] }, 'Provider "acme": the "nonce" check needs an id_token, so it applies only to "oidc" providers.'],
      [{ checks: ["pkce", "magic"] }, 'Provider "acme": unknown check "magic".'],
      [{ checks: ["none", "pkce"] }, 'Provider "acme": "none" cannot be combined with other checks.'],
    ])("rejects %j", (overrides, message) => {
      const error = invalid(() => oauth(custom(overrides as Partial<OAuthConfig>)))
      expect(error.message).toBe(message)
      expect(error).toMatchObject({ code: "ERR_INVALID_PROVIDER", provider: "acme", field: "checks" })
    })
  })

  describe("validation", () => {
    it.each([
      ["a duplicate id", () => resolveProviders([custom(), custom()], app), "id", 'Provider "acme": the id is used twice; give one instance another id, such as "acme-2".'],
      ["a missing clientId", () => oauth(custom({ clientId: undefined })), "clientId", 'Provider "acme": no client id: pass clientId, or set AUTH_ACME_ID.'],
      [
        "an OIDC provider without an issuer",
        () => oauth(Keycloak({ clientId: "id" })),
        "issuer",
        'Provider "keycloak": an OpenID Connect provider needs an issuer (set it, or AUTH_KEYCLOAK_ISSUER).',
      ],
      [
        "an OAuth provider with neither issuer nor authorization endpoint",
        () => oauth(custom({ authorization: undefined })),
        "authorization",
        'Provider "acme": neither an issuer nor an authorization endpoint is configured.',
      ],
      ["no token endpoint", () => oauth(custom({ token: undefined })), "token", 'Provider "acme": neither an issuer nor a token endpoint is configured.'],
      ["no userinfo endpoint", () => oauth(custom({ userinfo: undefined })), "userinfo", 'Provider "acme": neither an issuer nor a userinfo endpoint is configured.'],
      [
        "a plain-http endpoint",
        () => oauth(custom({ token: "http://auth.acme.dev/token" })),
        "token",
        'Provider "acme": token must use https (plain http is allowed only on loopback hosts).',
      ],
      ["a relative endpoint", () => oauth(custom({ userinfo: "/me" })), "userinfo", 'Provider "acme": userinfo is not an absolute URL.'],
      ["a provider without an id", () => resolveProviders([{ name: "x" } as never], app), "id", 'Provider "#0": every provider needs a non-empty string id.'],
      [
        "credentials without authorize",
        () => resolveProvider({ id: "credentials", name: "Credentials", type: "credentials", credentials: {} } as never, app),
        "authorize",
        'Provider "credentials": a credentials provider needs an authorize function.',
      ],
    ])("rejects %s, naming the provider and field", (_, run, field, message) => {
      const error = invalid(run)
      expect(error.field).toBe(field)
      expect(error.message).toBe(message)
    })

    it("allows plain http on loopback hosts only", () => {
      for (const host of ["localhost:3000", "127.0.0.1:9000", "[::1]:8080"]) {
        expect(oauth(custom({ token: `http://${host}/token` })).token.url).toBe(`http://${host}/token`)
      }
      expect(() => oauth(custom({ token: "http://127.0.0.1.nip.io/token" }))).toThrow(InvalidProviderError)
    })

    it("sends no placeholder issuer for OAuth 2.0 providers", () => {
      expect("issuer" in oauth(custom())).toBe(false)
      expect("issuer" in oauth(GitHub(creds))).toBe(false)
    })
  })

  describe("self-hosted OAuth 2.0 providers", () => {
    const mastodonLike = (overrides: Partial<OAuthConfig> = {}) =>
      custom({ authorization: "{baseUrl}/oauth/authorize", token: "{baseUrl}/oauth/token", userinfo: "{baseUrl}/api/v1/accounts/verify_credentials", ...overrides })

    it("fills {baseUrl} from the option, trimming trailing slashes", () => {
      const resolved = oauth(mastodonLike({ baseUrl: "https://mastodon.social//" }))
      expect([resolved.authorization.url, resolved.token.url, resolved.userinfo.url]).toEqual([
        "https://mastodon.social/oauth/authorize",
        "https://mastodon.social/oauth/token",
        "https://mastodon.social/api/v1/accounts/verify_credentials",
      ])
      expect(resolved.baseUrl).toBe("https://mastodon.social")
      expect("issuer" in resolved).toBe(false)
    })

    it("fills {baseUrl} from AUTH_<ID>_ISSUER, which then is no issuer", () => {
      const resolved = oauth(mastodonLike(), { env: { AUTH_ACME_ISSUER: "https://social.acme.dev/" } })
      expect(resolved.token.url).toBe("https://social.acme.dev/oauth/token")
      expect("issuer" in resolved).toBe(false)
    })

    it("names the missing instance URL", () => {
      const error = invalid(() => oauth(mastodonLike()))
      expect(error.field).toBe("baseUrl")
      expect(error.message).toBe('Provider "acme": no instance URL: pass baseUrl, or set AUTH_ACME_ISSUER.')
    })
  })

  describe("URLs", () => {
    it("builds signinUrl and callbackUrl from the id, with /auth as the default base path", () => {
      const github = oauth(GitHub(creds))
      expect([github.signinUrl, github.callbackUrl]).toEqual(["https://app.example.com/auth/signin/github", "https://app.example.com/auth/callback/github"])
    })

    it("honours a custom base path and trims trailing slashes", () => {
      const github = oauth(GitHub(creds), { baseUrl: "https://app.example.com/", basePath: "/api/auth/" })
      expect(github.callbackUrl).toBe("https://app.example.com/api/auth/callback/github")
    })
  })

  describe("defaults", () => {
    it("maps the standard claims with the default profile callback", async () => {
      const resolved = oauth(custom())
      expect(await resolved.profile({ sub: "s1", name: "N", email: "e@x", picture: "https://p" }, {})).toEqual({ id: "s1", name: "N", email: "e@x", image: "https://p" })
      expect(await resolved.profile({ id: 42, name: null }, {})).toEqual({ id: "42", name: null, email: null, image: null })
    })

    it("keeps only the account fields it should from the token response", async () => {
      const tokens = { access_token: "a", refresh_token: "r", id_token: "i", expires_at: 1, scope: "s", token_type: "bearer", session_state: "x", extra: "drop me" }
      expect(await oauth(custom()).account(tokens)).toEqual({ access_token: "a", refresh_token: "r", id_token: "i", expires_at: 1, scope: "s", token_type: "bearer", session_state: "x" })
    })

    it("applies named quirks: form_post and instance issuer trimming", () => {
      const formPost = oauth(custom({ quirks: { formPost: true } }))
      expect(formPost.authorization.params.response_mode).toBe("form_post")
      expect(oauth(Keycloak({ clientId: "id", issuer: "https://sso.acme.dev/realms/x//" })).issuer).toBe("https://sso.acme.dev/realms/x")
    })

    it("names the user by nickname, then preferred_username, when there is no name (as Auth.js does)", async () => {
      const { profile } = oauth(custom())
      expect(await profile({ sub: "s1", nickname: "ada", preferred_username: "ada.l" }, {})).toMatchObject({ name: "ada" })
      expect(await profile({ sub: "s1", preferred_username: "ada.l" }, {})).toMatchObject({ name: "ada.l" })
    })
  })

  describe("hand-written configurations (issue 13)", () => {
    const corp = (overrides: Record<string, unknown> = {}) =>
      ({ id: "corp", name: "Corp", type: "oidc", issuer: "https://login.corp.dev", ...creds, ...overrides }) as unknown as OAuthConfig

    it("asks an OpenID Connect provider that names no scope for openid profile email", () => {
      expect(oauth(corp()).authorization.params.scope).toBe("openid profile email")
      expect(oauth(corp({ authorization: { params: { scope: "openid email" } } })).authorization.params.scope).toBe("openid email")
    })

    it("asks a hand-written OAuth 2.0 provider with its own authorization endpoint for openid profile email, as Auth.js does", () => {
      expect(oauth(custom({ authorization: "https://auth.acme.dev/authorize" })).authorization.params.scope).toBe("openid profile email")
      expect(oauth(custom()).authorization.params.scope).toBe("read")
    })

    it("sends no scope for a bare OAuth 2.0 issuer, nor for a built-in that deliberately names none", () => {
      const bare = { id: "acme", name: "Acme", type: "oauth", issuer: "https://auth.acme.dev", clientId: "id" } as OAuthConfig
      expect(oauth(bare).authorization.params.scope).toBeUndefined()
      expect(oauth(Shikimori(creds)).authorization.params.scope).toBeUndefined()
    })

    it("names a provider by its id when the configuration gives no name", () => {
      expect(oauth(corp({ name: undefined })).name).toBe("corp")
    })

    it("reads the issuer back from a wellKnown URL given alone (Auth.js v4 style)", () => {
      const resolved = oauth(corp({ issuer: undefined, wellKnown: "https://login.corp.dev/tenant/.well-known/openid-configuration" }))
      expect(resolved.issuer).toBe("https://login.corp.dev/tenant")
      const error = invalid(() => oauth(corp({ issuer: undefined, wellKnown: "https://login.corp.dev/discovery.json" })))
      expect(error).toMatchObject({ code: "ERR_INVALID_PROVIDER", field: "issuer" })
    })

    it("refuses top-level fields from Auth.js v3/v4 and says where they go", () => {
      const scope = invalid(() => oauth(corp({ scope: "openid email" })))
      expect(scope).toMatchObject({ code: "ERR_INVALID_PROVIDER", provider: "corp", field: "scope" })
      expect(scope.message).toContain("authorization.params.scope")
      expect(invalid(() => oauth(custom({ accessTokenUrl: "https://auth.acme.dev/token" } as never))).field).toBe("accessTokenUrl")
      expect(invalid(() => oauth(GitHub({ ...creds, scope: "repo" } as never))).field).toBe("scope")
    })

    it('refuses idToken: true on an OAuth 2.0 provider, pointing at type: "oidc"', () => {
      expect(invalid(() => oauth(custom({ idToken: true } as never)))).toMatchObject({ field: "idToken" })
    })

    it("takes Auth.js's issuer as the instance URL of a self-hosted OAuth 2.0 provider", () => {
      const resolved = oauth(Mattermost({ ...creds, issuer: "https://chat.acme.dev/" }))
      expect(resolved.authorization.url).toBe("https://chat.acme.dev/oauth/authorize")
      expect(resolved.issuer).toBeUndefined()
    })

    it("refuses a baseUrl on a provider that has no instance to point at", () => {
      expect(invalid(() => oauth(Google({ ...creds, baseUrl: "https://accounts.acme.dev" })))).toMatchObject({ field: "baseUrl" })
    })

    it("fills {issuer} in a record's wellKnown (Frontegg's discovery lives under /oauth)", () => {
      const resolved = oauth(Frontegg({ ...creds, issuer: "https://acme.frontegg.com/" }))
      expect(resolved.wellKnown).toBe("https://acme.frontegg.com/oauth/.well-known/openid-configuration")
      expect(invalid(() => oauth(Frontegg(creds)))).toMatchObject({ field: "issuer" })
    })

    it("points Shikimori at shikimori.io, or at the host it is given", () => {
      expect(oauth(Shikimori(creds)).token.url).toBe("https://shikimori.io/oauth/token")
      expect(oauth(Shikimori({ ...creds, baseUrl: "https://shikimori.one/" })).userinfo.url).toBe("https://shikimori.one/api/users/whoami")
    })
  })
})
