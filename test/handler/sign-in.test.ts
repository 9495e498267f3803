// createAuth end to end: OIDC against a real oidc-provider, OAuth 2.0 against the GitHub-like
// server, email with a link captured by a test transport, and credentials.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import GitHub from "../../src/providers/github.js"
import type { EmailConfig, OIDCConfig } from "../../src/providers/types.js"
import { startGitHubLike, type GitHubLike } from "../servers/github-like.js"
import { DEFAULT_ACCOUNT, startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { APP, app, csrf, postForm, session } from "./support.js"

let oidcServer: OidcServer
let githubServer: GitHubLike

beforeAll(async () => {
  oidcServer = await startOidcServer({
    clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${APP}/auth/callback/demo`], grant_types: ["authorization_code"] }],
  })
  githubServer = await startGitHubLike({
    clientId: "gh",
    clientSecret: "gh-secret",
    user: { id: 7, login: "octo", name: "Octo Cat", email: "octo@example.com", avatar_url: "https://example.com/o.png", emails: [] },
  })
})
afterAll(async () => {
  await Promise.all([oidcServer.close(), githubServer.close()])
})

const demo = (): OIDCConfig => ({
  id: "demo",
  name: "Demo",
  type: "oidc",
  issuer: oidcServer.issuer,
  clientId: "app",
  clientSecret: "app-secret",
  authorization: { params: { scope: "openid email profile" } },
})

function testEmail(outbox: string[]): EmailConfig {
  return { id: "email", name: "Email", type: "email", from: "auth@example.com", sendVerificationRequest: ({ url }) => void outbox.push(url) }
}

describe("createAuth sign-in", () => {
  it("OIDC: the sign-in page button leads through the provider and back to a session", async () => {
    const { browser } = app({ providers: [demo()] })
    const page = await (await browser.open(`${APP}/auth/signin`)).response.text()
    expect(page).toContain("Sign in with Demo")
    const token = page.match(/name="csrfToken" value="([^"]+)"/)![1]!
    const { url } = await postForm(browser, "/auth/signin/demo", { csrfToken: token, callbackUrl: "/dashboard" })
    expect(url.href).toBe(`${APP}/dashboard`)
    expect(await session(browser)).toMatchObject({ user: { name: DEFAULT_ACCOUNT.name, email: DEFAULT_ACCOUNT.email, image: DEFAULT_ACCOUNT.picture } })
    expect([...browser.cookies(APP).keys()]).toContain("authjs.session-token")
  })

  it("OAuth 2.0: the real GitHub provider against the GitHub-like server", async () => {
    const github = GitHub({ clientId: "gh", clientSecret: "gh-secret", enterprise: { baseUrl: githubServer.baseUrl } })
    const { browser } = app({ providers: [github] })
    const { url } = await postForm(browser, "/auth/signin/github", { csrfToken: await csrf(browser) })
    expect(url.href).toBe(`${APP}/`)
    expect(await session(browser)).toMatchObject({ user: { name: "Octo Cat", email: "octo@example.com" } })
  })

  it("links accounts and creates users through the adapter", async () => {
    const adapter = memoryAdapter()
    const { browser } = app({ providers: [demo()], adapter })
    await postForm(browser, "/auth/signin/demo", { csrfToken: await csrf(browser) })
    expect(adapter.users.size).toBe(1)
    expect([...adapter.accounts.values()][0]).toMatchObject({ provider: "demo", providerAccountId: DEFAULT_ACCOUNT.sub })
    const user = [...adapter.users.values()][0]!
    const claims = await session(browser)
    expect(claims!.user.email).toBe(user.email)
  })

  it("email: sends a link, and the link signs in once", async () => {
    const outbox: string[] = []
    const adapter = memoryAdapter()
    const { browser } = app({ providers: [testEmail(outbox)], adapter })
    const { url } = await postForm(browser, "/auth/signin/email", { csrfToken: await csrf(browser), email: "  Ada@Example.com " })
    expect(url.pathname).toBe("/auth/verify-request")
    expect(outbox).toHaveLength(1)
    const link = new URL(outbox[0]!)
    expect(link.searchParams.get("email")).toBe("ada@example.com")
    const stored = [...adapter.users.values()]
    expect(stored).toHaveLength(0)
    const signedIn = await browser.open(link)
    expect(signedIn.url.href).toBe(`${APP}/`)
    expect(await session(browser)).toMatchObject({ user: { email: "ada@example.com" } })
    const reused = await app({ providers: [testEmail(outbox)], adapter }).browser.open(link)
    expect(reused.url.searchParams.get("error")).toBe("Verification")
  })

  it("credentials: authorize decides, and a refusal is CredentialsSignin", async () => {
    const provider = Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: ({ username, password }) => (username === "ada" && password === "correct horse" ? { id: "u-ada", name: "Ada", email: "ada@example.com" } : null),
    })
    const { browser } = app({ providers: [provider] })
    const page = await (await browser.open(`${APP}/auth/signin`)).response.text()
    expect(page).toMatch(/<label for="credentials-password">Password<\/label><input id="credentials-password" name="password" type="password">/)
    const refused = await postForm(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username: "ada", password: "wrong" })
    expect(refused.url.searchParams.get("error")).toBe("CredentialsSignin")
    expect(await refused.response.text()).toContain("Sign-in failed. Check the details you entered")
    expect(await session(browser)).toBeNull()
    await postForm(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username: "ada", password: "correct horse" })
    expect(await session(browser)).toMatchObject({ user: { name: "Ada", email: "ada@example.com" } })
  })
})
