// docs/custom-providers.md's code, as an app copies it: every ts block is typechecked as the files
// the page names (providers/corp.ts, providers/acme.ts, auth.ts), and each provider is then run
// through createAuth's handler to a session: the OpenID one against a real oidc-provider, the
// OAuth 2.0 ones against the GitHub-like server. The only change made to the page's text before it
// runs is its example host, replaced by the local server's URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGitHubLike, type GitHubLike, type GitHubLikeUser } from "../servers/github-like.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { APP, app, csrf, postForm, session } from "../handler/support.js"
import { itTypechecks } from "../setup/typechecks.js"
import { runSnippet, snippet, snippetsOf, typecheck } from "./support.js"

const PAGE = "custom-providers.md"
const CORP = snippet(PAGE, "ts", "// providers/corp.ts")
const ACME = snippet(PAGE, "ts", "// providers/acme.ts")
const PRIVATE_EMAIL = snippet(PAGE, "ts", "// providers/acme-private-email.ts")
const AUTH = snippet(PAGE, "ts", "// auth.ts")
const CORP_HOST = "https://login.corp.example"
const ACME_HOST = "https://git.acme.dev"

describe("docs/custom-providers.md", () => {
  it("has no ts block that this file neither runs nor typechecks", () => {
    const claimed = [CORP, ACME, PRIVATE_EMAIL, AUTH].map((block) => block.line)
    const unclaimed = snippetsOf(PAGE).filter((block) => block.lang === "ts" && !claimed.includes(block.line))
    expect(unclaimed.map((block) => `line ${block.line}`)).toEqual([])
  })

  itTypechecks("every ts block compiles as the files it names, with the profile callbacks typed from the profile interfaces", () => {
    // The typed profile is the point of `satisfies`: a misspelt claim must not compile.
    expect(compiled().filter((line) => !line.startsWith("test/docs/bare"))).toEqual([
      expect.stringMatching(/misspelt\.ts.*Property 'pictur' does not exist on type 'CorpProfile'/),
    ])
  }, 120_000)

  // Issue 29, item 3: a provider kept in a plain `const`, with no `satisfies` or annotation, has
  // its `type` widened to string; `providers` accepts it (the run-time checks catch what the type
  // then cannot).
  itTypechecks("a provider in a plain const, without satisfies, fits in providers", () => {
    expect(compiled().filter((line) => line.startsWith("test/docs/bare"))).toEqual([])
  }, 120_000)
})

/** The page's blocks, and two variants of the corp block, compiled once as one program. */
let diagnostics: string[] | undefined
function compiled(): string[] {
  const bare = CORP.code.replace(/\} satisfies OIDCConfig<CorpProfile>/, "}").replace(/profile: \(profile\)/, "profile: (profile: CorpProfile)")
  diagnostics ??= typecheck({
    "providers/corp.ts": CORP.code,
    "providers/acme.ts": ACME.code,
    "providers/acme-private-email.ts": PRIVATE_EMAIL.code,
    "auth.ts": AUTH.code,
    "misspelt.ts": CORP.code.replace("profile.picture ??", "profile.pictur ??"),
    "bare/corp.ts": bare,
    "bare/auth.ts": AUTH.code.replace("./providers/acme", "../providers/acme").replace("./providers/corp", "./corp"),
  })
  return diagnostics
}

describe("docs/custom-providers.md signs in", () => {
  const corpAccount = { sub: "corp-7", email: "grace@corp.example", name: "Grace Hopper", picture: "https://corp.example/grace.png" }
  const acmeUser: GitHubLikeUser = { id: 42, login: "ada", name: null, email: "ada@acme.dev", avatar_url: "https://acme.dev/ada.png", emails: [] }
  const privateUser: GitHubLikeUser = {
    ...acmeUser,
    email: null,
    emails: [
      { email: "old@acme.dev", primary: false, verified: true, visibility: null },
      { email: "ada.private@acme.dev", primary: true, verified: true, visibility: "private" },
    ],
  }
  let corpServer: OidcServer
  let acmeServer: GitHubLike
  let privateServer: GitHubLike

  beforeAll(async () => {
    corpServer = await startOidcServer({
      accounts: [corpAccount],
      clients: [{ client_id: "corp-app", client_secret: "corp-secret", redirect_uris: [`${APP}/auth/callback/corp`], grant_types: ["authorization_code"] }],
    })
    acmeServer = await startGitHubLike({ clientId: "acme-app", clientSecret: "acme-secret", user: acmeUser, omitIss: true })
    privateServer = await startGitHubLike({ clientId: "acme-app", clientSecret: "acme-secret", user: privateUser, omitIss: true })
  })
  afterAll(() => Promise.all([corpServer?.close(), acmeServer?.close(), privateServer?.close()]))

  /** The exported provider of a block, with its example host pointed at a local server. */
  async function providerOf(code: string, host: string, local: string) {
    const exports = await runSnippet(code.replaceAll(host, local), {})
    return Object.values(exports)[0]
  }

  const env = { AUTH_CORP_ID: "corp-app", AUTH_CORP_SECRET: "corp-secret", AUTH_ACME_ID: "acme-app", AUTH_ACME_SECRET: "acme-secret" }

  it("the OpenID Connect provider: client id and secret from AUTH_CORP_*, the profile mapped as printed", async () => {
    const corp = await providerOf(CORP.code, CORP_HOST, corpServer.issuer)
    const { browser } = app({ providers: [corp], env })
    const { url } = await postForm(browser, "/auth/signin/corp", { csrfToken: await csrf(browser), callbackUrl: "/dashboard" })
    expect(url.href).toBe(`${APP}/dashboard`)
    expect(await session(browser)).toMatchObject({ user: { name: "Grace Hopper", email: "grace@corp.example", image: corpAccount.picture } })
  })

  it("the OAuth 2.0 provider: the endpoints, the numeric id and the name fallback as printed", async () => {
    const acme = await providerOf(ACME.code, ACME_HOST, acmeServer.baseUrl)
    const { browser } = app({ providers: [acme], env })
    await postForm(browser, "/auth/signin/acme", { csrfToken: await csrf(browser) })
    expect(await session(browser)).toMatchObject({ user: { name: "ada", email: "ada@acme.dev", image: acmeUser.avatar_url } })
    expect(acmeServer.log).toContain("/api/v3/user")
  })

  it("the private-email variant: a user without a public email gets the primary verified one", async () => {
    const acme = await providerOf(PRIVATE_EMAIL.code, ACME_HOST, privateServer.baseUrl)
    const { browser } = app({ providers: [acme], env })
    await postForm(browser, "/auth/signin/acme", { csrfToken: await csrf(browser) })
    expect(await session(browser)).toMatchObject({ user: { name: "ada", email: "ada.private@acme.dev" } })
    expect(privateServer.log).toContain("/api/v3/user/emails")
  })

  it("the auth.ts block: both providers in one createAuth, each with its button", async () => {
    const corp = await providerOf(CORP.code, CORP_HOST, corpServer.issuer)
    const acme = await providerOf(ACME.code, ACME_HOST, acmeServer.baseUrl)
    const { createAuth } = await import("../../src/index.js")
    const modules = { latchkey: { createAuth: (config: Parameters<typeof createAuth>[0]) => createAuth({ ...config, secret: "docs-secret-0123456789abcdef0123", trustHost: true, env }) }, "./providers/acme": { acme }, "./providers/corp": { corp } }
    const { handler } = await runSnippet(AUTH.code, modules)
    const page = await (await handler(new Request(`${APP}/auth/signin`))).text()
    expect(page).toContain("Sign in with Corp SSO")
    expect(page).toContain("Sign in with Acme Git")
  })
})
