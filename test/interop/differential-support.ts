// Support for test/interop/differential.test.ts: one Auth.js-style app configuration built twice,
// once for the real @auth/core and once for latchkey's createAuth, each driven by its own cookie
// jar through the same scripted requests; and a normalised view of each answer (status, Location,
// Set-Cookie names and attributes, JSON bodies without their random values).
import { Auth, setEnvDefaults, type AuthConfig as AuthjsConfig } from "@auth/core"
import type { Adapter as AuthjsAdapter, AdapterAccount, AdapterSession, AdapterUser, VerificationToken } from "@auth/core/adapters"
import { CredentialsSignin as AuthjsCredentialsSignin } from "@auth/core/errors"
import AuthjsCredentials from "@auth/core/providers/credentials"
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import { CredentialsSignin } from "../../src/errors.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"

export type Side = "authjs" | "latchkey"
export const SIDES: readonly Side[] = ["authjs", "latchkey"]
export const SECRET = "latchkey-differential-secret-0123456789abcdef"

/** A small in-memory Auth.js adapter, written against @auth/core/adapters only. */
export function authjsMemoryAdapter(): AuthjsAdapter {
  const users = new Map<string, AdapterUser>()
  const accounts = new Map<string, AdapterAccount>()
  const sessions = new Map<string, AdapterSession>()
  const tokens = new Map<string, VerificationToken>()
  const accountKey = (provider: string, providerAccountId: string) => `${provider}\u0000${providerAccountId}`
  return {
    async createUser(user) {
      const stored = { ...user, id: user.id ?? crypto.randomUUID() }
      users.set(stored.id, stored)
      return stored
    },
    async getUser(id) {
      return users.get(id) ?? null
    },
    async getUserByEmail(email) {
      return [...users.values()].find((user) => user.email === email) ?? null
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const account = accounts.get(accountKey(provider, providerAccountId))
      return account ? (users.get(account.userId) ?? null) : null
    },
    async updateUser(user) {
      const stored = { ...users.get(user.id)!, ...user }
      users.set(stored.id, stored)
      return stored
    },
    async linkAccount(account) {
      accounts.set(accountKey(account.provider, account.providerAccountId), account)
      return account
    },
    async createSession(session) {
      sessions.set(session.sessionToken, session)
      return session
    },
    async getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      const user = session ? users.get(session.userId) : undefined
      return session && user ? { session, user } : null
    },
    async updateSession(session) {
      const stored = sessions.get(session.sessionToken)
      if (!stored) return null
      const updated = { ...stored, ...session }
      sessions.set(updated.sessionToken, updated)
      return updated
    },
    async deleteSession(sessionToken) {
      const session = sessions.get(sessionToken) ?? null
      sessions.delete(sessionToken)
      return session
    },
    async createVerificationToken(token) {
      tokens.set(`${token.identifier}\u0000${token.token}`, token)
      return token
    },
    async useVerificationToken({ identifier, token }) {
      const key = `${identifier}\u0000${token}`
      const stored = tokens.get(key) ?? null
      tokens.delete(key)
      return stored
    },
  }
}

/** What a scenario configures; built the same way for both libraries. */
export interface Scenario {
  name: string
  /** The public origin the browser uses. */
  origin: string
  /** `basePath` passed to both; undefined leaves it to the library (or to AUTH_URL). */
  basePath?: string
  /** The base path the routes are served at (what the scripts request). */
  routes: string
  /** AUTH_URL instead of `trustHost: true`. */
  authUrl?: string
  /** Neither `trustHost` nor AUTH_URL (Auth.js then trusts the host outside production). */
  untrusted?: boolean
  credentials?: boolean
  email?: boolean
  strategy?: "jwt" | "database"
  pages?: { signIn?: string; error?: string; verifyRequest?: string; signOut?: string }
  /** callbacks.signIn: returns false for `deny@…`, a URL for `elsewhere@…`, else true. */
  signInCallback?: { redirectTo: string }
  /** callbacks.redirect: the given function, used by both. */
  redirect?: (params: { url: string; baseUrl: string }) => string
  /** callbacks.jwt/session adding `role` to the token and to the session. */
  roleCallbacks?: boolean
}

export const PASSWORD = "correct horse"

/** What authorize does with an address, the same on both sides. */
function authorizeOutcome(email: string, password: string): "user" | "null" | "throw" {
  if (email === "nobody@example.com") return "null"
  if (password !== PASSWORD) return "throw"
  return "user"
}

class AuthjsInvalidLogin extends AuthjsCredentialsSignin {
  override code = "invalid_login"
}
class LatchkeyInvalidLogin extends CredentialsSignin {
  override code = "invalid_login"
}

/** The pair of handlers for one scenario, with the links each side mailed. */
export function build(scenario: Scenario) {
  const outbox: Record<Side, string[]> = { authjs: [], latchkey: [] }
  /** What each side's redirect callback was called with. */
  const redirectCalls: Record<Side, { url: string; baseUrl: string }[]> = { authjs: [], latchkey: [] }
  const emailProvider = (side: Side) =>
    ({
      id: "email",
      type: "email",
      name: "Email",
      from: "auth@app.example.com",
      maxAge: 3600,
      sendVerificationRequest: ({ url }: { url: string }) => void outbox[side].push(url),
    }) as const
  const signIn = scenario.signInCallback
    ? ({ user }: { user: { email?: string | null } }) => {
        if (user.email?.startsWith("deny@")) return false
        if (user.email?.startsWith("elsewhere@")) return scenario.signInCallback!.redirectTo
        return true
      }
    : undefined
  const callbacksFor = (side: Side) => ({
    ...(signIn ? { signIn } : {}),
    ...(scenario.redirect
      ? {
          redirect: (params: { url: string; baseUrl: string }) => {
            redirectCalls[side].push({ url: params.url, baseUrl: params.baseUrl })
            return scenario.redirect!(params)
          },
        }
      : {}),
    ...(scenario.roleCallbacks
      ? {
          jwt: ({ token, user }: { token: Record<string, unknown>; user?: unknown }) => (user ? { ...token, role: "admin" } : token),
          session: ({ session, token, user }: { session: Record<string, unknown>; token?: Record<string, unknown>; user?: unknown }) => ({ ...session, role: token?.role ?? (user ? "db-admin" : undefined) }),
        }
      : {}),
  })
  // DIFF_DEBUG=1 prints what either library logged as an error.
  const silent = { error: (error: unknown) => void (process.env.DIFF_DEBUG && console.log("[differential] error logged:", error)), warn: () => {}, debug: () => {} }
  const adapterNeeded = scenario.email || scenario.strategy === "database"

  const authjsProviders: AuthjsConfig["providers"] = []
  if (scenario.credentials)
    authjsProviders.push(
      AuthjsCredentials({
        credentials: { email: {}, password: {} },
        authorize: ({ email, password }) => {
          const outcome = authorizeOutcome(String(email), String(password))
          if (outcome === "throw") throw new AuthjsInvalidLogin()
          return outcome === "null" ? null : { id: "u1", name: "Ada", email: String(email) }
        },
      }),
    )
  if (scenario.email) authjsProviders.push({ ...emailProvider("authjs"), options: {} } as never)
  const authjsConfig: AuthjsConfig = {
    secret: SECRET,
    ...(scenario.authUrl || scenario.untrusted ? {} : { trustHost: true }),
    ...(scenario.basePath ? { basePath: scenario.basePath } : {}),
    providers: authjsProviders,
    // Always an adapter, with the strategy spelt out: @auth/core 0.41's assertConfig keeps
    // `hasEmail` in module state, so once any config in the process had an email provider, every
    // later config without an adapter answers 500 MissingAdapter. An adapter with the same
    // strategy changes nothing for credentials.
    adapter: authjsMemoryAdapter(),
    session: { strategy: scenario.strategy ?? "jwt" },
    ...(scenario.pages ? { pages: scenario.pages } : {}),
    callbacks: callbacksFor("authjs") as AuthjsConfig["callbacks"],
    logger: silent,
  }
  // As a framework integration (next-auth, @auth/express) does before each call to Auth().
  setEnvDefaults(scenario.authUrl ? { AUTH_URL: scenario.authUrl } : {}, authjsConfig)

  const latchkeyProviders: AuthConfig["providers"] = []
  if (scenario.credentials)
    latchkeyProviders.push(
      Credentials({
        credentials: { email: {}, password: {} },
        authorize: ({ email, password }) => {
          const outcome = authorizeOutcome(String(email), String(password))
          if (outcome === "throw") throw new LatchkeyInvalidLogin()
          return outcome === "null" ? null : { id: "u1", name: "Ada", email: String(email) }
        },
      }),
    )
  if (scenario.email) latchkeyProviders.push(emailProvider("latchkey"))
  const latchkey = createAuth({
    secret: SECRET,
    ...(scenario.authUrl ? { env: { AUTH_URL: scenario.authUrl } } : scenario.untrusted ? { env: {} } : { trustHost: true, env: {} }),
    ...(scenario.basePath ? { basePath: scenario.basePath } : {}),
    providers: latchkeyProviders,
    ...(adapterNeeded ? { adapter: memoryAdapter() } : {}),
    ...(scenario.strategy ? { session: { strategy: scenario.strategy } } : {}),
    ...(scenario.pages ? { pages: scenario.pages } : {}),
    callbacks: callbacksFor("latchkey") as AuthConfig["callbacks"],
    logger: silent,
  })
  const handlers: Record<Side, (request: Request) => Promise<Response>> = {
    authjs: (request) => Auth(request, authjsConfig),
    latchkey: latchkey.handler,
  }
  return { handlers, outbox, redirectCalls }
}

/** A browser-like cookie jar for one origin: sends what it holds, records Set-Cookie, follows no redirect. */
export class Jar {
  readonly cookies = new Map<string, string>()
  constructor(private readonly handler: (request: Request) => Promise<Response>) {}

  async send(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
    if (cookie) headers.set("cookie", cookie)
    const response = await this.handler(new Request(url, { ...init, headers }))
    for (const line of response.headers.getSetCookie()) {
      const parsed = parseSetCookie(line)
      if (parsed.cleared) this.cookies.delete(parsed.name)
      else this.cookies.set(parsed.name, parsed.value)
    }
    return response
  }
}

export interface ParsedCookie {
  name: string
  value: string
  cleared: boolean
  attributes: Record<string, string | true>
}

export function parseSetCookie(line: string): ParsedCookie {
  const [pair, ...rest] = line.split(";")
  const at = pair!.indexOf("=")
  const name = pair!.slice(0, at).trim()
  const value = pair!.slice(at + 1).trim()
  const attributes: Record<string, string | true> = {}
  for (const part of rest) {
    const eq = part.indexOf("=")
    const key = (eq === -1 ? part : part.slice(0, eq)).trim().toLowerCase()
    if (key) attributes[key] = eq === -1 ? true : part.slice(eq + 1).trim()
  }
  const maxAge = attributes["max-age"]
  const expires = attributes.expires
  const cleared = value === "" || maxAge === "0" || (typeof maxAge === "string" && Number(maxAge) <= 0) || (typeof expires === "string" && Date.parse(expires) <= Date.now())
  return { name, value, cleared, attributes }
}

/** One Set-Cookie line, as compared: its name, whether it sets or clears, and its attributes without values that vary. */
export function cookieView(line: string): string {
  const { name, cleared, attributes } = parseSetCookie(line)
  const flags = [
    `Path=${attributes.path ?? "-"}`,
    attributes.httponly ? "HttpOnly" : "",
    attributes.secure ? "Secure" : "",
    `SameSite=${String(attributes.samesite ?? "-").toLowerCase()}`,
    attributes["max-age"] !== undefined ? "Max-Age" : "",
    attributes.expires !== undefined ? "Expires" : "",
    attributes.domain !== undefined ? `Domain=${String(attributes.domain)}` : "",
  ].filter(Boolean)
  return `${cleared ? "clear" : "set"} ${name}; ${flags.join("; ")}`
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

/** A JSON body with its random values replaced: the CSRF token, expiry dates, generated ids. */
export function normaliseJson(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) return value.map((item) => normaliseJson(item))
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normaliseJson(v, k)]))
  if (typeof value === "string") {
    if (key === "csrfToken") return value.length >= 32 ? "<csrf token>" : `<short: ${value}>`
    if (ISO_DATE.test(value)) return "<date>"
    if (UUID.test(value)) return "<uuid>"
    if (key === "url") return normaliseUrl(value)
  }
  return value
}

/** A URL as compared: origin, path and each query parameter (a token's value replaced). */
export function normaliseUrl(href: string, base?: string): string {
  let url: URL
  try {
    url = new URL(href, base)
  } catch {
    return `<unparsable: ${href}>`
  }
  const query = [...url.searchParams].map(([name, value]) => `${name}=${name === "token" ? "<token>" : value}`).sort()
  return `${url.origin}${url.pathname}${query.length ? `?${query.join("&")}` : ""}`
}

export interface View {
  status: number
  location?: string
  cookies: string[]
  contentType: string
  body?: unknown
}

/** The normalised answer. JSON bodies are parsed; other bodies are left out. */
export async function view(response: Response, requestUrl: string): Promise<View> {
  const location = response.headers.get("location")
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim()
  const result: View = {
    status: response.status,
    ...(location === null ? {} : { location: normaliseUrl(location, requestUrl) }),
    cookies: response.headers.getSetCookie().map(cookieView).sort(),
    contentType,
  }
  const text = await response.text()
  if (contentType === "application/json") {
    try {
      result.body = normaliseJson(JSON.parse(text))
    } catch {
      result.body = `<invalid json: ${text.slice(0, 60)}>`
    }
  }
  return result
}

/** What a step knows of the run so far, on its own side. */
export interface StepContext {
  csrfToken: string
  mailed: string[]
  origin: string
  routes: string
}

export interface Step {
  label: string
  /** The request: a path under the origin (or an absolute URL) and its init. */
  request: (context: StepContext) => { url: string; init?: RequestInit }
}

export interface Run {
  views: View[]
  jar: Jar
}

/** Runs the steps on one side with a fresh jar, answering each step's normalised view. */
export async function runSide(scenario: Scenario, built: ReturnType<typeof build>, side: Side, steps: Step[]): Promise<Run> {
  const jar = new Jar(built.handlers[side])
  const context: StepContext = { csrfToken: "", mailed: built.outbox[side], origin: scenario.origin, routes: scenario.routes }
  const views: View[] = []
  for (const step of steps) {
    const { url, init } = step.request(context)
    const absolute = new URL(url, scenario.origin).href
    const response = await jar.send(absolute, init)
    const copy = response.clone()
    views.push(await view(response, absolute))
    if ((copy.headers.get("content-type") ?? "").includes("application/json")) {
      const body = (await copy.json().catch(() => null)) as { csrfToken?: unknown } | null
      if (body && typeof body.csrfToken === "string") context.csrfToken = body.csrfToken
    } else await copy.body?.cancel()
  }
  return { views, jar }
}

/** A form POST init. */
export function form(fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit {
  return { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields).toString() }
}

// ---------------------------------------------------------------------------------------------
// The scripts: each a sequence of steps run on both sides from a fresh jar.

const csrfStep: Step = { label: "GET /csrf", request: ({ routes }) => ({ url: `${routes}/csrf` }) }
const sessionStep: Step = { label: "GET /session", request: ({ routes }) => ({ url: `${routes}/session` }) }

/** A credentials sign-in POST to /callback/credentials, as a page's form or next-auth/react posts it. */
export function credentialsPost(label: string, fields: (context: StepContext) => Record<string, string>, headers: Record<string, string> = {}, path = "callback/credentials"): Step {
  return { label, request: (context) => ({ url: `${context.routes}/${path}`, init: form(fields(context), headers) }) }
}

export const RETURN_REDIRECT = { "X-Auth-Return-Redirect": "1" }

export const SCRIPTS: Record<string, Step[]> = {
  "unauthenticated reads": [
    csrfStep,
    { label: "GET /providers", request: ({ routes }) => ({ url: `${routes}/providers` }) },
    sessionStep,
    { label: "GET /signin (page)", request: ({ routes }) => ({ url: `${routes}/signin` }) },
    { label: "GET /signout (page)", request: ({ routes }) => ({ url: `${routes}/signout` }) },
    { label: "GET /signin?callbackUrl=/dashboard", request: ({ routes }) => ({ url: `${routes}/signin?callbackUrl=%2Fdashboard` }) },
    { label: "GET /error?error=Configuration", request: ({ routes }) => ({ url: `${routes}/error?error=Configuration` }) },
    { label: "GET /error?error=AccessDenied", request: ({ routes }) => ({ url: `${routes}/error?error=AccessDenied` }) },
    { label: "GET /error?error=Verification", request: ({ routes }) => ({ url: `${routes}/error?error=Verification` }) },
    { label: "GET /error (no code)", request: ({ routes }) => ({ url: `${routes}/error` }) },
    { label: "GET /verify-request", request: ({ routes }) => ({ url: `${routes}/verify-request` }) },
  ],
  "credentials sign-in, session, sign-out": [
    csrfStep,
    credentialsPost("POST /callback/credentials (right password)", ({ csrfToken, origin }) => ({ csrfToken, email: "ada@example.com", password: PASSWORD, callbackUrl: `${origin}/dashboard` })),
    sessionStep,
    csrfStep,
    { label: "POST /signout without csrfToken", request: ({ routes, origin }) => ({ url: `${routes}/signout`, init: form({ callbackUrl: `${origin}/bye` }) }) },
    sessionStep,
    { label: "POST /signout with csrfToken", request: ({ routes, csrfToken, origin }) => ({ url: `${routes}/signout`, init: form({ csrfToken, callbackUrl: `${origin}/bye` }) }) },
    sessionStep,
  ],
  "credentials failures": [
    csrfStep,
    credentialsPost("wrong password (authorize throws CredentialsSignin code=invalid_login)", ({ csrfToken }) => ({ csrfToken, email: "ada@example.com", password: "wrong" })),
    credentialsPost("unknown user (authorize returns null)", ({ csrfToken }) => ({ csrfToken, email: "nobody@example.com", password: PASSWORD })),
    credentialsPost("missing csrfToken", () => ({ email: "ada@example.com", password: PASSWORD })),
    credentialsPost("wrong csrfToken", () => ({ csrfToken: "not-the-token", email: "ada@example.com", password: PASSWORD })),
    sessionStep,
  ],
  "credentials via /signin/credentials": [
    csrfStep,
    credentialsPost("POST /signin/credentials", ({ csrfToken, origin }) => ({ csrfToken, email: "ada@example.com", password: PASSWORD, callbackUrl: `${origin}/dashboard` }), {}, "signin/credentials"),
  ],
  "callbackUrl variants": [
    csrfStep,
    credentialsPost("no callbackUrl", ({ csrfToken }) => ({ csrfToken, email: "ada@example.com", password: PASSWORD })),
    credentialsPost("callbackUrl relative /dashboard?tab=1", ({ csrfToken }) => ({ csrfToken, email: "ada@example.com", password: PASSWORD, callbackUrl: "/dashboard?tab=1" })),
    credentialsPost("callbackUrl same-origin absolute", ({ csrfToken, origin }) => ({ csrfToken, email: "ada@example.com", password: PASSWORD, callbackUrl: `${origin}/account` })),
    credentialsPost("callbackUrl foreign origin", ({ csrfToken }) => ({ csrfToken, email: "ada@example.com", password: PASSWORD, callbackUrl: "https://evil.example/steal" })),
    credentialsPost("callbackUrl protocol-relative //evil.example", ({ csrfToken }) => ({ csrfToken, email: "ada@example.com", password: PASSWORD, callbackUrl: "//evil.example/steal" })),
  ],
  "a later request without callbackUrl": [
    csrfStep,
    credentialsPost("sign in with callbackUrl /account", ({ csrfToken, origin }) => ({ csrfToken, email: "ada@example.com", password: PASSWORD, callbackUrl: `${origin}/account` })),
    { label: "POST /signout without callbackUrl", request: ({ routes, csrfToken }) => ({ url: `${routes}/signout`, init: form({ csrfToken }) }) },
  ],
  "host trust": [sessionStep, csrfStep],
  "next-auth/react JSON calls (X-Auth-Return-Redirect: 1)": [
    csrfStep,
    credentialsPost("signIn('credentials', { redirect: false }) wrong password", ({ csrfToken, origin }) => ({ csrfToken, email: "ada@example.com", password: "wrong", callbackUrl: `${origin}/dashboard` }), RETURN_REDIRECT),
    credentialsPost("signIn('credentials', { redirect: false }) missing csrf", ({ origin }) => ({ email: "ada@example.com", password: PASSWORD, callbackUrl: `${origin}/dashboard` }), RETURN_REDIRECT),
    credentialsPost("signIn('credentials', { redirect: false }) success", ({ csrfToken, origin }) => ({ csrfToken, email: "ada@example.com", password: PASSWORD, callbackUrl: `${origin}/dashboard` }), RETURN_REDIRECT),
    sessionStep,
    { label: "signOut({ redirect: false })", request: ({ routes, csrfToken, origin }) => ({ url: `${routes}/signout`, init: form({ csrfToken, callbackUrl: `${origin}/bye` }, RETURN_REDIRECT) }) },
    sessionStep,
  ],
  "unknown provider, unknown action, other methods": [
    csrfStep,
    { label: "GET /signin/nope", request: ({ routes }) => ({ url: `${routes}/signin/nope` }) },
    { label: "POST /signin/nope", request: ({ routes, csrfToken }) => ({ url: `${routes}/signin/nope`, init: form({ csrfToken }) }) },
    { label: "GET /callback/nope", request: ({ routes }) => ({ url: `${routes}/callback/nope` }) },
    { label: "GET /frobnicate", request: ({ routes }) => ({ url: `${routes}/frobnicate` }) },
    { label: "POST /frobnicate", request: ({ routes, csrfToken }) => ({ url: `${routes}/frobnicate`, init: form({ csrfToken }) }) },
    { label: "HEAD /session", request: ({ routes }) => ({ url: `${routes}/session`, init: { method: "HEAD" } }) },
    { label: "HEAD /csrf", request: ({ routes }) => ({ url: `${routes}/csrf`, init: { method: "HEAD" } }) },
    { label: "PUT /session", request: ({ routes, csrfToken }) => ({ url: `${routes}/session`, init: { ...form({ csrfToken }), method: "PUT" } }) },
    { label: "PUT /signout", request: ({ routes, csrfToken }) => ({ url: `${routes}/signout`, init: { ...form({ csrfToken }), method: "PUT" } }) },
  ],
  "email sign-in": [
    csrfStep,
    { label: "POST /signin/email", request: ({ routes, csrfToken, origin }) => ({ url: `${routes}/signin/email`, init: form({ csrfToken, email: "grace@example.com", callbackUrl: `${origin}/welcome` }) }) },
    { label: "HEAD mailed link", request: ({ mailed }) => ({ url: mailed.at(-1)!, init: { method: "HEAD" } }) },
    { label: "GET mailed link with a wrong token", request: ({ mailed }) => ({ url: withToken(mailed.at(-1)!, "0".repeat(64)) }) },
    { label: "GET mailed link", request: ({ mailed }) => ({ url: mailed.at(-1)! }) },
    sessionStep,
    { label: "GET mailed link again (reused)", request: ({ mailed }) => ({ url: mailed.at(-1)! }) },
    { label: "POST /signin/email with no address", request: ({ routes, csrfToken }) => ({ url: `${routes}/signin/email`, init: form({ csrfToken }) }) },
    { label: "POST /signin/email without csrf", request: ({ routes }) => ({ url: `${routes}/signin/email`, init: form({ email: "grace@example.com" }) }) },
    { label: "POST /signin/email JSON-style (X-Auth-Return-Redirect)", request: ({ routes, csrfToken, origin }) => ({ url: `${routes}/signin/email`, init: form({ csrfToken, email: "grace@example.com", callbackUrl: `${origin}/welcome` }, RETURN_REDIRECT) }) },
    { label: "POST mailed link (the link's query, as a form POST)", request: ({ mailed }) => ({ url: mailed.at(-1)!, init: form({}) }) },
  ],
  "signIn callback refusals": [
    csrfStep,
    credentialsPost("signIn callback returns false", ({ csrfToken }) => ({ csrfToken, email: "deny@example.com", password: PASSWORD })),
    credentialsPost("signIn callback returns a URL", ({ csrfToken }) => ({ csrfToken, email: "elsewhere@example.com", password: PASSWORD })),
    credentialsPost("signIn callback returns false (X-Auth-Return-Redirect)", ({ csrfToken }) => ({ csrfToken, email: "deny@example.com", password: PASSWORD }), RETURN_REDIRECT),
    sessionStep,
  ],
  "email signIn callback refusals": [
    csrfStep,
    { label: "POST /signin/email, signIn callback returns false", request: ({ routes, csrfToken }) => ({ url: `${routes}/signin/email`, init: form({ csrfToken, email: "deny@example.com" }) }) },
    { label: "POST /signin/email, signIn callback returns a URL", request: ({ routes, csrfToken }) => ({ url: `${routes}/signin/email`, init: form({ csrfToken, email: "elsewhere@example.com" }) }) },
  ],
}

function withToken(link: string, token: string): string {
  const url = new URL(link)
  url.searchParams.set("token", token)
  return url.href
}

const ORIGIN = "https://app.example.com"

export const SCENARIOS: Record<string, { scenario: Scenario; scripts: string[] }> = {
  "credentials, JWT sessions, jwt/session callbacks adding a field": {
    scenario: { name: "jwt-credentials", origin: ORIGIN, routes: "/auth", credentials: true, roleCallbacks: true },
    scripts: ["unauthenticated reads", "credentials sign-in, session, sign-out", "credentials failures", "credentials via /signin/credentials", "callbackUrl variants", "a later request without callbackUrl", "next-auth/react JSON calls (X-Auth-Return-Redirect: 1)", "unknown provider, unknown action, other methods"],
  },
  "email provider, database sessions, memory adapters": {
    scenario: { name: "email-database", origin: ORIGIN, routes: "/auth", email: true, strategy: "database", roleCallbacks: true },
    scripts: ["unauthenticated reads", "email sign-in"],
  },
  "custom pages, basePath /api/auth, credentials and email with JWT sessions": {
    scenario: { name: "pages-basepath", origin: ORIGIN, basePath: "/api/auth", routes: "/api/auth", credentials: true, email: true, strategy: "jwt", pages: { signIn: "/login", error: "/oops", verifyRequest: "/check-email" } },
    scripts: ["unauthenticated reads", "credentials failures", "callbackUrl variants", "email sign-in", "next-auth/react JSON calls (X-Auth-Return-Redirect: 1)", "unknown provider, unknown action, other methods"],
  },
  "callbacks.signIn (false / URL) and callbacks.redirect": {
    scenario: {
      name: "callbacks",
      origin: ORIGIN,
      routes: "/auth",
      credentials: true,
      email: true,
      strategy: "jwt",
      signInCallback: { redirectTo: `${ORIGIN}/not-invited` },
      redirect: ({ url, baseUrl }) => (url.startsWith("/") ? `${baseUrl}/r${url}` : new URL(url).origin === baseUrl ? url.replace(baseUrl, `${baseUrl}/r`) : `${baseUrl}/r/outside`),
    },
    scripts: ["signIn callback refusals", "email signIn callback refusals", "callbackUrl variants", "credentials sign-in, session, sign-out"],
  },
  "AUTH_URL=https://app.example.com/api/auth, no basePath, no trustHost": {
    scenario: { name: "auth-url", origin: ORIGIN, authUrl: `${ORIGIN}/api/auth`, routes: "/api/auth", credentials: true },
    scripts: ["unauthenticated reads", "credentials sign-in, session, sign-out", "callbackUrl variants"],
  },
  "neither trustHost nor AUTH_URL": {
    scenario: { name: "untrusted", origin: ORIGIN, routes: "/auth", credentials: true, untrusted: true },
    scripts: ["host trust"],
  },
  "plain http origin (http://localhost:3000), trustHost": {
    scenario: { name: "http-localhost", origin: "http://localhost:3000", routes: "/auth", credentials: true },
    scripts: ["unauthenticated reads", "credentials sign-in, session, sign-out"],
  },
}
