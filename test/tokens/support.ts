// The provider-token suites' peer: a real oidc-provider that rotates refresh tokens (so a replayed
// one is refused and the grant revoked, as at Google or Auth0), counts the refresh grants it sees,
// issues the sign-in's access token already inside the refresh skew (so the first read is due)
// and refreshed ones for an hour, and ends its session through RP-initiated logout with the
// confirmation a user would click answered yes.
import { REDIS, unreachable } from "../setup/services.js"
import { afterAll, beforeAll, expect } from "vitest"
import type { AuthConfig } from "../../src/handler/index.js"
import type { ProviderTokensEngine } from "../../src/provider-tokens/types.js"
import { readTokenCookie } from "../../src/jwt/cookies.js"
import { decode } from "../../src/jwt/decode.js"
import { getToken } from "../../src/jwt/get-token.js"
import type { OIDCConfig } from "../../src/providers/types.js"
import type { TestBrowser } from "../servers/browser.js"
import { startOidcServer, type OidcServer, type TestAccount } from "../servers/oidc-provider.js"
import { csrfOf, ORIGIN, post, SECRET, secureApp } from "../security/support.js"

/** How long the sign-in's access token lives: inside the default 60 s skew, so the first read refreshes. */
export const SIGN_IN_TOKEN_TTL = 30
/** How long a refreshed access token lives. */
export const REFRESHED_TOKEN_TTL = 3600

export interface RefreshingProvider {
  server: OidcServer
  /** Refresh grants the provider answered, successful or not. */
  refreshGrants(): number
  /** Refresh grants the provider refused, by their error. */
  refusedRefreshes(): string[]
  /** The app's provider config. */
  provider(): OIDCConfig
}

/**
 * `shortRefreshes`: how many refreshes issue an access token as short-lived as the sign-in's (still
 * due at once), before they live an hour: a chain of successors for the stale-cookie tests.
 */
export async function startRefreshingProvider(options: { shortRefreshes?: number; accounts?: TestAccount[] } = {}): Promise<RefreshingProvider> {
  let granted = 0
  let shortRefreshes = options.shortRefreshes ?? 0
  const refused: string[] = []
  const server = await startOidcServer({
    accounts: options.accounts,
    clients: [
      {
        client_id: "app",
        client_secret: "app-secret",
        redirect_uris: [`${ORIGIN}/auth/callback/corp`],
        post_logout_redirect_uris: [`${ORIGIN}/`, `${ORIGIN}/bye`],
        grant_types: ["authorization_code", "refresh_token"],
      },
    ],
    configuration: {
      rotateRefreshToken: true,
      features: {
        devInteractions: { enabled: false },
        revocation: { enabled: true },
        rpInitiatedLogout: {
          enabled: true,
          // The confirmation page, answered "yes, sign me out" as the user would click it.
          logoutSource: async (ctx, form) => {
            ctx.body = `<!doctype html><html><body onload="document.forms[0].submit()">${form.replace("</form>", '<input type="hidden" name="logout" value="yes"/></form>')}</body></html>`
          },
        },
      },
      ttl: {
        AccessToken: (ctx) => {
          if (ctx?.oidc?.params?.grant_type !== "refresh_token") return SIGN_IN_TOKEN_TTL
          return shortRefreshes-- > 0 ? SIGN_IN_TOKEN_TTL : REFRESHED_TOKEN_TTL
        },
        RefreshToken: 24 * 60 * 60,
        Session: 60 * 60,
        Grant: 24 * 60 * 60,
        IdToken: 60 * 60,
        Interaction: 60 * 60,
        AuthorizationCode: 60,
      },
    },
  })
  server.provider.on("grant.success", (ctx) => {
    if (ctx.oidc.params?.grant_type === "refresh_token") granted++
  })
  server.provider.on("grant.error", (ctx, error) => {
    if (ctx.oidc.params?.grant_type === "refresh_token") refused.push((error as { error?: string }).error ?? "unknown")
  })
  return {
    server,
    refreshGrants: () => granted + refused.length,
    refusedRefreshes: () => [...refused],
    provider: () => ({ id: "corp", name: "Corp", type: "oidc", issuer: server.issuer, clientId: "app", clientSecret: "app-secret" }),
  }
}

/** The provider, started before the file's tests and stopped after. */
export function refreshingProvider(options: { shortRefreshes?: number; accounts?: TestAccount[] } = {}): () => RefreshingProvider {
  let started: RefreshingProvider | undefined
  beforeAll(async () => {
    started = await startRefreshingProvider(options)
  })
  afterAll(() => started?.server.close())
  return () => started ?? expect.fail("the provider has not started")
}

/** An app on ORIGIN with `config`, and a browser signed in to it through the provider. */
export async function signedIn<P extends ProviderTokensEngine | undefined = undefined>(idp: RefreshingProvider, config: Partial<AuthConfig> & { providerTokens?: P }): Promise<{ site: ReturnType<typeof secureApp<P>>; browser: TestBrowser }> {
  const site = secureApp({ providers: [idp.provider()], ...config })
  const browser = site.browser()
  const { url } = await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
  expect(url.href).toBe(`${ORIGIN}/`)
  return { site, browser }
}

/** A Request to ORIGIN carrying the browser's cookies, as a route calling `auth()` receives it. */
export function requestFrom(browser: TestBrowser, path = "/dashboard"): Request {
  const cookie = [...browser.cookies(ORIGIN)].map(([name, value]) => `${name}=${value}`).join("; ")
  return new Request(`${ORIGIN}${path}`, { headers: { cookie } })
}

/** The session JSON for a request (GET /auth/session), and the Set-Cookie values it answered with. */
export async function sessionRead(site: ReturnType<typeof secureApp>, request: Request): Promise<{ session: Record<string, any> | null; setCookies: string[] }> {
  const response = await site.handler(new Request(`${ORIGIN}/auth/session`, { headers: request.headers }))
  return { session: (await response.json()) as Record<string, any> | null, setCookies: response.headers.getSetCookie() }
}

/** The token cookie's name on ORIGIN (https, default `cookies`). */
export const TOKEN_COOKIE = "__Secure-latchkey.provider-tokens"

/** The session token's claims as sealed in the browser's cookie. */
export async function sealedClaims(browser: TestBrowser): Promise<Record<string, any>> {
  const claims = await getToken({ req: requestFrom(browser), secret: SECRET, secureCookie: true })
  return claims ?? expect.fail("the browser holds no session token")
}

/** The SHA-256 (base64url) of the browser's session token: what its token cookie must be bound to. */
export async function sessionTokenHash(browser: TestBrowser): Promise<string> {
  const token = readTokenCookie(requestFrom(browser).headers.get("cookie"), "__Secure-authjs.session-token") ?? expect.fail("the browser holds no session token")
  return Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))).toString("base64url")
}

/** What a token cookie value (joined from its chunks) seals, opened as the handler opens it. */
export async function openedTokens(value: string, name = TOKEN_COOKIE): Promise<Record<string, any>> {
  return (await decode<Record<string, any>>({ token: value, secret: SECRET, salt: name })) ?? expect.fail("the token cookie is empty")
}

/** The provider tokens sealed in the browser's token cookie. */
export async function sealedTokens(browser: TestBrowser, name = TOKEN_COOKIE): Promise<Record<string, any>> {
  const value = readTokenCookie(requestFrom(browser).headers.get("cookie"), name)
  return openedTokens(value ?? expect.fail("the browser holds no token cookie"), name)
}

/** The provider tokens a response's Set-Cookie values write, or undefined when they write no token cookie. */
export async function tokensSetBy(setCookies: string[]): Promise<Record<string, any> | undefined> {
  const line = setCookies.find((cookie) => cookie.startsWith(`${TOKEN_COOKIE}=`) && !/max-age=0/i.test(cookie))
  return line ? openedTokens(line.slice(TOKEN_COOKIE.length + 1, line.indexOf(";"))) : undefined
}

/** Why the real Redis at 127.0.0.1:6379 cannot be used, or undefined when it answers. */
export function probeRedis(): Promise<string | undefined> {
  return unreachable("Redis", REDIS)
}

/**
 * A fetch for the app that holds requests to the provider's token endpoint once `hold()` is called,
 * until `release()` (then passes them on to the real server): a slow provider, so a refresh is in
 * flight while something else happens. `arrived` settles when the first held request comes in.
 */
export function gatedFetch(): { fetch: typeof fetch; hold(): void; arrived: Promise<void>; release(): void } {
  let release!: () => void
  let arrive!: () => void
  const opened = new Promise<void>((resolve) => (release = resolve))
  const arrived = new Promise<void>((resolve) => (arrive = resolve))
  let held = false
  const gated: typeof fetch = async (input, init) => {
    if (held && new URL(input instanceof Request ? input.url : String(input)).pathname === "/token") {
      arrive()
      await opened
    }
    return fetch(input, init)
  }
  return { fetch: gated, arrived, hold: () => void (held = true), release: () => ((held = false), release()) }
}
