// Support for test/interop/differential-oauth.test.ts: the same OpenID Connect app ("corp", a real
// local oidc-provider) built for the real @auth/core and for latchkey's createAuth, driven through
// the same scripted steps, each side with its own cookie jar at the app and its own browser session
// at the provider. Views are differential-support.ts's, with the provider's authorization URL and
// the callback URL normalised (their random values replaced, their parameter names kept).
import { Auth, setEnvDefaults, type AuthConfig as AuthjsConfig } from "@auth/core"
import type { OIDCConfig as AuthjsOIDCConfig } from "@auth/core/providers"
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import type { OIDCConfig } from "../../src/providers/types.js"
import { storeCookies } from "../servers/browser.js"
import { startOidcServer, type OidcServer, type TestAccount } from "../servers/oidc-provider.js"
import { authjsMemoryAdapter, form, Jar, SECRET, view, type Side, type View } from "./differential-support.js"

export const ORIGIN = "https://app.example.com"
export const ROUTES = "/auth"
export const CALLBACK = `${ORIGIN}${ROUTES}/callback/corp`

export const ACCOUNTS: TestAccount[] = [
  { sub: "ada-sub", email: "ada@example.com", name: "Ada Lovelace", picture: "https://example.com/ada.png" },
  { sub: "deny-sub", email: "deny@example.com", name: "Denied Dan" },
  { sub: "taken-sub", email: "taken@example.com", name: "Second Comer" },
]

let server: OidcServer | undefined
export async function startProvider(): Promise<OidcServer> {
  server ??= await startOidcServer({ accounts: ACCOUNTS, clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [CALLBACK], grant_types: ["authorization_code"] }] })
  return server
}
export async function stopProvider(): Promise<void> {
  await server?.close()
  server = undefined
}
const idp = () => {
  if (!server) throw new Error("the corp provider has not started")
  return server
}

export interface OAuthScenario {
  name: string
  /** Who the provider signs in. */
  account: string
  /** The provider's `checks`, the same on both sides (both default to ["pkce"] for OIDC). */
  checks?: ("pkce" | "state" | "nonce")[]
  strategy: "jwt" | "database"
  pages?: { signIn?: string; signOut?: string; error?: string; newUser?: string }
  /** callbacks.signIn returns false for `deny@…`. */
  denyCallback?: boolean
  /** callbacks.jwt applies `session.name` on trigger "update". */
  updateCallback?: boolean
  /** callbacks.jwt adds a claim of this many characters at sign-in. */
  bigClaim?: number
  /** A user holding this address exists before the run (no account linked). */
  existingUser?: { email: string; name: string }
  /** The `cookies` option, the same on both sides. */
  cookies?: Record<string, { name: string; options: Record<string, unknown> }>
}

/** The pair of handlers for one scenario, each with its own adapter. */
export async function build(scenario: OAuthScenario) {
  const corp = { id: "corp", name: "Corp", type: "oidc", issuer: idp().issuer, clientId: "app", clientSecret: "app-secret", ...(scenario.checks ? { checks: scenario.checks } : {}) } as const
  // DIFF_DEBUG=1 prints what either library logged as an error.
  const silent = { error: (error: unknown) => void (process.env.DIFF_DEBUG && console.log("[differential-oauth] error logged:", error)), warn: () => {}, debug: () => {} }
  const callbacks = {
    ...(scenario.denyCallback ? { signIn: ({ user }: { user: { email?: string | null } }) => !user.email?.startsWith("deny@") } : {}),
    ...(scenario.updateCallback || scenario.bigClaim
      ? {
          jwt: ({ token, trigger, session, user }: { token: Record<string, unknown>; trigger?: string; session?: { name?: unknown }; user?: unknown }) => {
            if (user && scenario.bigClaim) token.blob = "x".repeat(scenario.bigClaim)
            if (trigger === "update" && scenario.updateCallback && typeof session?.name === "string") token.name = session.name
            return token
          },
        }
      : {}),
  }

  const authjsAdapter = authjsMemoryAdapter()
  const latchkeyAdapter = memoryAdapter()
  if (scenario.existingUser) {
    await authjsAdapter.createUser!({ id: crypto.randomUUID(), email: scenario.existingUser.email, name: scenario.existingUser.name, emailVerified: null })
    await latchkeyAdapter.createUser!({ id: crypto.randomUUID(), email: scenario.existingUser.email, name: scenario.existingUser.name, emailVerified: null })
  }

  const authjsConfig: AuthjsConfig = {
    secret: SECRET,
    trustHost: true,
    basePath: ROUTES,
    providers: [{ ...corp } satisfies AuthjsOIDCConfig<Record<string, unknown>>],
    // Always an adapter, with the strategy spelt out (see differential-support.ts: @auth/core 0.41's
    // assertConfig keeps `hasEmail`/`hasCredentials` in module state). latchkey gets one too, so
    // both store the OAuth user the same way.
    adapter: authjsAdapter,
    session: { strategy: scenario.strategy },
    ...(scenario.pages ? { pages: scenario.pages } : {}),
    ...(scenario.cookies ? { cookies: scenario.cookies as AuthjsConfig["cookies"] } : {}),
    callbacks: callbacks as AuthjsConfig["callbacks"],
    logger: silent,
  }
  setEnvDefaults({}, authjsConfig)
  const latchkey = createAuth({
    secret: SECRET,
    trustHost: true,
    env: {},
    basePath: ROUTES,
    providers: [corp satisfies OIDCConfig],
    adapter: latchkeyAdapter,
    session: { strategy: scenario.strategy },
    ...(scenario.pages ? { pages: scenario.pages } : {}),
    ...(scenario.cookies ? { cookies: scenario.cookies as AuthConfig["cookies"] } : {}),
    callbacks: callbacks as AuthConfig["callbacks"],
    logger: silent,
  })
  const handlers: Record<Side, (request: Request) => Promise<Response>> = {
    authjs: (request) => Auth(request, authjsConfig),
    latchkey: latchkey.handler,
  }
  return { handlers, adapters: { authjs: authjsAdapter, latchkey: latchkeyAdapter } }
}

// ---------------------------------------------------------------------------------------------
// Normalising the URLs of an OAuth flow.

/** Query parameters whose values are random per run. */
const RANDOM_PARAMS = new Set(["state", "code_challenge", "nonce", "code", "iss"])

/** A URL as compared: the provider's issuer named, each random parameter's value replaced. */
export function normaliseFlowUrl(href: string, base?: string): string {
  let url: URL
  try {
    url = new URL(href, base)
  } catch {
    return `<unparsable: ${href}>`
  }
  const issuer = server?.issuer
  const origin = issuer && url.origin === new URL(issuer).origin ? "<issuer>" : url.origin
  const query = [...url.searchParams]
    .map(([name, value]) => `${name}=${RANDOM_PARAMS.has(name) ? (name === "iss" && issuer && value === issuer ? "<issuer>" : value ? `<${name}>` : "") : value}`)
    .sort()
  return `${origin}${url.pathname}${query.length ? `?${query.join("&")}` : ""}`
}

function normaliseView(result: View, requestUrl: string, location: string | null): View {
  if (location !== null) result.location = normaliseFlowUrl(location, requestUrl)
  const body = result.body as Record<string, unknown> | undefined
  if (body && typeof body === "object" && typeof body.url === "string") body.url = normaliseFlowUrl(body.url)
  return result
}

// ---------------------------------------------------------------------------------------------
// The steps and the runner.

export interface FlowContext {
  csrfToken: string
  /** The last Location the app answered (the provider's authorization URL after POST /signin/corp). */
  lastLocation?: string
  /** The callback URL the provider sent the browser back to, last time. */
  callbackUrl?: string
  /** The one before it. */
  previousCallbackUrl?: string
}

export interface FlowStep {
  label: string
  /** An app request, or "provider": follow the last Location through the provider back to the app's callback. */
  request: ((context: FlowContext) => { url: string; init?: RequestInit }) | "provider"
}

export interface FlowRun {
  views: View[]
  jar: Jar
  /** The raw Set-Cookie lines of each step (for values: a chunk's size). */
  setCookies: string[][]
}

/** Follows `start` through the provider (its own cookie jar) until it redirects to the app's origin. */
async function throughProvider(providerCookies: Map<string, string>, start: string): Promise<{ view: View; callbackUrl?: string }> {
  let url = new URL(start)
  for (let hop = 0; hop < 20; hop++) {
    if (url.origin === ORIGIN) return { view: { status: 302, location: normaliseFlowUrl(url.href), cookies: [], contentType: "" }, callbackUrl: url.href }
    const cookie = [...providerCookies].map(([name, value]) => `${name}=${value}`).join("; ")
    const response = await fetch(url.href, { redirect: "manual", headers: cookie ? { cookie } : {} })
    storeCookies(providerCookies, response)
    const location = response.headers.get("location")
    await response.body?.cancel()
    if (location === null) return { view: { status: response.status, cookies: [], contentType: "provider stopped" } }
    url = new URL(location, url)
  }
  throw new Error("too many redirects at the provider")
}

/** Runs the steps on one side: a fresh jar at the app, a fresh browser session at the provider. */
export async function runFlow(scenario: OAuthScenario, handlers: Record<Side, (request: Request) => Promise<Response>>, side: Side, steps: FlowStep[]): Promise<FlowRun> {
  idp().signInAs(scenario.account)
  const jar = new Jar(handlers[side])
  const providerCookies = new Map<string, string>()
  const context: FlowContext = { csrfToken: "" }
  const views: View[] = []
  const setCookies: string[][] = []
  for (const step of steps) {
    if (step.request === "provider") {
      if (!context.lastLocation) throw new Error(`${step.label}: no Location to follow`)
      const { view: providerView, callbackUrl } = await throughProvider(providerCookies, context.lastLocation)
      context.previousCallbackUrl = context.callbackUrl
      context.callbackUrl = callbackUrl
      views.push(providerView)
      setCookies.push([])
      continue
    }
    const { url, init } = step.request(context)
    const absolute = new URL(url, ORIGIN).href
    const response = await jar.send(absolute, init)
    const location = response.headers.get("location")
    setCookies.push(response.headers.getSetCookie())
    const copy = response.clone()
    views.push(normaliseView(await view(response, absolute), absolute, location))
    let redirectUrl = location === null ? undefined : new URL(location, absolute).href
    if ((copy.headers.get("content-type") ?? "").includes("application/json")) {
      const body = (await copy.json().catch(() => null)) as { csrfToken?: unknown; url?: unknown } | null
      if (body && typeof body.csrfToken === "string") context.csrfToken = body.csrfToken
      if (body && typeof body.url === "string") redirectUrl = body.url
    } else await copy.body?.cancel()
    if (redirectUrl) context.lastLocation = redirectUrl
  }
  return { views, jar, setCookies }
}

// ---------------------------------------------------------------------------------------------
// The scripts.

const csrfStep: FlowStep = { label: "GET /csrf", request: () => ({ url: `${ROUTES}/csrf` }) }
const sessionStep: FlowStep = { label: "GET /session", request: () => ({ url: `${ROUTES}/session` }) }
const signInSteps = (callbackUrl = `${ORIGIN}/dashboard`): FlowStep[] => [
  csrfStep,
  { label: "POST /signin/corp", request: ({ csrfToken }) => ({ url: `${ROUTES}/signin/corp`, init: form({ csrfToken, callbackUrl }) }) },
  { label: "provider: authorize, log in, consent", request: "provider" },
  { label: "GET /callback/corp (from the provider)", request: ({ callbackUrl }) => ({ url: callbackUrl! }) },
]

/** The callback URL with its query changed. */
function alter(href: string, change: (params: URLSearchParams) => void): string {
  const url = new URL(href)
  change(url.searchParams)
  return url.href
}

/** next-auth/react's update(data): POST <basePath>/session, JSON { csrfToken, data }. */
export const updateInit = (csrfToken: string, data: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ csrfToken, data }) })

export const SCRIPTS: Record<string, FlowStep[]> = {
  "oidc sign-in, session, replayed callback": [
    ...signInSteps(),
    sessionStep,
    { label: "GET /callback/corp again (replayed)", request: ({ callbackUrl }) => ({ url: callbackUrl! }) },
    sessionStep,
  ],
  "oidc callback tampered": [
    csrfStep,
    { label: "POST /signin/corp", request: ({ csrfToken }) => ({ url: `${ROUTES}/signin/corp`, init: form({ csrfToken, callbackUrl: `${ORIGIN}/dashboard` }) }) },
    { label: "provider: authorize, log in, consent", request: "provider" },
    { label: "GET /callback/corp with a tampered state", request: ({ callbackUrl }) => ({ url: alter(callbackUrl!, (params) => params.set("state", `${params.get("state")}x`)) }) },
    sessionStep,
  ],
  "oidc callback without state": [
    csrfStep,
    { label: "POST /signin/corp", request: ({ csrfToken }) => ({ url: `${ROUTES}/signin/corp`, init: form({ csrfToken, callbackUrl: `${ORIGIN}/dashboard` }) }) },
    { label: "provider: authorize, log in, consent", request: "provider" },
    { label: "GET /callback/corp without state", request: ({ callbackUrl }) => ({ url: alter(callbackUrl!, (params) => params.delete("state")) }) },
    sessionStep,
  ],
  "oidc callback without code": [
    csrfStep,
    { label: "POST /signin/corp", request: ({ csrfToken }) => ({ url: `${ROUTES}/signin/corp`, init: form({ csrfToken, callbackUrl: `${ORIGIN}/dashboard` }) }) },
    { label: "provider: authorize, log in, consent", request: "provider" },
    { label: "GET /callback/corp without code", request: ({ callbackUrl }) => ({ url: alter(callbackUrl!, (params) => params.delete("code")) }) },
    sessionStep,
  ],
  "oidc callback with a wrong code": [
    csrfStep,
    { label: "POST /signin/corp", request: ({ csrfToken }) => ({ url: `${ROUTES}/signin/corp`, init: form({ csrfToken, callbackUrl: `${ORIGIN}/dashboard` }) }) },
    { label: "provider: authorize, log in, consent", request: "provider" },
    { label: "GET /callback/corp with a wrong code", request: ({ callbackUrl }) => ({ url: alter(callbackUrl!, (params) => params.set("code", "not-a-code")) }) },
    sessionStep,
  ],
  "oidc callback with no sign-in under way": [
    { label: "GET /callback/corp?code=x&state=y (no check cookies)", request: () => ({ url: `${ROUTES}/callback/corp?code=x&state=y` }) },
    sessionStep,
  ],
  "new user, then returning user": [
    ...signInSteps(),
    sessionStep,
    { label: "GET /csrf (2)", request: () => ({ url: `${ROUTES}/csrf` }) },
    { label: "POST /signin/corp (2)", request: ({ csrfToken }) => ({ url: `${ROUTES}/signin/corp`, init: form({ csrfToken, callbackUrl: `${ORIGIN}/dashboard` }) }) },
    { label: "provider (2): already logged in and consented", request: "provider" },
    { label: "GET /callback/corp (2)", request: ({ callbackUrl }) => ({ url: callbackUrl! }) },
    sessionStep,
  ],
  "signIn callback refuses an OAuth user": [...signInSteps(), sessionStep],
  "OAuth address held by another user": [...signInSteps(), sessionStep],
  "session update": [
    ...signInSteps(),
    sessionStep,
    csrfStep,
    { label: "POST /session update({ name }) (JSON, as next-auth/react)", request: ({ csrfToken }) => ({ url: `${ROUTES}/session`, init: updateInit(csrfToken, { name: "Countess" }) }) },
    sessionStep,
    { label: "POST /session update without csrfToken", request: () => ({ url: `${ROUTES}/session`, init: updateInit(undefined as never, { name: "Intruder" }) }) },
    sessionStep,
  ],
  "sign-out with pages.signOut": [
    ...signInSteps(),
    { label: "GET /signout", request: () => ({ url: `${ROUTES}/signout` }) },
    { label: "GET /signout?callbackUrl=/bye", request: () => ({ url: `${ROUTES}/signout?callbackUrl=%2Fbye` }) },
    csrfStep,
    { label: "POST /signout with callbackUrl", request: ({ csrfToken }) => ({ url: `${ROUTES}/signout`, init: form({ csrfToken, callbackUrl: `${ORIGIN}/bye` }) }) },
    sessionStep,
  ],
  "custom cookie names": [
    ...signInSteps(),
    sessionStep,
    csrfStep,
    { label: "POST /signout with callbackUrl", request: ({ csrfToken }) => ({ url: `${ROUTES}/signout`, init: form({ csrfToken, callbackUrl: `${ORIGIN}/bye` }) }) },
    sessionStep,
  ],
  "chunked session": [
    ...signInSteps(),
    sessionStep,
    csrfStep,
    { label: "POST /signout with callbackUrl", request: ({ csrfToken }) => ({ url: `${ROUTES}/signout`, init: form({ csrfToken, callbackUrl: `${ORIGIN}/bye` }) }) },
    sessionStep,
  ],
}

const SECURE = { httpOnly: true, sameSite: "lax", path: "/", secure: true }

export const SCENARIOS: Record<string, { scenario: OAuthScenario; scripts: string[] }> = {
  "oidc, JWT sessions": {
    scenario: { name: "oidc-jwt", account: "ada-sub", strategy: "jwt" },
    scripts: ["oidc sign-in, session, replayed callback", "oidc callback tampered", "oidc callback without state", "oidc callback without code", "oidc callback with a wrong code", "oidc callback with no sign-in under way"],
  },
  "oidc, JWT sessions, checks pkce + state + nonce": {
    scenario: { name: "oidc-jwt-checks", account: "ada-sub", strategy: "jwt", checks: ["pkce", "state", "nonce"] },
    scripts: ["oidc sign-in, session, replayed callback", "oidc callback tampered", "oidc callback without state", "oidc callback without code"],
  },
  "oidc, database sessions, pages.newUser": {
    scenario: { name: "oidc-database-new-user", account: "ada-sub", strategy: "database", pages: { newUser: "/welcome" } },
    scripts: ["oidc sign-in, session, replayed callback", "new user, then returning user"],
  },
  "oidc, signIn callback false": {
    scenario: { name: "oidc-deny", account: "deny-sub", strategy: "jwt", denyCallback: true },
    scripts: ["signIn callback refuses an OAuth user"],
  },
  "oidc, address held by an existing user, no dangerous linking": {
    scenario: { name: "oidc-not-linked", account: "taken-sub", strategy: "database", existingUser: { email: "taken@example.com", name: "First Comer" } },
    scripts: ["OAuth address held by another user"],
  },
  "oidc, JWT, jwt callback applying update()": {
    scenario: { name: "oidc-update", account: "ada-sub", strategy: "jwt", updateCallback: true },
    scripts: ["session update"],
  },
  "oidc, JWT, pages.signOut": {
    scenario: { name: "oidc-signout-page", account: "ada-sub", strategy: "jwt", pages: { signOut: "/goodbye" } },
    scripts: ["sign-out with pages.signOut"],
  },
  "oidc, JWT, cookies option": {
    scenario: {
      name: "oidc-cookies",
      account: "ada-sub",
      strategy: "jwt",
      cookies: { sessionToken: { name: "app.session-token", options: SECURE }, csrfToken: { name: "app.csrf-token", options: SECURE }, callbackUrl: { name: "app.callback-url", options: SECURE } },
    },
    scripts: ["custom cookie names"],
  },
  "oidc, JWT, a 6 KB claim (chunked)": {
    scenario: { name: "oidc-chunked", account: "ada-sub", strategy: "jwt", bigClaim: 6000 },
    scripts: ["chunked session"],
  },
}
