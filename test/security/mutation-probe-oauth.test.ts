// Guards of the sign-in flow (src/oauth/, src/providers/core/) that a mutation probe could remove
// without any test failing. Each is attacked here the way an attacker would meet it: through
// createAuth's handler with a browser's cookie jar, against a real oidc-provider or the GitHub-like
// OAuth 2.0 server, or through the module's public function where the guard is a pure function.
import { exportJWK, generateKeyPair, SignJWT } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LatchkeyError, OAuthProtocolError } from "../../src/errors.js"
import { finishSignIn } from "../../src/oauth/finish.js"
import { startSignIn } from "../../src/oauth/start.js"
import GitHub from "../../src/providers/github.js"
import MicrosoftEntraID from "../../src/providers/microsoft-entra-id.js"
import type { OIDCConfig } from "../../src/providers/types.js"
import { TestBrowser } from "../servers/browser.js"
import { startGitHubLike, type GitHubLike } from "../servers/github-like.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { csrfOf, ORIGIN, post, recordingLogger, SECRET, secureApp, sessionOf } from "./support.js"

const ADA = { sub: "ada", email: "ada@example.com", name: "Ada" }
const OCTO = { id: 7, login: "octo", name: "Octo Cat", email: "octo@example.com", avatar_url: "https://example.com/octo.png", emails: [] }

let idp: OidcServer
let github: GitHubLike

beforeAll(async () => {
  idp = await startOidcServer({
    accounts: [ADA],
    clients: [{ client_id: "corp", client_secret: "corp-secret", redirect_uris: [`${ORIGIN}/auth/callback/corp`], grant_types: ["authorization_code"] }],
  })
  github = await startGitHubLike({ clientId: "gh", clientSecret: "gh-secret", user: OCTO })
})

afterAll(async () => {
  await Promise.all([idp.close(), github.close()])
})

const corp = (more: Partial<OIDCConfig> = {}): OIDCConfig => ({
  id: "corp",
  name: "Corp",
  type: "oidc",
  issuer: idp.issuer,
  clientId: "corp",
  clientSecret: "corp-secret",
  ...more,
})

/** A sign-in through the app's own form, followed to where it lands, and the session it left. */
async function signInThrough(site: ReturnType<typeof secureApp>, provider: string) {
  const browser = site.browser()
  const { url } = await post(browser, `/auth/signin/${provider}`, { csrfToken: await csrfOf(browser) })
  return { url, session: await sessionOf(browser) }
}

/** The latchkey errors a recording logger was handed. */
function loggedErrors(logged: unknown[]): LatchkeyError[] {
  return logged.filter((value): value is LatchkeyError => value instanceof LatchkeyError)
}

/**
 * A fetch that holds back every answer from a path ending in `suffix` for `ms`, unless the request
 * is aborted first: an endpoint that stalls. It does answer in the end, so a flow without a bound
 * on its wait completes (and is seen to) instead of hanging the test. `stalled` counts the holds.
 */
function stalling(suffix: string, ms: number) {
  const counter = { stalled: 0 }
  const fetchImplementation: typeof fetch = async (input, init) => {
    if (new URL(String(input instanceof Request ? input.url : input)).pathname.endsWith(suffix)) {
      counter.stalled++
      await new Promise<void>((resolve, reject) => {
        const signal = init?.signal
        const timer = setTimeout(resolve, ms)
        signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true })
      })
    }
    return fetch(input, init)
  }
  return Object.assign(counter, { fetch: fetchImplementation })
}

describe("every provider request is bounded in time, the profile request of a provider's own userinfo code too", () => {
  // Guard: src/oauth/http.ts:providerFetch (a request made without a signal gets AbortSignal.timeout).
  it("a GitHub API that stalls its /user answer past `timeout` ends the sign-in in a timeout error, with no session", async () => {
    const { logger, logged } = recordingLogger()
    const provider = GitHub({ clientId: "gh", clientSecret: "gh-secret", enterprise: { baseUrl: github.baseUrl } })
    // The token exchange (which oauth4webapi bounds itself) gets well under the second; only /user stalls, for 4 s.
    const api = stalling("/api/v3/user", 4_000)
    const site = secureApp({ providers: [provider], logger, fetch: api.fetch, timeout: 1_000 })
    const { url, session } = await signInThrough(site, "github")
    expect(api.stalled).toBe(1)
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/auth/error`)
    expect(session).toBeNull()
    expect(loggedErrors(logged).map((error) => error.message).join("\n")).toContain("the userinfo request timed out")
  }, 20_000)
})

describe("a provider's own userinfo request must describe the id_token's subject", () => {
  // Guard: src/oauth/profile.ts:obtainProfile (custom userinfo `sub` compared with the id_token `sub` when idToken is false).
  it("a custom userinfo request answering another user's profile is refused, and no session is made", async () => {
    const { logger, logged } = recordingLogger()
    const provider = corp({
      idToken: false,
      userinfo: {
        // What a userinfo API answers when the access token it is shown is someone else's (a substituted token).
        request: async ({ fetchJson }) => ({ ...(await fetchJson<Record<string, unknown>>(`${idp.issuer}/me`)), sub: "mallory", email: "mallory@example.com" }),
      },
    })
    idp.signInAs(ADA.sub)
    const { url, session } = await signInThrough(secureApp({ providers: [provider], logger }), "corp")
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/auth/error`)
    expect(session).toBeNull()
    expect(loggedErrors(logged).map((error) => error.message).join("\n")).toContain("the userinfo sub differs from the id_token sub")
  })
})

describe("plain http is allowed only to loopback hosts, whatever a discovery document says", () => {
  // Guard: src/lib/secure-url.ts:isLoopbackHttp (oauth4webapi's allowInsecureRequests only for a loopback host).
  it("a discovery document naming a plain-http token endpoint on another host never gets the code and client secret sent there", async () => {
    const PLAIN = "http://idp.example"
    const sentInClear: string[] = []
    // The provider's discovery document as a network attacker (or a misconfigured proxy) rewrites it:
    // the token endpoint moved to plain http, where the attacker reads the client secret and the code.
    const downgrading: typeof fetch = async (input, init) => {
      const url = new URL(String(input instanceof Request ? input.url : input))
      if (url.origin === PLAIN) {
        sentInClear.push(url.pathname)
        return fetch(`${idp.issuer}${url.pathname}${url.search}`, init)
      }
      const response = await fetch(input, init)
      if (!url.pathname.endsWith("/.well-known/openid-configuration")) return response
      const document = (await response.json()) as { token_endpoint: string }
      return Response.json({ ...document, token_endpoint: `${PLAIN}${new URL(document.token_endpoint).pathname}` })
    }
    idp.signInAs(ADA.sub)
    const { url, session } = await signInThrough(secureApp({ providers: [corp()], fetch: downgrading }), "corp")
    expect(sentInClear).toEqual([])
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/auth/error`)
    expect(session).toBeNull()
  })
})

describe("the browser is sent to the provider only over https", () => {
  // Guard: src/oauth/start.ts:startSignIn (the authorization endpoint must be isSecureUrl: https, or http on a loopback host).
  // A hostile or compromised discovery document names a `javascript:` authorization endpoint: a 302 to it does
  // nothing, but the browser client (X-Auth-Return-Redirect) receives it as `url` and assigns it to `location`,
  // which would run the script in the app's origin.
  it.each(["javascript:alert(document.cookie)//", "data:text/html,<script>alert(1)</script>", "http://idp.example/authorize"])(
    "a discovery document naming %s as its authorization endpoint sends no browser there, and no script gets it as a url",
    async (endpoint) => {
      const rewriting: typeof fetch = async (input, init) => {
        const url = new URL(String(input instanceof Request ? input.url : input))
        const response = await fetch(input, init)
        if (!url.pathname.endsWith("/.well-known/openid-configuration")) return response
        return Response.json({ ...((await response.json()) as object), authorization_endpoint: endpoint })
      }
      const site = secureApp({ providers: [corp()], fetch: rewriting, logger: recordingLogger().logger })
      const browser = site.browser()
      const csrfToken = await csrfOf(browser)
      const cookie = [...browser.cookies(ORIGIN)].map(([name, value]) => `${name}=${value}`).join("; ")
      const headers = { cookie, "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" }
      const answer = await site.handler(new Request(`${ORIGIN}/auth/signin/corp`, { method: "POST", headers, body: new URLSearchParams({ csrfToken }) }))
      const { url } = (await answer.json()) as { url: string }
      expect(new URL(url).origin).toBe(ORIGIN)
      expect(new URL(url).pathname).toBe("/auth/error")
    }
  )
})

describe("a multi-tenant discovery document is accepted only for its own issuer template", () => {
  const COMMON = "https://login.microsoftonline.com/common/v2.0"
  /** Serves, for Entra ID's common endpoint, a discovery document whose issuer is `issuer`. */
  const discoveryNaming = (issuer: string): typeof fetch => async (input) => {
    expect(String(input)).toBe(`${COMMON}/.well-known/openid-configuration`)
    const host = new URL(issuer.replace("{tenantid}", "t")).origin
    return Response.json({ issuer, authorization_endpoint: `${host}/authorize`, token_endpoint: `${host}/token`, jwks_uri: `${host}/keys` })
  }
  const start = (fetchImplementation: typeof fetch) =>
    startSignIn(MicrosoftEntraID({ clientId: "app", clientSecret: "app-secret" }), {
      redirectUri: `${ORIGIN}/auth/callback/microsoft-entra-id`,
      secret: "s".repeat(32),
      fetch: fetchImplementation,
    })

  // Guard: src/oauth/discovery.ts:processTenantDocument (the `{tenantid}` issuer must be the configured issuer's template).
  it("a document naming another host's {tenantid} template is refused before the browser is sent anywhere", async () => {
    const failure = await start(discoveryNaming("https://login.evil.example/{tenantid}/v2.0")).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(OAuthProtocolError)
    expect((failure as Error).message).toContain("the discovery document is for another issuer")
  })

  // Guard: src/oauth/discovery.ts:processTenantDocument (control: Entra ID's own template still passes it).
  it("the genuine template is accepted (the refusal above is about the issuer, not the document)", async () => {
    const { url } = await start(discoveryNaming("https://login.microsoftonline.com/{tenantid}/v2.0"))
    expect(url.origin + url.pathname).toBe("https://login.microsoftonline.com/authorize")
  })
})

describe("PKCE ties an authorization code to the browser whose sign-in asked for it", () => {
  /**
   * A victim's sign-in whose authorization response never reaches the app: its URL, code and all,
   * is taken on the way (a leaked log or Referer, a hostile app on the phone claiming the redirect).
   * Answers the victim's browser (which reaches the app again after the one interception) and the intercepted callback URL.
   */
  async function interceptedSignIn(site: ReturnType<typeof secureApp>) {
    const intercepted: URL[] = []
    const victim = new TestBrowser(undefined, async (input, init) => {
      const url = new URL(String(input))
      if (intercepted.length > 0 || url.origin !== ORIGIN || url.pathname !== "/auth/callback/corp") return site.dispatch(input, init)
      intercepted.push(url)
      return new Response("intercepted", { headers: { "content-type": "text/plain" } })
    })
    idp.signInAs(ADA.sub)
    await post(victim, "/auth/signin/corp", { csrfToken: await csrfOf(victim) })
    expect(intercepted).toHaveLength(1)
    expect(intercepted[0]!.searchParams.get("code")).toEqual(expect.any(String))
    return { victim, callback: intercepted[0]! }
  }

  // Control: the intercepted response is a good one; in the browser that began the sign-in it signs Ada in.
  it("the intercepted callback, delivered to the victim's own browser, signs the victim in", async () => {
    const site = secureApp({ providers: [corp()] })
    const { victim, callback } = await interceptedSignIn(site)
    await victim.open(callback)
    expect((await sessionOf(victim))?.user.email).toBe(ADA.email)
  })

  // Guard: src/oauth/start.ts (code_challenge) and src/oauth/finish.ts (code_verifier), the default checks of an OIDC provider.
  it("the attacker who replays the victim's code in a sign-in of their own is refused, and gets no session", async () => {
    const site = secureApp({ providers: [corp()] })
    const { callback } = await interceptedSignIn(site)
    // The attacker starts a sign-in of their own, stopping at the provider: their browser now holds their own flow's cookies.
    const attacker = new TestBrowser(undefined, async (input, init) => {
      if (new URL(String(input)).origin === new URL(idp.issuer).origin) return new Response("at the provider", { headers: { "content-type": "text/plain" } })
      return site.dispatch(input, init)
    })
    await post(attacker, "/auth/signin/corp", { csrfToken: await csrfOf(attacker) })
    const { url } = await attacker.open(callback)
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/auth/error`)
    expect(await sessionOf(attacker)).toBeNull()
  })
})

describe("the authorization URL's flow parameters are the flow's own", () => {
  // Guard: src/oauth/start.ts:startSignIn (FLOW_PARAMETERS are skipped when copying provider and per-call params).
  it("per-call params cannot smuggle a code_challenge or nonce the flow did not make into the URL (an app forwarding a query string)", async () => {
    // A public client using state only: a code bound to an attacker's challenge could be redeemed by whoever holds its verifier.
    const provider = {
      id: "acme",
      name: "Acme",
      type: "oauth" as const,
      clientId: "app",
      client: { token_endpoint_auth_method: "none" as const },
      checks: ["state" as const],
      authorization: "https://idp.acme.example/authorize",
      token: "https://idp.acme.example/token",
      userinfo: "https://idp.acme.example/userinfo",
    }
    const smuggled = { code_challenge: "attacker-challenge", code_challenge_method: "plain", nonce: "attacker-nonce", login_hint: "ada@example.com" }
    const { url } = await startSignIn(provider, { redirectUri: `${ORIGIN}/auth/callback/acme`, secret: "s".repeat(32), params: smuggled })
    expect(url.searchParams.get("login_hint")).toBe("ada@example.com")
    expect(url.searchParams.get("code_challenge")).toBeNull()
    expect(url.searchParams.get("code_challenge_method")).toBeNull()
    expect(url.searchParams.get("nonce")).toBeNull()
  })
})

/**
 * Many OpenID providers served in-process by one fetch (`https://idp<k>.example`, one signing key),
 * each answering its code through a custom token request with a freshly signed id_token, so a
 * sign-in costs no network. `downloads` lists every URL the flow fetched.
 */
async function manyIssuers() {
  const { privateKey, publicKey } = await generateKeyPair("RS256")
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" }
  const downloads: string[] = []
  const idps: typeof fetch = async (input) => {
    const url = new URL(String(input instanceof Request ? input.url : input))
    downloads.push(url.href)
    const { origin } = url
    if (url.pathname === "/.well-known/openid-configuration") {
      const endpoints = { authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token`, jwks_uri: `${origin}/jwks` }
      return Response.json({ issuer: origin, ...endpoints, id_token_signing_alg_values_supported: ["RS256"] })
    }
    return url.pathname === "/jwks" ? Response.json({ keys: [jwk] }) : Response.json({ error: "not_found" }, { status: 404 })
  }
  const provider = (k: number): OIDCConfig => ({
    id: "many",
    name: "Many",
    type: "oidc",
    issuer: `https://idp${k}.example`,
    clientId: "app",
    clientSecret: "app-secret",
    token: {
      request: async () => {
        const idToken = await new SignJWT({ email: "ada@example.com" })
          .setProtectedHeader({ alg: "RS256", kid: "k1" })
          .setSubject("ada")
          .setIssuer(`https://idp${k}.example`)
          .setAudience("app")
          .setIssuedAt()
          .setExpirationTime("5m")
          .sign(privateKey)
        return { tokens: { access_token: "at", token_type: "bearer", id_token: idToken } }
      },
    },
  })
  const signInAt = async (k: number) => {
    const options = { redirectUri: `${ORIGIN}/auth/callback/many`, secret: SECRET, fetch: idps }
    const { cookies } = await startSignIn(provider(k), options)
    const cookie = cookies.map((line) => line.split(";")[0]).join("; ")
    return finishSignIn(provider(k), new Request(`${options.redirectUri}?code=c`, { headers: { cookie } }), options)
  }
  return { downloads, signInAt }
}

describe("the key-set cache is bounded, per fetch", () => {
  // Guard: src/oauth/jwks.ts:keySetFor (at most MAX_CACHED_KEY_SETS key sets per fetch; the oldest is forgotten).
  it("after sign-ins at 101 issuers, the first issuer's key set has been forgotten and is downloaded again", async () => {
    const { downloads, signInAt } = await manyIssuers()
    for (let k = 0; k <= 100; k++) expect((await signInAt(k)).user.email).toBe("ada@example.com")
    await signInAt(0)
    expect(downloads.filter((url) => url === "https://idp0.example/jwks")).toHaveLength(2)
    // The last issuer's set is still held: the bound forgets the oldest, not everything.
    await signInAt(100)
    expect(downloads.filter((url) => url === "https://idp100.example/jwks")).toHaveLength(1)
  }, 60_000)
})

describe("the discovery cache is bounded, per fetch", () => {
  // Guard: src/oauth/discovery.ts:authorizationServer (at most MAX_CACHED_DOCUMENTS discovery documents per fetch).
  it("after sign-ins at 101 issuers, the first issuer's discovery document has been forgotten and is fetched again", async () => {
    const { downloads, signInAt } = await manyIssuers()
    for (let k = 0; k <= 100; k++) await signInAt(k)
    await signInAt(0)
    expect(downloads.filter((url) => url === "https://idp0.example/.well-known/openid-configuration")).toHaveLength(2)
    await signInAt(100)
    expect(downloads.filter((url) => url === "https://idp100.example/.well-known/openid-configuration")).toHaveLength(1)
  }, 60_000)
})
