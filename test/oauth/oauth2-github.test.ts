// The OAuth 2.0 flow with the real GitHub provider, against a local server that behaves like
// GitHub's endpoints: reached through GitHub Enterprise's baseUrl, and through the fetch option
// with github.com's own URLs.
import { afterEach, describe, expect, it } from "vitest"
import { finishSignIn } from "../../src/oauth/finish.js"
import { refreshTokens, revokeToken } from "../../src/oauth/tokens.js"
import GitHub from "../../src/providers/github.js"
import type { OAuthConfig } from "../../src/providers/types.js"
import { TestBrowser } from "../servers/browser.js"
import { startGitHubLike, type GitHubLike, type GitHubLikeOptions, type GitHubLikeUser } from "../servers/github-like.js"
import { callbackFor, reachCallback, rejection, SECRET, signIn } from "./support.js"

const PUBLIC_USER: GitHubLikeUser = {
  id: 1,
  login: "octocat",
  name: "The Octocat",
  email: "octocat@github.com",
  avatar_url: "https://avatars.githubusercontent.com/u/1",
  emails: [{ email: "octocat@github.com", primary: true, verified: true, visibility: "public" }],
}
const PRIVATE_USER: GitHubLikeUser = {
  ...PUBLIC_USER,
  id: 2,
  login: "hidden",
  name: null,
  email: null,
  emails: [
    { email: "old@example.com", primary: false, verified: true, visibility: "private" },
    { email: "unverified@example.com", primary: true, verified: false, visibility: "private" },
    { email: "hidden@example.com", primary: true, verified: true, visibility: "private" },
  ],
}

const servers: GitHubLike[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function github(options: Partial<GitHubLikeOptions> = {}) {
  const server = await startGitHubLike({ clientId: "gh-client", clientSecret: "gh-secret", user: PUBLIC_USER, ...options })
  servers.push(server)
  const provider = GitHub({ clientId: "gh-client", clientSecret: "gh-secret", enterprise: { baseUrl: server.baseUrl } })
  return { server, provider }
}

describe("GitHub sign-in against a GitHub-like server", () => {
  it("signs in, validating the RFC 9207 iss on the callback", async () => {
    const { provider } = await github()
    const { authorizationUrl, callback, result } = await signIn(provider, "github")
    expect(new URL(callback.url).searchParams.get("iss")).toMatch(/\/login\/oauth$/)
    expect(authorizationUrl.searchParams.get("scope")).toBe("read:user user:email")
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256")
    expect(result.user).toEqual({ id: "1", name: "The Octocat", email: "octocat@github.com", image: "https://avatars.githubusercontent.com/u/1" })
    expect(result.account).toMatchObject({ provider: "github", type: "oauth", providerAccountId: "1", token_type: "bearer" })
    expect(result.tokens.access_token).toMatch(/^gho_/)
  })

  it("asks /user/emails for the primary verified address when the email is private", async () => {
    const { server, provider } = await github({ user: PRIVATE_USER })
    const { result } = await signIn(provider, "github")
    expect(result.user).toEqual({ id: "2", name: "hidden", email: "hidden@example.com", image: PUBLIC_USER.avatar_url })
    expect(server.apiRequests.map((request) => request.path)).toEqual(["/api/v3/user", "/api/v3/user/emails"])
  })

  it("sends a User-Agent and GitHub's API headers on every API call", async () => {
    const { server, provider } = await github({ user: PRIVATE_USER })
    await signIn(provider, "github")
    expect(server.apiRequests.map((request) => request.path)).toEqual(["/api/v3/user", "/api/v3/user/emails"])
    for (const { headers } of server.apiRequests) {
      expect(headers["user-agent"]).toBe("latchkey")
      expect(headers.accept).toBe("application/vnd.github+json")
      expect(headers["x-github-api-version"]).toBe("2022-11-28")
    }
  })

  it("accepts a form-encoded token response", async () => {
    const { provider } = await github({ formTokenResponse: true })
    expect((await signIn(provider, "github")).result.user.id).toBe("1")
  })

  it("works with github.com's own URLs through the fetch option", async () => {
    const { server } = await github({ iss: "https://github.com/login/oauth" })
    const local = new URL(server.baseUrl)
    const route = (url: URL) => {
      if (url.host !== "github.com" && url.host !== "api.github.com") return url
      const target = new URL(url.pathname.replace(/^\/user/, "/api/v3/user") + url.search, local)
      return target
    }
    const routed: typeof fetch = (input, init) => fetch(route(new URL(String(input))).href, init)
    const provider = GitHub({ clientId: "gh-client", clientSecret: "gh-secret" })
    const { authorizationUrl, result } = await signIn(provider, "github", { fetch: routed, browser: new TestBrowser(route) })
    expect(authorizationUrl.origin).toBe("https://github.com")
    expect(result.user.email).toBe("octocat@github.com")
  })

  describe("refuses", () => {
    const finish = (provider: OAuthConfig<any>, request: Request) => finishSignIn(provider, request, { redirectUri: callbackFor(provider.id), secret: SECRET })

    // A callback without iss is accepted for GitHub, which rolled iss back before: see
    // test/oauth/github-iss-rollback.test.ts. A wrong iss is still refused:

    it("a callback whose iss names another authorization server", async () => {
      const { provider } = await github()
      const { callback } = await reachCallback(provider, "github")
      const url = new URL(callback.url)
      url.searchParams.set("iss", "https://evil.example/login/oauth")
      expect(await rejection(finish(provider, new Request(url, { headers: callback.headers })))).toMatchObject({ code: "ERR_OAUTH_PROTOCOL" })
    })

    it("a wrong client secret, reported by GitHub with HTTP 200", async () => {
      const { server } = await github()
      const provider = GitHub({ clientId: "gh-client", clientSecret: "wrong", enterprise: { baseUrl: server.baseUrl } })
      const { callback } = await reachCallback(provider, "github")
      expect(await rejection(finish(provider, callback))).toMatchObject({ code: "ERR_OAUTH_TOKEN", error: "incorrect_client_credentials", status: 400 })
    })

    it("a replayed code", async () => {
      const { provider } = await github()
      const { callback } = await reachCallback(provider, "github")
      await finish(provider, callback.clone())
      expect(await rejection(finish(provider, callback))).toMatchObject({ code: "ERR_OAUTH_TOKEN", error: "bad_verification_code" })
    })

    it("a userinfo endpoint that fails, with its status", async () => {
      const { server } = await github()
      const provider = GitHub({ clientId: "gh-client", clientSecret: "gh-secret", enterprise: { baseUrl: server.baseUrl }, userinfo: `${server.baseUrl}/api/v3/missing` })
      const { callback } = await reachCallback(provider, "github")
      expect(await rejection(finish(provider, callback))).toMatchObject({ code: "ERR_OAUTH_PROFILE", status: 404 })
    })

    it("a profile callback that throws, keeping a summary of the cause (never the foreign error itself)", async () => {
      const { server } = await github()
      const failure = new Error("mapping failed")
      const provider = GitHub({ clientId: "gh-client", clientSecret: "gh-secret", enterprise: { baseUrl: server.baseUrl }, profile: () => { throw failure } })
      const { callback } = await reachCallback(provider, "github")
      const error = await rejection(finish(provider, callback))
      expect(error).toMatchObject({ code: "ERR_OAUTH_PROFILE" })
      expect(error.cause).toStrictEqual({ name: "Error", message: "mapping failed" })
    })

    it("refreshing or revoking, which a GitHub OAuth app cannot do", async () => {
      const provider = GitHub({ clientId: "gh-client", clientSecret: "gh-secret" })
      expect(await rejection(refreshTokens(provider, "ghr_x"))).toMatchObject({ code: "ERR_REFRESH_NOT_SUPPORTED", provider: "github" })
      expect(await rejection(revokeToken(provider, "gho_x"))).toMatchObject({ code: "ERR_REVOCATION_NOT_SUPPORTED", provider: "github" })
    })
  })
})
